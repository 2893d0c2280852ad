"""A room's changes on one node take turns: the room lock (server/hub.py), which replaced asyncio.Lock.

It must behave as asyncio's does: changes go one at a time in the order they asked, and a change whose task
is cancelled while it waits (a client gone, the node shutting down) never leaves the room locked for good.
"""

from __future__ import annotations

import asyncio

import pytest
from rajas.server.rooms.hub import RoomLock


async def hold(lock: RoomLock, name: str, log: list[str], gate: asyncio.Event | None = None) -> None:
    async with lock:
        log.append(f"{name} in")
        if gate is not None:
            await gate.wait()
        else:
            await asyncio.sleep(0)
        log.append(f"{name} out")


async def test_changes_take_turns_in_the_order_they_asked() -> None:
    lock, log = RoomLock(), []
    await asyncio.gather(*(hold(lock, name, log) for name in "abc"))
    assert log == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert not lock.held


async def queue_of_three(lock: RoomLock, log: list[str], gate: asyncio.Event) -> list[asyncio.Task[None]]:
    """"a" holds the lock until `gate` is set; "b", then "c", wait for it."""
    tasks = [asyncio.create_task(hold(lock, "a", log, gate))]
    tasks += [asyncio.create_task(hold(lock, name, log)) for name in "bc"]
    await asyncio.sleep(0)
    return tasks


async def b_left_and_c_went_on(lock: RoomLock, log: list[str], tasks: list[asyncio.Task[None]]) -> None:
    first, waiting, last = tasks
    await asyncio.wait_for(asyncio.gather(first, last), 5)  # (a room left locked: the test fails, not hangs)
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert log == ["a in", "a out", "c in", "c out"]
    assert not lock.held


async def test_a_change_cancelled_while_it_waits_does_not_hold_up_the_next() -> None:
    lock, log, gate = RoomLock(), [], asyncio.Event()
    tasks = await queue_of_three(lock, log, gate)
    tasks[1].cancel()
    gate.set()
    await b_left_and_c_went_on(lock, log, tasks)


async def test_a_change_cancelled_just_as_the_lock_came_to_it_passes_the_lock_on() -> None:
    lock, log, gate = RoomLock(), [], asyncio.Event()
    tasks = await queue_of_three(lock, log, gate)
    gate.set()
    await asyncio.sleep(0)  # "a" leaves and hands the lock to "b", which has not run since
    tasks[1].cancel()
    await b_left_and_c_went_on(lock, log, tasks)


async def test_a_free_lock_is_taken_without_waiting() -> None:
    lock = RoomLock()
    async with lock:
        assert lock.held
    assert not lock.held
