"""A local Redis Cluster of three masters (no replicas) as processes, for the store and the deployment to run on:
`redis-server --cluster-enabled yes` per master, then `redis-cli --cluster create` to share out the slots."""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_port() -> int:
    # Cluster nodes talk to each other over port + 10000: both must be free.
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + 10000 < 65536 and _bindable(port + 10000):
            return port


@dataclass
class Cluster:
    tmp: Path
    masters: int = 3
    ports: list[int] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start_master(self, i: int) -> None:
        port = self.ports[i]
        d = self.tmp / f"m{port}"
        d.mkdir(exist_ok=True)
        proc = subprocess.Popen(
            [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(d), "--save", "",
             "--cluster-enabled", "yes", "--cluster-config-file", str(d / "nodes.conf"),
             "--cluster-node-timeout", "2000", "--appendonly", "yes", "--appendfsync", "always"],
            stdout=open(d / "redis.log", "ab"),  # noqa: SIM115  # (the process keeps it)
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        if i < len(self.procs):
            self.procs[i] = proc
        else:
            self.procs.append(proc)
        deadline = time.monotonic() + 15
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
            if proc.poll() is not None or time.monotonic() > deadline:
                log = (d / "redis.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"redis-server (cluster) did not listen on {port}: {log}")
            time.sleep(0.05)

    def cli(self, *args: str, port: int | None = None) -> str:
        cmd = [REDIS_CLI, "-p", str(port or self.ports[0]), *args]
        return subprocess.run(cmd, check=True, capture_output=True, timeout=60).stdout.decode()

    def start(self) -> Cluster:
        self.ports = [_free_port() for _ in range(self.masters)]
        for i in range(self.masters):
            for attempt in range(3):  # (a port found free can be taken by another process before we bind it)
                try:
                    self.start_master(i)
                    break
                except RuntimeError:
                    if attempt == 2:
                        raise
                    self.procs.pop(i).kill()
                    self.ports[i] = _free_port()
        nodes = [f"127.0.0.1:{p}" for p in self.ports]
        subprocess.run(
            [REDIS_CLI, "--cluster", "create", *nodes, "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while not all("cluster_state:ok" in self.cli("cluster", "info", port=p) for p in self.ports):
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not become ok")
            time.sleep(0.1)
        return self

    def kill_master(self, i: int) -> None:
        self.procs[i].send_signal(signal.SIGKILL)
        self.procs[i].wait()

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
        for p in self.procs:
            with contextlib.suppress(Exception):
                p.wait(5)


@contextlib.contextmanager
def redis_cluster(masters: int = 3) -> Iterator[Cluster]:
    tmp = Path(tempfile.mkdtemp(prefix="rajas-cluster-"))
    cluster = Cluster(tmp, masters)
    try:
        yield cluster.start()
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)
