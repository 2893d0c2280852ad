"""A redis-server of one test's own (append-only, every write synced), for the attacks that restart Redis or
measure its append-only file: the deployment's own Redis (tests/scale/topology.py), started alone."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.scale.topology import Topology


class Redis:
    """The topology's redis-server without nodes or nginx: it can be killed and started again on the same port
    with the same files."""

    def __init__(self) -> None:
        self.top = Topology(Path(tempfile.mkdtemp(prefix="rajas-redis-restart-")), 0)

    @property
    def url(self) -> str:
        return self.top.redis_url

    def start(self) -> None:
        self.top.start_redis()

    def kill(self) -> None:
        self.top.kill_redis()

    def aof_bytes(self) -> int:
        """The size of the append-only file(s) now."""
        return sum(f.stat().st_size for f in self.top.tmp.rglob("*.aof"))


@contextlib.contextmanager
def own_redis() -> Iterator[Redis]:
    r = Redis()
    r.start()
    try:
        yield r
    finally:
        r.top.stop()
        shutil.rmtree(r.top.tmp, ignore_errors=True)
