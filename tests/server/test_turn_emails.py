"""Turn e-mails against a real SMTP server (aiosmtpd on loopback): an address gets one confirmation e-mail and
nothing else until its owner confirms it; then a player who is not connected gets exactly one e-mail when their
turn begins, with a link that takes their seat; a connected player gets none; a bad address or an SMTP server that
is away costs the game nothing (logged, counted in /metrics). The budgets of e-mail (issue 27, rows 5 and 11):
at the end."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from email import message_from_bytes
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from aiosmtpd.controller import Controller
from rajas.protocol.client import Client, ServerError
from rajas.server.storage.redis_store import RedisStore
from rajas.server.turns.mail import Mailer

from .conftest import Clients, Running, free_port, make_store, run_server, seated_room

UNIT = 0.3
PUBLIC = "https://rajas.example"


class Inbox:
    """What the SMTP server received; it refuses the recipient `refuse@example.org` as a real server would."""

    def __init__(self) -> None:
        self.mails: list[dict[str, Any]] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address == "refuse@example.org":
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content)
        body = msg.get_payload(decode=True).decode()  # (quoted-printable or not: as the reader sees it)
        mail = {"to": list(envelope.rcpt_tos), "subject": msg["Subject"], "body": body, "headers": dict(msg)}
        self.mails.append(mail)
        return "250 OK"

    def to(self, address: str) -> list[dict[str, Any]]:
        """The turn e-mails `address` got (not the confirmation)."""
        return [m for m in self.mails if address in m["to"] and not m["subject"].startswith(CONFIRM_SUBJECT)]

    def asked(self, address: str) -> list[dict[str, Any]]:
        """The confirmation e-mails `address` got."""
        return [m for m in self.mails if address in m["to"] and m["subject"].startswith(CONFIRM_SUBJECT)]


CONFIRM_SUBJECT = "Rajas: confirm"


def link_in(mail: dict[str, Any], path: str) -> str:
    """The link to `path` in a mail's body, pointed at the node under test instead of RAJAS_PUBLIC_URL."""
    return next(w for w in mail["body"].split() if w.startswith(PUBLIC + path))[len(PUBLIC) :]


async def confirm(running: Running, inbox: Inbox, address: str) -> None:
    """Waits for the confirmation e-mail to `address` and confirms it as its owner would (the page's button)."""
    for _ in range(100):
        if inbox.asked(address):
            break
        await asyncio.sleep(0.05)
    link = link_in(inbox.asked(address)[-1], "/email/confirm")
    async with httpx.AsyncClient(base_url=running.url) as http:
        assert (await http.get(link)).status_code == 200  # (a page with a button: opening it changes nothing)
        assert "Confirmed" in (await http.post(link)).text


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


class request_for:
    def __init__(self, url: str) -> None:
        self.url = url

    def getfixturevalue(self, name: str) -> str:
        return self.url


async def _server(kind: str, request: Any, monkeypatch: pytest.MonkeyPatch, smtp_url: str) -> Any:
    monkeypatch.setenv("RAJAS_TURN_UNIT", str(UNIT))
    monkeypatch.setenv("RAJAS_SMTP_URL", smtp_url)
    monkeypatch.setenv("RAJAS_SMTP_FROM", "rajas@example.org")
    monkeypatch.setenv("RAJAS_PUBLIC_URL", PUBLIC)
    url = request.getfixturevalue("redis_url") if kind == "redis" else None
    return run_server(make_store(kind, url))


@pytest.fixture
async def mail_server(
    store_kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, smtp: tuple[Inbox, int]
) -> AsyncIterator[tuple[Running, Inbox]]:
    async with await _server(store_kind, request, monkeypatch, f"smtp://127.0.0.1:{smtp[1]}") as running:
        yield running, smtp[0]


async def play_until_turn_of(seated: list[Client], seat: int) -> None:
    """The players play their first options until it is `seat`'s turn (a decision of the seat ends it)."""
    for _ in range(200):
        pending = seated[0].pending
        assert pending is not None
        if pending["player"] == seat:
            return
        c = next(c for c in seated if c.seat == pending["player"])
        data = await c.decide(pending["options"][0], v=c.v)
        for x in seated:
            await x.wait_for(lambda x, v=data["v"]: x.v >= v)
    raise AssertionError("the turn never came")


