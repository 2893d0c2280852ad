"""A real `rajas serve` as its own process for the attack tests, and the two measurements every attack test
makes while it runs: is the node still answering another room's decisions in time, and how much memory it holds.

The attacks are replayed against the node as a user would meet it: over loopback, through its public routes and
its websocket, with the node configured only by RAJAS_* environment variables."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rajas.protocol.client import Client

from tests.scale.topology import Node, free_port, get, parse_metrics, wait_port
from tests.server.conftest import Clients, mover, seated_room, sync

__all__ = [
    "TRANSPORT", "Node", "Probe", "assert_responsive", "fast_only", "get", "health_ms", "metric", "parse_metrics",
    "probe_while", "rajas_node", "rss_mb", "warm",
]  # fmt: skip

# The transport the nodes here run (tests/run.sh runs these tests under both; server/transport).
TRANSPORT = os.environ.get("RAJAS_TRANSPORT", "fast")
fast_only = pytest.mark.skipif(
    TRANSPORT != "fast", reason="a limit the standard transport cannot hold (docs/security.md, The transport)"
)


@contextlib.contextmanager
def rajas_node(
    env: dict[str, str] | None = None, redis_url: str | None = None, name: str = "node", fds: int | None = None
) -> Iterator[Node]:
    """`rajas serve` on a free loopback port (in-memory rooms unless `redis_url`), its log in a temporary file;
    `env` adds or overrides RAJAS_* settings; `fds`: the most file descriptors it may open. Killed at the end
    whatever the test did to it."""
    tmp = Path(tempfile.mkdtemp(prefix="rajas-security-"))
    port = free_port()
    log = tmp / f"{name}.log"
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("RAJAS_")}
    full = {
        **inherited,
        "RAJAS_HOST": "127.0.0.1",
        "RAJAS_PORT": str(port),
        "RAJAS_NODE": name,
        "RAJAS_LOG_FORMAT": "json",
        "RAJAS_LOG_LEVEL": "info",
        **({"RAJAS_REDIS_URL": redis_url} if redis_url else {}),
        "RAJAS_TRANSPORT": os.environ.get("RAJAS_TRANSPORT", "fast"),  # (tests/run.sh runs them under both)
        **(env or {}),
    }
    with open(log, "wb") as out:
        limit = None if fds is None else (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (fds, fds)))
        proc = subprocess.Popen(
            [sys.executable, "-m", "rajas.server.cli", "serve"], env=full, stdout=out, stderr=out, preexec_fn=limit
        )
    node = Node(name, port, proc, log)
    try:
        wait_port(port, proc, name)
        yield node
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        with contextlib.suppress(OSError):
            log.unlink()
        with contextlib.suppress(OSError):
            tmp.rmdir()


def rss_mb(node: Node) -> float:
    """The node's resident memory now, in MB (from /proc, as `ps` would say)."""
    for line in Path(f"/proc/{node.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS for the node")


class Probe:
    """Another room on the attacked node: two seated players who keep playing legal decisions. `decide()` makes
    the next one and returns how long the node took to answer it (ms). An attack test calls it during the
    attack and asserts the answer came within its bound (100 ms): the node stays responsive for everyone else."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients = Clients()
        self.seated: list[Client] = []
        self.times_ms: list[float] = []

    async def __aenter__(self) -> Probe:
        _, self.seated = await seated_room(self.clients, self.url, players=2)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.clients.close()

    async def decide(self, timeout: float = 5.0) -> float:
        if self.seated[0].over:  # a whole game played during one attack: a fresh room keeps probing
            await self.clients.close()
            self.clients = Clients()
            _, self.seated = await seated_room(self.clients, self.url, players=2)
        c = mover(self.seated)
        assert c.pending is not None
        started = time.perf_counter()
        data = await c.request("decide", decision=c.pending["options"][0], v=c.v, timeout=timeout)
        elapsed = (time.perf_counter() - started) * 1000
        await sync(self.seated, data["v"])
        self.times_ms.append(elapsed)
        return elapsed

    @property
    def worst_ms(self) -> float:
        return max(self.times_ms, default=0.0)


def metric(node: Node, name: str) -> float:
    """One sample of the node's /metrics (0 when the family has no sample yet), e.g. 'rajas_errors_total{code="x"}'."""
    return parse_metrics(get(node.url + "/metrics").decode()).get(name, 0.0)


def health_ms(node: Node, timeout: float = 5.0) -> float:
    started = time.perf_counter()
    get(node.url + "/health", timeout=timeout)
    return (time.perf_counter() - started) * 1000




PROBE_MS = 100  # another room's decision is answered within this during an attack
HICCUP_MS = 1000  # ... and the few that are not (the shared machine's scheduler), within this


async def warm(probe: Probe) -> None:
    """A fresh node's first decisions are slower (first use of every code path): they are not the attack's."""
    for _ in range(3):
        await probe.decide()
    probe.times_ms.clear()


async def probe_while(probe: Probe, attack: Any, least: int = 40) -> None:
    """Decides in the probe's room while `attack` (a future) runs, and at least `least` times in all."""
    while not attack.done() or len(probe.times_ms) < least:
        await probe.decide()
        await asyncio.sleep(0.05)


def assert_responsive(probe: Probe, what: str) -> float:
    """The rule every attack test holds the node to: of at least 20 decisions in another room during the attack, at
    most one in twenty took 100 ms or more (the shared machine's scheduler alone makes a few), none a second.
    Returns the probe's p99 (ms), printed with `what` for the record."""
    times = sorted(probe.times_ms)
    slow = [ms for ms in times if ms >= PROBE_MS]
    p50, p99 = times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"\n{what}: {len(times)} probe decisions, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms")
    assert len(times) >= 20, times
    assert len(slow) <= len(times) // 20 and times[-1] < HICCUP_MS, times
    return p99
