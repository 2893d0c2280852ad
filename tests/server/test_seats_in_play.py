"""Who holds a seat during play (issue 17), on both stores: an away seat shows when the bot takes it, the host
can hand it to the bot at once, the owner coming back takes it back, a seat moves to another device with its
token, and a seat whose player left the game is taken over through the invite link only where the host
allows it."""

from __future__ import annotations

import time

import pytest
from rajas.protocol.client import Client, ServerError

from .conftest import Clients, Running, play_random, seated_room


def notices(c: Client) -> list[str]:
    return [m["code"] for m in c.received if m.get("type") == "notice"]


async def refused(code: str, coro: object) -> None:
    with pytest.raises(ServerError) as e:
        await coro  # type: ignore[misc]
    assert e.value.code == code


async def test_an_away_seat_shows_when_the_bot_takes_it_and_the_bot_takes_it_then(
    server: Running, clients: Clients
) -> None:
    _created, (a, b) = await seated_room(clients, server.url, players=2, grace=0.6, bot="random")
    dropped = time.time()
    await b.close()
    await a.wait_for(lambda c: c.room["seats"][1]["bot_at"] is not None, timeout=5)  # type: ignore[index]
    bot_at = a.room["seats"][1]["bot_at"]  # type: ignore[index]
    assert dropped < bot_at <= time.time() + 0.6  # the grace period from the drop, on the server's clock
    assert not a.room["seats"][1]["bot"]  # type: ignore[index]
    assert any(e["type"] == "away" and e["player"] == 1 and e["bot_at"] == bot_at for e in a.events)
    # the countdown ends: the bot plays the seat, which is no longer shown away
    await a.wait_for(lambda c: c.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    assert time.time() >= bot_at - 0.05
    assert a.room["seats"][1]["bot_at"] is None  # type: ignore[index]


async def test_the_join_reply_tells_the_servers_clock(server: Running, clients: Clients) -> None:
    created, _seated = await seated_room(clients, server.url, players=2, start=False, seats=3)
    c = await clients.open(server.url)
    before = time.time()
    data = await c.join(created["code"], name="c")
    assert before - 1 <= data["time"] <= time.time() + 1


@pytest.mark.own_server  # counts the server's seat changes
async def test_the_host_hands_an_away_seat_to_the_bot_and_its_owner_takes_it_back(
    server: Running, clients: Clients
) -> None:
    created, (a, b, c) = await seated_room(clients, server.url, players=3, grace=60, bot="random")
    token = b.token
    await refused("not_away", a.bot_now(1))  # b is still connected
    await b.close()
    await a.wait_for(lambda x: x.room["seats"][1]["bot_at"] is not None, timeout=5)  # type: ignore[index]
    v = a.v
    await refused("not_host", c.bot_now(1))  # another seat may not
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"], role="spectator")
    await refused("not_host", watcher.bot_now(1))  # nor a spectator
    assert a.v == v and not a.room["seats"][1]["bot"]  # type: ignore[index]  # nothing changed
    await refused("not_away", a.bot_now(4))  # no such seat
    await refused("malformed_frame", a.request("bot_now", seat=9))
    assert a.v == v
    await a.bot_now(1)  # long before the grace period is over
    await a.wait_for(lambda x: x.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    assert next(e for e in a.events if e["type"] == "bot_took_over")["by"] == "host"
    assert 'rajas_seat_changes_total{kind="bot_now"} 1' in server.hub.metrics.render()
    await refused("not_away", a.bot_now(1))  # the bot plays it already
    # the owner comes back with the seat's token: the bot lets go and the seat is theirs to play
    back = await clients.open(server.url)
    await back.join(created["code"], token=token)
    await a.wait_for(lambda x: not x.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    assert a.room["seats"][1]["bot_at"] is None  # type: ignore[index]
    await back.wait_for(lambda x: x.v >= a.v)
    bots_before = sum(1 for e in a.events if e["type"] == "decided" and e["by"] == "bot")
    await play_random([a, back, c], seed=3, max_decisions=60)
    assert sum(1 for e in a.events if e["type"] == "decided" and e["by"] == "bot") == bots_before


async def test_bot_now_is_refused_in_the_lobby(server: Running, clients: Clients) -> None:
    _created, (a, _b) = await seated_room(clients, server.url, players=2, start=False)
    await refused("wrong_phase", a.bot_now(1))


async def test_coming_back_during_the_countdown_ends_it(server: Running, clients: Clients) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2, grace=60)
    token = b.token
    await b.close()
    await a.wait_for(lambda x: x.room["seats"][1]["bot_at"] is not None, timeout=5)  # type: ignore[index]
    back = await clients.open(server.url)
    await back.join(created["code"], token=token)
    await a.wait_for(lambda x: x.room["seats"][1]["bot_at"] is None, timeout=5)  # type: ignore[index]
    assert any(e["type"] == "back" and e["player"] == 1 for e in a.events)
    assert not a.room["seats"][1]["bot"]  # type: ignore[index]


async def test_a_seat_moves_to_another_device_with_its_token(server: Running, clients: Clients) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2, bot="random")
    old = b.token
    phone = await clients.open(server.url)
    data = await phone.join(created["code"], token=old, move=True)
    assert data["role"] == "player" and data["seat_id"] == b.seat_id and data["token"] != old
    # the first device is told (it is no move of its own making, not a failure) and is out of the room
    await b.wait_for(lambda x: "seat_moved" in notices(x), timeout=5)
    await refused("not_joined", b.decide(["pass", []]))
    # the link's token opens nothing any more; the new one is the seat's
    late = await clients.open(server.url)
    await refused("bad_token", late.join(created["code"], token=old))
    assert not a.room["seats"][1]["bot"] and "seat_moved" not in notices(phone)  # type: ignore[index]
    await phone.wait_for(lambda x: x.v >= a.v)
    await play_random([a, phone], seed=5)
    assert any(e["type"] == "decided" and e["player"] == 1 and e["by"] == "player" for e in a.events)


async def test_a_left_seat_is_taken_over_only_where_the_host_allows_it(server: Running, clients: Clients) -> None:
    created, (a, b, _c) = await seated_room(clients, server.url, players=3, bot="random")
    await b.leave()
    await a.wait_for(lambda x: x.room["seats"][1]["left"] and x.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    newcomer = await clients.open(server.url)
    await refused("takeover_not_allowed", newcomer.join(created["code"], name="nia", seat=1))
    await refused("wrong_phase", newcomer.join(created["code"], name="nia"))
    assert a.room["seats"][1]["name"] == "p1"  # type: ignore[index]


async def test_a_newcomer_takes_over_a_left_seat_with_a_new_token(server: Running, clients: Clients) -> None:
    created, (a, b, c) = await seated_room(clients, server.url, players=3, bot="random", takeover=True)
    old = b.token
    await refused("seat_not_free", (await clients.open(server.url)).join(created["code"], name="nia", seat=2))
    await b.leave()
    await a.wait_for(lambda x: x.room["seats"][1]["left"], timeout=5)  # type: ignore[index]
    # a spectator (the watch code) never takes a seat
    watcher = await clients.open(server.url)
    seen = await watcher.join(created["watch"], name="eve", seat=1)
    assert seen["role"] == "spectator" and seen["token"] is None
    await refused("name_taken", (await clients.open(server.url)).join(created["code"], name="P2", seat=1))
    newcomer = await clients.open(server.url)
    data = await newcomer.join(created["code"], name="nia", seat=1)
    assert data["role"] == "player" and data["token"] not in (None, old)
    await a.wait_for(lambda x: x.room["seats"][1]["name"] == "nia", timeout=5)  # type: ignore[index]
    seat = a.room["seats"][1]  # type: ignore[index]
    assert not seat["bot"] and not seat["left"] and seat["id"] == data["seat_id"] != b.seat_id
    taken = next(e for e in a.events if e["type"] == "seat_taken_over")
    assert taken["left_name"] == "p1" and taken["name"] == "nia"
    # the old token stops working; the seat is no longer free
    await refused("bad_token", (await clients.open(server.url)).join(created["code"], token=old))
    await refused("seat_not_free", (await clients.open(server.url)).join(created["code"], name="zed", seat=1))
    await newcomer.wait_for(lambda x: x.v >= a.v)
    await play_random([a, newcomer, c], seed=9)
    assert any(e["type"] == "decided" and e["player"] == 1 and e["by"] == "player" for e in a.events)


async def test_the_leaver_comes_back_with_their_token_while_nobody_took_the_seat(
    server: Running, clients: Clients
) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2, bot="random", takeover=True)
    token = b.token
    await b.leave()
    await a.wait_for(lambda x: x.room["seats"][1]["left"], timeout=5)  # type: ignore[index]
    back = await clients.open(server.url)
    await back.join(created["code"], token=token)
    await a.wait_for(lambda x: not x.room["seats"][1]["left"] and not x.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]


async def test_bad_seat_and_move_fields_are_refused_and_change_nothing(server: Running, clients: Clients) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2, takeover=True)
    await b.leave()
    await a.wait_for(lambda x: x.room["seats"][1]["left"], timeout=5)  # type: ignore[index]
    c = await clients.open(server.url)
    for seat in ("1", -1, 5, True, 1.0, [1]):
        await refused("malformed_frame", c.request("join", room=created["code"], name="x", seat=seat))
    for move in ("yes", 1, {}):
        await refused("malformed_frame", c.request("join", room=created["code"], token=a.token, move=move))
    # a move without a token, and a spectator asking for a seat, take nothing
    await refused("wrong_phase", c.join(created["code"], name="x", move=True))
    await refused("bad_token", c.join(created["code"], token="not-a-token", move=True))
    assert (await c.request("ping"))["time"] > 0  # the node answers as before
    # (the bot may play the left seat meanwhile: the seats are what must not change)
    assert [s["name"] for s in a.room["seats"]] == ["p0", "p1"]  # type: ignore[index]
    assert a.room["seats"][1]["left"] and not any(e["type"] == "seat_taken_over" for e in a.events)  # type: ignore[index]


async def test_a_decision_made_before_someone_went_away_still_counts_one_made_before_a_move_does_not(
    server: Running, clients: Clients
) -> None:
    """A seat going away (or coming back) is a new room version, but not a new game state: a decision made
    seeing the version before it still means what it meant. A decision made before the game moved is refused."""
    _created, (a, b, c) = await seated_room(clients, server.url, players=3, grace=60, bot="random")
    movers = {0: a, 1: b, 2: c}
    mover = movers[a.pending["player"]]  # type: ignore[index]
    other = next(x for x in (a, b, c) if x is not mover)
    seen = mover.v
    await other.close()
    await mover.wait_for(lambda x: x.v > seen, timeout=5)  # the away mark
    assert any(e["type"] == "away" for e in mover.events)
    options = mover.pending["options"]  # type: ignore[index]
    data = await mover.decide(options[0], v=seen)  # made seeing the version before the away mark: it counts
    assert data["v"] == seen + 2
    await mover.wait_for(lambda x: x.v >= data["v"], timeout=5)
    await refused("stale_version", mover.decide(options[-1], v=seen))  # made before the game moved: refused