async def _set_up(
    running: Running, clients: Clients, limit: int, inbox: Inbox | None = None, **emails: str
) -> tuple[dict[str, Any], list[Client]]:
    """A turn-based room of two, each giving the address in `emails` (first, second), confirmed from `inbox`."""
    created, seated = await seated_room(clients, running.url, mode="turns", turn_limit=limit)
    hello = next(m for m in seated[0].received if m.get("type") == "reply" and m["data"] and "protocol" in m["data"])
    assert hello["data"]["email"] is True  # the client offers the field
    first = seated[0].pending["player"]  # type: ignore[index]
    order = sorted(seated, key=lambda c: c.seat != first)  # the player to move first, then the other
    for c, address in zip(order, (emails.get("first"), emails.get("second")), strict=True):
        if address:
            await c.request("email", address=address)
            if inbox is not None:
                await confirm(running, inbox, address)
    return created, order


async def test_an_absent_player_gets_one_e_mail_when_their_turn_begins_and_its_link_takes_the_seat(
    mail_server: tuple[Running, Inbox], clients: Clients
) -> None:
    running, inbox = mail_server
    # (addresses of this test's own: a room of an earlier test on the same Redis may still send to its players)
    created, (first, second) = await _set_up(
        running, clients, 100, inbox, first="a1@example.org", second="b1@example.org"
    )
    second_seat, second_id = second.seat, second.seat_id
    assert second_seat is not None
    await second.close()  # away
    await first.wait_for(lambda c: second_id not in (c.presence or {}).get("connected", [second_id]))
    await play_until_turn_of([first], second_seat)
    deadline = time.monotonic() + 5
    while not inbox.to("b1@example.org") and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # (time for a second e-mail, which must not come)
    mails = inbox.to("b1@example.org")
    assert len(mails) == 1 and inbox.to("a1@example.org") == []  # the connected player got none
    assert created["code"] in mails[0]["subject"]
    # Nothing in what anyone sees names an address.
    assert "b1@example.org" not in repr(first.received) and "a1@example.org" not in repr(first.received)
    # The link goes straight back to the seat.
    link = next(w for w in mails[0]["body"].split() if w.startswith(PUBLIC))
    parts = urlsplit(link)
    query, fragment = parse_qs(parts.query), parse_qs(parts.fragment)
    assert "seat" not in query  # the token is after "#": never sent to a server, never in an access log
    back = await clients.open(running.url)
    joined = await back.join(query["room"][0], token=fragment["resume"][0])
    assert joined["seat_id"] == second_id and joined["role"] == "player"
    await back.wait_for(lambda c: c.room is not None and c.v >= first.v)
    # The seat plays its turn; the next turn is the connected player's, who gets no e-mail.
    await play_until_turn_of([back, first], first.seat)  # type: ignore[arg-type]
    await asyncio.sleep(0.5)
    assert len(inbox.to("b1@example.org")) == 1 and inbox.to("a1@example.org") == []


async def test_a_reminder_goes_before_the_limit_runs_out(mail_server: tuple[Running, Inbox], clients: Clients) -> None:
    running, inbox = mail_server
    _created, (first, second) = await _set_up(running, clients, 10, inbox, second="b2@example.org")  # 3 s a turn
    second_seat = second.seat
    assert second_seat is not None
    await second.close()
    await play_until_turn_of([first], second_seat)
    await first.wait_for(lambda c: any(e["type"] == "clock_expired" for e in c.events), timeout=10)
    subjects = [m["subject"] for m in inbox.to("b2@example.org")]
    assert len(subjects) == 2 and "runs out soon" in subjects[1] and "runs out" not in subjects[0]


async def test_a_refused_address_costs_the_game_nothing(mail_server: tuple[Running, Inbox], clients: Clients) -> None:
    running, inbox = mail_server
    _created, (first, second) = await _set_up(running, clients, 100, second="refuse@example.org")
    second_seat = second.seat
    assert second_seat is not None
    await second.close()
    await play_until_turn_of([first], second_seat)
    async with httpx.AsyncClient() as http:
        for _ in range(100):
            text = (await http.get(f"{running.url}/metrics")).text
            if 'rajas_emails_total{result="failed"} 1' in text:
                break
            await asyncio.sleep(0.05)
    assert 'rajas_emails_total{result="failed"} 1' in text
    assert inbox.to("refuse@example.org") == []
    assert await first.request("ping")  # and the room goes on
    assert first.room["status"] == "playing"  # type: ignore[index]


