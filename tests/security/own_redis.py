"""A redis-server of one test's own (append-only, every write synced), for the attacks that restart Redis or
measure its append-only file."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.scale.topology import REDIS, free_port, wait_port


class Redis:
    """A redis-server of this test's own, persisting every write (appendfsync always), that can be killed and
    started again on the same port with the same files."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="rajas-redis-restart-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir), "--save", "",
             "--appendonly", "yes", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.port, self.proc, "redis-server")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def aof_bytes(self) -> int:
        """The size of the append-only file(s) now."""
        return sum(f.stat().st_size for f in self.dir.rglob("*.aof"))


@contextlib.contextmanager
def own_redis() -> Iterator[Redis]:
    r = Redis()
    r.start()
    try:
        yield r
    finally:
        if r.proc is not None and r.proc.poll() is None:
            r.kill()
        shutil.rmtree(r.dir, ignore_errors=True)
