"""What one `rajas bench` run does, as one typed, frozen record (the command line fills it)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

Store = Literal["memory", "redis"]
Fsync = Literal["always", "everysec"]
Clients = Literal["msgpack", "json"]


class BenchSetupError(Exception):
    """Flags that do not go together, or a machine that cannot do what they ask: said in one line, no run."""


@dataclass(frozen=True)
class BenchSettings:
    rooms: int = 1000  # concurrent rooms of 5 players + 2 spectators
    rate: float = 1.0  # decisions per second per room; 0 is a closed loop (as fast as the server answers)
    seconds: float = 30.0  # length of the measured window
    workers: int = 2  # load-generator processes
    store: Store = "memory"
    fsync: Fsync = "always"  # Redis appendfsync (--store redis)
    nodes: int = 1  # server nodes sharing one Redis
    baseline: bool = True  # also measure the bare websockets broadcast server
    pin: bool = False  # the server on CPU 0, the load generators on the others
    idle: int = 0  # also open this many idle sockets to measure memory per connection
    repeat: int = 1  # alternating pairs of runs (ours, bare); the median pair is reported
    clients: Clients = "msgpack"  # msgpack binary frames, or JSON text frames as the browser client sends
    # The baseline's frames: 2,000-byte binary ones, or text of the mean size of the updates our clients got in
    # the same pair (a bare server relaying the browser's text as it is).
    bare_text: bool = False
    # The watched final (bench/crowd.py): one room of 5 players and this many spectators, JSON text clients as the
    # browser, behind nginx; 0 runs the rooms above instead.
    spectators: int = 0
    other_rooms: int = 10  # (--spectators) ordinary rooms of 5 players + 2 spectators on the same nodes
    join_concurrency: int = 50  # (--spectators) joins in flight per load process
    probes: int = 20  # (--spectators) single joins timed at the start and at the end of the crowd
    restart: int = 0  # (--spectators) nodes killed and started again after the window, the crowd coming back

    def check(self) -> None:
        """Refuses settings that cannot run, before anything starts."""
        if self.spectators > 0:
            self._check_crowd()
        if self.nodes < 1 or (self.nodes > 1 and self.store != "redis"):
            raise BenchSetupError("--nodes > 1 needs --store redis (nodes share rooms only through Redis)")
        if self.pin and (self.nodes > 1 or (os.cpu_count() or 1) < 2 or not hasattr(os, "sched_setaffinity")):
            raise BenchSetupError("--pin needs one node and at least 2 CPUs (Linux)")
        if self.workers < 1 or self.rooms < 0 or self.seconds <= 0 or self.rate < 0 or self.repeat < 1:
            raise BenchSetupError("--workers, --repeat at least 1; --seconds above 0; --rooms, --rate not negative")
        if self.bare_text and not self.baseline:
            raise BenchSetupError("--bare-text is about the baseline: not with --no-baseline")

    def _check_crowd(self) -> None:
        if self.pin or self.idle or self.repeat > 1:
            raise BenchSetupError("--spectators runs nodes, nginx and its own load: not with --pin, --idle or --repeat")
        if self.restart and self.store != "redis":
            raise BenchSetupError("--restart needs --store redis (a node's rooms live on only in Redis)")
        if not 0 <= self.restart <= self.nodes:
            raise BenchSetupError("--restart: how many of the --nodes to restart (0 to --nodes)")
        if self.rate <= 0 or self.other_rooms < 0 or self.join_concurrency < 1 or self.probes < 1:
            raise BenchSetupError("--spectators: --rate above 0, --join-concurrency and --probes at least 1")