async def test_an_smtp_server_that_is_away_costs_the_game_nothing(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, clients: Clients
) -> None:
    async with await _server("memory", request, monkeypatch, f"smtp://127.0.0.1:{free_port()}") as running:
        _created, (first, second) = await _set_up(running, clients, 100, second="b@example.org")
        second_seat = second.seat
        assert second_seat is not None
        await second.close()
        started = time.monotonic()
        await play_until_turn_of([first], second_seat)
        assert time.monotonic() - started < 5  # nothing waited for the mail
        emails = running.turns.mailer.sent
        for _ in range(200):
            if emails.value("failed") >= 1:
                break
            await asyncio.sleep(0.05)
        assert emails.value("failed") == 1 and emails.value("sent") == 0
        assert await first.request("ping")


async def test_a_bad_address_or_a_live_room_is_refused(mail_server: tuple[Running, Inbox], clients: Clients) -> None:
    running, _inbox = mail_server
    _created, (first, _second) = await _set_up(running, clients, 100)
    before = await running.hub.load(_created["code"], fresh=True)
    for bad in ("not an address", "a@b", "x" * 250 + "@example.org", "a@example.org\r\nBcc: c@example.org"):
        with pytest.raises(ServerError) as e:
            await first.request("email", address=bad)
        assert e.value.code in ("bad_email", "malformed_frame")
    with pytest.raises(ServerError) as e:
        await first.request("email", address="x" * 300)
    assert e.value.code == "malformed_frame"  # past the field's length
    _live, (a, _b) = await seated_room(clients, running.url)
    with pytest.raises(ServerError) as e:
        await a.request("email", address="a@example.org")
    assert e.value.code == "email_unavailable"
    spectator = await clients.open(running.url)
    await spectator.join(_created["code"], role="spectator")
    with pytest.raises(ServerError) as e:
        await spectator.request("email", address="a@example.org")
    assert e.value.code == "not_a_player"
    assert await first.request("ping")
    after = await running.hub.load(_created["code"], fresh=True)
    assert after.v == before.v and after.seats == before.seats  # nothing refused changed the room


async def test_two_nodes_send_each_e_mail_once(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, smtp: tuple[Inbox, int], clients: Clients
) -> None:
    """Both nodes sweep the turn index and see the room's commits; only the node that commits the turn's start
    or its reminder sends that e-mail: the absent player gets one of each, not two."""
    inbox, port = smtp
    first_node = await _server("redis", request_for(redis_url), monkeypatch, f"smtp://127.0.0.1:{port}")
    async with first_node as one, run_server(RedisStore(redis_url)) as two:
        assert two.turns.mailer.enabled
        created, (first, second) = await _set_up(one, clients, 10, inbox, second="b3@example.org")  # 3 s a turn
        second_seat = second.seat
        assert second_seat is not None
        await second.close()
        watcher = await clients.open(two.url)  # a connection on the other node too
        await watcher.join(created["watch"], role="spectator")
        await play_until_turn_of([first], second_seat)
        await first.wait_for(lambda c: any(e["type"] == "clock_expired" for e in c.events), timeout=10)
        await asyncio.sleep(0.3)
        subjects = [m["subject"] for m in inbox.to("b3@example.org")]
        assert len(subjects) == 2 and "runs out soon" in subjects[1]


# ---- issue 27: what e-mail may cost (rows 5 and 11) ----------------------------------------------------------


