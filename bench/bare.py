"""The baseline of `rajas bench`: a bare websockets broadcast server, no game and no storage.

A client's first message names its room; every later message is broadcast, as is, to everyone in that room
(the sender too, as our server sends an update to the player who decided). Run: python -m rajas.bench.bare PORT
"""

from __future__ import annotations

import asyncio
import gc
import sys

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed


async def main(port: int) -> None:
    rooms: dict[bytes | str, set[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        room = await ws.recv()
        members = rooms.setdefault(room, set())
        members.add(ws)
        try:
            async for message in ws:
                broadcast(members, message)
        except ConnectionClosed:
            pass  # the load generator hangs up without a closing handshake when the run ends
        finally:
            members.discard(ws)

    async with serve(handler, "127.0.0.1", port, compression=None, max_size=2**20, backlog=4096):
        await asyncio.Future()


if __name__ == "__main__":
    import uvloop
    from rajas.server.serve import raise_fd_limit

    raise_fd_limit()
    # The same cyclic-GC settings as `rajas serve` (serve.py), so the comparison is of servers, not of GC pauses.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    uvloop.run(main(int(sys.argv[1])))
