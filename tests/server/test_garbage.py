"""A decision leaves nothing for Python's cyclic garbage collector.

Every pass of that collector stops the whole node for about a microsecond per object it looks at: with
thousands of sockets open, 50-150 ms during which no room moves (docs/benchmarks.md). The server stays clear
of it by keeping what a decision leaves behind acyclic, so reference counting frees it at once. One cycle
per decision is enough to bring the passes back: under the compiled build (setup.py), a function with two
closures kept them in one environment that referred back to them, and every commit left that cycle, holding
the old room, its game state and every player's sheet. The test command runs this file on both builds.
"""

from __future__ import annotations

import gc
from collections import Counter

from rajas.server.storage.memory_store import MemoryStore

from .conftest import Clients, play_random, run_server, seated_room

OURS = ("rajas.server", "rajas.games.dice_charmers.engine")


async def test_a_whole_game_leaves_no_cycles_of_the_servers_objects() -> None:
    async with run_server(MemoryStore()) as server:
        clients = Clients()
        try:
            _created, seated = await seated_room(clients, server.url, players=3)
            gc.collect()
            gc.disable()
            gc.set_debug(gc.DEBUG_SAVEALL)  # whatever the collector would free is kept in gc.garbage to look at
            try:
                decisions = await play_random(seated, seed=3)
                gc.collect()
                # The clients (same process) leave garbage of their own; the server's and engine's types are ours.
                ours = Counter(type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith(OURS))
            finally:
                gc.set_debug(0)
                gc.garbage.clear()
                gc.enable()
            assert decisions > 50
            assert ours == Counter(), f"{decisions} decisions left cycles: {ours.most_common(8)}"
        finally:
            await clients.close()