async def test_5_a_strangers_address_gets_one_confirmation_and_nothing_more_however_fast_the_game(
    mail_server: tuple[Running, Inbox], clients: Clients
) -> None:
    running, inbox = mail_server
    _created, (first, second) = await _set_up(running, clients, 100, second="stranger@example.org")  # not confirmed
    second_seat = second.seat
    assert second_seat is not None
    await second.close()
    for _ in range(6):  # turn after turn of the absent seat, each a turn e-mail if the address were confirmed
        await play_until_turn_of([first], second_seat)
        back = await clients.open(running.url)
        await back.join(_created["code"], token=second.token)
        await back.wait_for(lambda c: c.v >= first.v)
        await play_until_turn_of([back, first], first.seat)  # type: ignore[arg-type]
        await back.close()
    await asyncio.sleep(0.5)
    assert inbox.to("stranger@example.org") == []
    [asked] = inbox.asked("stranger@example.org")
    assert second.room is not None
    name = second.room["seats"][second_seat]["name"]
    assert f'"{name}"' in asked["body"] and _created["watch"] in asked["body"]  # who asked, and where
    assert _created["code"] not in asked["body"] and "#resume=" not in asked["body"]  # nothing that opens a seat
    headers = asked["headers"]
    assert headers["Date"] and headers["Message-ID"].endswith("@example.org>")
    unsubscribe = headers["List-Unsubscribe"].strip("<>")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and unsubscribe in asked["body"]
    # The owner refuses every e-mail (a mail program's one-click POST): a confirmation link no longer works either.
    async with httpx.AsyncClient(base_url=running.url) as http:
        done = await http.post(unsubscribe[len(PUBLIC) :], content=b"List-Unsubscribe=One-Click")
        assert "sends nothing more" in done.text
        confirmed = await http.post(link_in(asked, "/email/confirm"))
        assert "refused" in confirmed.text
    await second.close()
    again = await clients.open(running.url)
    await again.join(_created["code"], token=second.token)
    assert (await again.request("email", address="stranger@example.org")) == {"email": True, "confirmed": False}
    await asyncio.sleep(0.3)
    assert len(inbox.asked("stranger@example.org")) == 1  # no second confirmation to an address that refused


async def test_5_a_confirmed_address_gets_at_most_its_daily_e_mails(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, smtp: tuple[Inbox, int], clients: Clients
) -> None:
    inbox, port = smtp
    monkeypatch.setenv("RAJAS_MAIL_PER_ADDRESS_DAY", "2")
    async with await _server("memory", request, monkeypatch, f"smtp://127.0.0.1:{port}") as running:
        created, (first, second) = await _set_up(running, clients, 100, inbox, second="c1@example.org")
        second_seat = second.seat
        assert second_seat is not None
        await second.close()
        for _ in range(4):
            await play_until_turn_of([first], second_seat)
            back = await clients.open(running.url)
            await back.join(created["code"], token=second.token)
            await back.wait_for(lambda c: c.v >= first.v)
            await play_until_turn_of([back, first], first.seat)  # type: ignore[arg-type]
            await back.close()
            await first.wait_for(lambda c: second.seat_id not in (c.presence or {}).get("connected", []))
        await asyncio.sleep(0.5)
        assert len(inbox.to("c1@example.org")) == 2
        assert running.hub.metrics.limit_refusals.value("mail_per_address") >= 1


def test_5_one_room_cannot_take_another_rooms_place_in_the_queue() -> None:
    mailer = Mailer("smtp://127.0.0.1:1", "Rajas <rajas@example.org>", PUBLIC, queue=100)
    mailer.start = lambda: None  # type: ignore[method-assign]  # (nothing is sent: the queue is what is looked at)
    queued = [mailer.send("flood", "x@example.org", "s", "b", PUBLIC + "/u") for _ in range(50)]
    assert queued.count(True) == 10 and mailer.sent.value("dropped") == 40  # a room's share: a tenth of the queue
    assert mailer.send("quiet", "y@example.org", "s", "b", PUBLIC + "/u")
    first, second = mailer._next(), mailer._next()
    assert first is not None and second is not None
    assert {first["To"], second["To"]} == {"x@example.org", "y@example.org"}  # its turn comes at once


async def test_11_setting_an_address_is_no_room_change_and_a_seat_changes_it_a_few_times_a_day(
    mail_server: tuple[Running, Inbox], clients: Clients
) -> None:
    running, _inbox = mail_server
    created, (first, second) = await _set_up(running, clients, 100)
    before = await running.hub.load(created["code"], fresh=True)
    updates = len([m for m in second.received if m.get("type") == "update"])
    replies = []
    for i in range(12):
        try:
            replies.append(await first.request("email", address=f"t{i % 2}@example.org" if i % 4 < 2 else None))
        except ServerError as e:
            replies.append(e.code)
    assert replies[10:] == ["too_many_emails", "too_many_emails"]  # RAJAS_EMAIL_CHANGES_PER_DAY: 10
    after = await running.hub.load(created["code"], fresh=True)
    assert after.v == before.v and after.seats == before.seats  # no commit, no address in the room's record
    await asyncio.sleep(0.2)
    assert len([m for m in second.received if m.get("type") == "update"]) == updates  # nobody was told anything
