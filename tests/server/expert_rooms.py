"""How long a person's decision takes to be answered while rooms of expert bots play on the same node: a probe
room of two random players decides as fast as it can, first alone, then beside `--rooms` rooms of one random
player and four experts each (no pace: the bots play at full speed). Prints the probe's round-trip p50/p99/max
and the bot decisions made, as JSON.

    python -m tests.server.expert_rooms --rooms 5 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

from rajas.protocol.client import Client, ServerError
from rajas.server.config import ServeSettings
from rajas.server.storage.memory_store import MemoryStore

from tests.server.conftest import Clients, run_server, seated_room, sync


async def _bot_room(clients: Clients, url: str, rng: random.Random, stop: float, kind: str) -> int:
    """One person playing random decisions against four bots of `kind`, game after game; returns the games."""
    games = 0
    while time.monotonic() < stop:
        host = await clients.open(url)
        created = await host.create_room(seats=5)
        await host.join(created["code"], name="solo", host_token=created["host_token"])
        for _ in range(4):
            await host.add_bot(kind)
        await host.start()
        await host.wait_for(lambda c: c.game is not None)
        while not host.over and time.monotonic() < stop:
            if not host.my_turn:
                await asyncio.sleep(0.01)
                continue
            assert host.pending is not None
            try:
                await host.decide(rng.choice(host.pending["options"]), v=host.v)
            except ServerError as e:
                assert e.code == "stale_version"
        games += 1
    return games


async def _probe(clients: Clients, url: str, rng: random.Random, stop: float) -> list[tuple[float, float, bool]]:
    """Two people deciding at once, room after room; each decision's round trip and when it began, in seconds."""
    times: list[tuple[float, float, bool]] = []
    began = time.perf_counter()
    while time.monotonic() < stop:
        _, seated = await seated_room(clients, url, players=2)
        while not seated[0].over and time.monotonic() < stop:
            c: Client = next(c for c in seated if c.my_turn)
            assert c.pending is not None
            t = time.perf_counter()
            data = await c.decide(rng.choice(c.pending["options"]), v=c.v)
            took = time.perf_counter() - t
            await sync(seated, data["v"])
            times.append((took, t - began, seated[0].over))
    return times


def _figures(times: list[tuple[float, float, bool]]) -> dict[str, Any]:
    ms = sorted(x[0] * 1000 for x in times)
    mid = sorted(x[0] * 1000 for x in times if not x[2])
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
    slowest = max(times)
    return {
        "decisions": len(ms),
        "p50_ms": round(q[49], 2),
        "p99_ms": round(q[98], 2),
        "max_ms": round(ms[-1], 2),
        "max_at_s": round(slowest[1], 2),  # (seconds into the probe: a one-off start or a recurring stall)
        "max_ended_a_game": slowest[2],
        "p99_ms_but_game_ends": round(statistics.quantiles(mid, n=100)[98], 2) if len(mid) > 1 else None,
    }


async def main(rooms: int, seconds: float, kind: str, think: float, processes: int) -> dict[str, Any]:
    settings = ServeSettings(
        bot_think=think,
        bot_processes=processes,
        bot_rate=1000.0,
        rooms_per_minute=1000,
        rooms_per_address=1000,
        conns_per_address=100_000,
    )
    async with run_server(MemoryStore(), settings) as server:
        clients = Clients()
        try:
            alone = await _probe(clients, server.url, random.Random(1), time.monotonic() + seconds / 4)
            before = server.hub.metrics.decisions.value("bot")
            stop = time.monotonic() + seconds
            load = [
                asyncio.create_task(_bot_room(clients, server.url, random.Random(10 + i), stop, kind))
                for i in range(rooms)
            ]
            await asyncio.sleep(1.0)  # (the bot rooms are seated and deciding)
            beside = await _probe(clients, server.url, random.Random(2), stop)
            games = sum(await asyncio.gather(*load))
            after = server.hub.metrics.decisions.value("bot")
        finally:
            await clients.close()
    return {
        "rooms": rooms,
        "bots": kind,
        "think_s": think,
        "processes": processes,
        "alone": _figures(alone),
        "beside_bot_rooms": _figures(beside),
        "bot_games_finished_or_cut": games,
        "bot_decisions": after - before,
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--rooms", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--bots", default="expert")
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--processes", type=int, default=1, help="RAJAS_BOT_PROCESSES (0: threads)")
    a = ap.parse_args()
    print(json.dumps(asyncio.run(main(a.rooms, a.seconds, a.bots, a.think, a.processes))))
