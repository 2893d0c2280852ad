"""`rajas bots`: whole games against a running server, through its public interface only.

Each table (`--concurrency` of them): one bot client creates a room over the websocket, N bot players and K
spectators join by the invite code; then game after game the host starts, everyone plays to the end, and the
host asks for a rematch. Each player chooses at random among the decisions the server offers it (so any game
plays the same way). After each game its log is fetched over HTTP, checked with `rajas verify`, and every
client's final state is compared with the server's.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import traceback
import urllib.request
from collections.abc import Callable
from typing import Any

from rajas.protocol.client import Client, ServerError
from rajas.server.fairness import _plain, verify


class Tally:
    def __init__(self) -> None:
        self.completed = 0
        self.errors = 0
        self.decisions = 0
        self.states_match = True
        self.mismatches = 0
        self.verified = 0
        self.gaps = 0
        self.retries = 0
        self.latencies: list[float] = []
        self.samples: list[str] = []

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.samples) < 5:
            self.samples.append(text)


def _fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.loads(resp.read())


def _past(v: int) -> Callable[[Client], bool]:
    """Waits until the room moved past version `v` (or its game is over)."""
    return lambda c: c.v > v or c.over


def _reached(v: int) -> Callable[[Client], bool]:
    return lambda c: c.v >= v


async def _play(client: Client, seed: str, tally: Tally) -> None:
    rng = random.Random(seed)
    while True:
        await client.wait_for(lambda c: c.over or c.my_turn, timeout=120)
        if client.over:
            return
        assert client.game is not None
        wire: Any = rng.choice(client.game["pending"]["options"])
        at = client.v
        started = time.perf_counter()
        try:
            data = await client.decide(wire, v=at)
        except ServerError as e:
            if e.code in ("rate_limited", "stale_version"):
                tally.retries += 1  # both are the protocol working: wait a moment / for the newer room
                await asyncio.sleep(0.05 if e.code == "rate_limited" else 0)
                await client.wait_for(_past(at), timeout=30)
                continue
            raise
        tally.latencies.append(time.perf_counter() - started)
        tally.decisions += 1
        await client.wait_for(_reached(data["v"]), timeout=30)


GAMES_PER_ROOM = 20  # a table opens a new room after this many games (the node's RAJAS_GAMES_PER_ROOM is 50)


def _status(*statuses: str) -> Callable[[Client], bool]:
    return lambda c: c.room is not None and c.room["status"] in statuses


async def _seat_table(
    url: str, players: int, spectators: int, options: dict[str, Any], clients: list[Client]
) -> tuple[dict[str, Any], list[Client]]:
    """A room with its bot players and spectators joined: the host first, in `clients` as they connect (so the
    caller closes them all, whatever fails)."""
    host = await Client(url, keep=False).connect()
    clients.append(host)
    created = await host.create_room(seats=players, spectators=spectators > 0, grace=600, **options)
    await host.join(created["code"], name="bot0", host_token=created["host_token"])
    for i in range(1, players):
        c = await Client(url, keep=False).connect()
        clients.append(c)
        await c.join(created["code"], name=f"bot{i}")
    watchers = []
    for _ in range(spectators):
        c = await Client(url, keep=False).connect()
        clients.append(c)
        watchers.append(c)
        await c.join(created["watch"], role="spectator")
    return created, watchers


async def _one_game(
    url: str, index: int, created: dict[str, Any], clients: list[Client], players: int, tally: Tally
) -> None:
    """One game at a seated table: start, play to the end, then check the room's log and every mirror."""
    host = clients[0]
    await host.start()
    await asyncio.gather(*(c.wait_for(_status("playing", "over"), timeout=30) for c in clients))
    await asyncio.gather(*(_play(c, f"{index}:{i}", tally) for i, c in enumerate(clients[:players])))
    await asyncio.gather(*(c.wait_for(_status("over"), timeout=30) for c in clients))
    log = await asyncio.to_thread(_fetch_json, f"{url.rstrip('/')}/api/rooms/{created['code']}/log")
    report = verify(log)
    if report["ok"]:
        tally.verified += 1
    else:
        tally.error(f"game {index}: verify failed: {report['problems']}")
    server_final = _plain(log["final_state"])
    for c in clients:
        tally.gaps += c.gaps
        if c.game is None or _plain(c.game["state"]) != server_final:
            tally.states_match = False
            tally.mismatches += 1
    tally.completed += 1


async def play_table(
    url: str,
    indices: list[int],
    players: int,
    spectators: int,
    options: dict[str, Any],
    tally: Tally,
    timeout: float,
    played: Callable[[float], None] | None = None,
) -> None:
    """The games `indices` one after another at one table: a room seated once, each next game by `rematch`, as
    friends play an evening (and as the node's budget of new rooms per address expects); a new room after
    GAMES_PER_ROOM games or after a game that failed."""
    left = list(indices)
    while left:
        clients: list[Client] = []
        index = left[0]  # the game being set up or played
        try:
            created, _ = await _seat_table(url, players, spectators, options, clients)
            for played_here in range(GAMES_PER_ROOM):
                if not left:
                    break
                if played_here:
                    await clients[0].rematch()
                    await asyncio.gather(*(c.wait_for(_status("lobby"), timeout=30) for c in clients))
                index = left[0]
                try:
                    await asyncio.wait_for(_one_game(url, index, created, clients, players, tally), timeout)
                except TimeoutError:
                    raise TimeoutError(f"took longer than {timeout} s") from None
                left.pop(0)
                if played is not None:
                    played(1)
        except Exception as e:  # counted and sampled: the run reports errors, it does not stop at the first
            tally.error(f"game {index}: {type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}")
            left.remove(index)  # (a failed game is not played again; the table sits down at a new room)
            if played is not None:
                played(1)
        finally:
            await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


async def run_bots(
    url: str,
    players: int = 4,
    games: int = 10,
    spectators: int = 0,
    concurrency: int = 4,
    options: dict[str, Any] | None = None,
    timeout: float = 300.0,
    played: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """`games` games at `concurrency` tables; `played(1)` after each game, however it ended."""
    tally = Tally()
    started = time.perf_counter()
    tables = max(1, min(concurrency, games))
    shares = [list(range(t, games, tables)) for t in range(tables)]
    await asyncio.gather(
        *(play_table(url, share, players, spectators, options or {}, tally, timeout, played) for share in shares)
    )
    elapsed = time.perf_counter() - started
    lat = sorted(tally.latencies) or [0.0]
    return {
        "games": games,
        "completed": tally.completed,
        "errors": tally.errors,
        "decisions": tally.decisions,
        "states_match": tally.states_match and tally.completed == games,
        "state_mismatches": tally.mismatches,
        "verified": tally.verified,
        "players": players,
        "spectators": spectators,
        "seconds": round(elapsed, 2),
        "decisions_per_s": round(tally.decisions / elapsed, 1) if elapsed else 0.0,
        "decision_ms_p50": round(lat[len(lat) // 2] * 1000, 2),
        "decision_ms_p99": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
        "gaps_resynced": tally.gaps,
        "retries": tally.retries,
        "error_samples": tally.samples,
    }
