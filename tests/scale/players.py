"""Players that survive their server: on a dropped connection they come back through the balancer with
their seat token and send the decision they were making again, with the same message id, until answered.
Each keeps the decisions the server acknowledged, to compare with the finished game's log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from rajas.protocol.client import Client, ServerError
from rajas.server.fairness import verify
from websockets.exceptions import ConnectionClosed

RETRY = (ConnectionError, OSError, asyncio.TimeoutError, ConnectionClosed)


@dataclass
class Seat:
    url: str
    code: str
    token: str
    seed: int
    think: float = 0.0
    acked: list[Any] = field(default_factory=list)  # decisions the server said ok (or duplicate) to
    reconnects: int = 0
    internal_retries: int = 0
    client: Client | None = None

    async def connect(self) -> Client:
        for attempt in range(100):
            try:
                c = await Client(self.url, keep=False).connect()
                await c.join(self.code, token=self.token)
                await c.wait_for(lambda c: c.game is not None, timeout=10)
                self.client = c
                return c
            except (*RETRY, ServerError):
                await asyncio.sleep(min(1.0, 0.05 * (attempt + 1)))
        raise RuntimeError("could not reconnect")

    async def _decide(self, wire: Any, at: int) -> None:
        """Sends one decision until the server answers it; the same id every time, so it is applied once."""
        assert self.client is not None
        mid = self.client.next_id()
        while True:
            try:
                await self.client.decide(wire, v=at, id=mid)
                self.acked.append(wire)
                return
            except ServerError as e:
                if e.code == "internal":  # the store was away (Redis restarting): the same message again
                    self.internal_retries += 1
                    await asyncio.sleep(0.1)
                    continue
                if e.code in ("stale_version", "not_your_turn"):
                    return  # the room moved on (the turn clock's bot); look again
                raise
            except RETRY:
                self.reconnects += 1
                with contextlib.suppress(Exception):
                    await self.client.close()
                await self.connect()

    async def play(self, pause: asyncio.Event | None = None) -> Client:
        rng = random.Random(self.seed)
        c = self.client or await self.connect()
        while True:
            try:
                if c.closed.is_set():
                    raise ConnectionError("dropped")
                await c.wait_for(lambda c: c.over or c.my_turn, timeout=20)
            except RETRY:
                self.reconnects += 1
                with contextlib.suppress(Exception):
                    await c.close()
                c = await self.connect()
                continue
            if c.over:
                return c
            if pause is not None:
                await pause.wait()
            if self.think:
                await asyncio.sleep(self.think)
            if not c.my_turn or c.closed.is_set():
                continue  # (a dropped connection is noticed at the top)
            assert c.pending is not None
            await self._decide(rng.choice(c.pending["options"]), c.v)
            c = self.client
            assert c is not None


async def seat_room(
    url: str, players: int, spectators: int = 0, **settings: Any
) -> tuple[dict[str, Any], list[Seat], list[Client]]:
    """A started room: `players` seats (tokens kept) and `spectators` watchers, all through `url`."""
    host = await Client(url, keep=False).connect()
    created = await host.create_room(seats=players, **settings)
    await host.join(created["code"], name="p0", host_token=created["host_token"])
    tokens = [host.token]
    others: list[Client] = []
    for i in range(1, players):
        c = await Client(url, keep=False).connect()
        await c.join(created["code"], name=f"p{i}")
        tokens.append(c.token)
        others.append(c)
    watchers = []
    for _ in range(spectators):
        w = await Client(url, keep=False).connect()
        await w.join(created["watch"], role="spectator")
        watchers.append(w)
    await host.start()
    seats = []
    for i, (client, token) in enumerate(zip([host, *others], tokens, strict=True)):
        assert token is not None
        await client.wait_for(lambda c: c.game is not None, timeout=10)
        seats.append(Seat(url, created["code"], token, seed=i, client=client))
    return created, seats, watchers


def fetch_log(url: str, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/rooms/{code}/log", timeout=10) as resp:
        data: dict[str, Any] = json.loads(resp.read())
        return data


def check_acked(log: dict[str, Any], seats: list[Seat]) -> None:
    """Nothing acknowledged is lost, nothing is applied twice: each seat's decisions in the log, in order,
    are exactly the ones the server acknowledged to that seat."""
    for i, seat in enumerate(seats):
        logged = [d[1] for d in log["decisions"] if d[0] == i and d[2] == "player"]
        assert logged == seat.acked, f"seat {i}: log has {len(logged)} decisions, {len(seat.acked)} acknowledged"


async def check_and_close(url: str, rooms: list[tuple[dict[str, Any], list[Seat], list[Client]]]) -> None:
    """Each finished room's log: its dice verify and it holds exactly the decisions acknowledged to each seat;
    then the room's players and spectators close."""
    for created, seats, watchers in rooms:
        log = fetch_log(url, created["code"])
        assert verify(log)["ok"]
        check_acked(log, seats)
        for c in [*(s.client for s in seats), *watchers]:
            if c is not None:
                await c.close()
