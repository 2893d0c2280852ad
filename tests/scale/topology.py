"""The deployment of docker-compose.yml as plain processes: redis-server with append-only persistence, several
`rajas serve` nodes configured only by environment variables, and nginx (our own config, prefix, pid and
logs in a temporary directory, on a free loopback port) balancing round robin in front of them. With
`cluster=True`, a local Redis Cluster of three masters (cluster.py) in place of the one redis-server."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not listen on {port} within {timeout} s")
        time.sleep(0.05)


def get(url: str, timeout: float = 5.0) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        data: bytes = resp.read()
        return data


def nginx_conf(listen: int, upstreams: list[int], tmp: Path) -> str:
    """deploy/nginx.conf with our ports, and the process settings a test instance needs."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    servers = "".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in upstreams)
    conf, n = re.subn(r"(?m)^\s*server app\d*:\d+[^\n]*\n", "", conf)
    conf = re.sub(r"(?m)^\s*resolver [^\n]*\n", "", conf)  # Docker's DNS is not here
    assert n >= 1, "deploy/nginx.conf: upstream servers not found"
    conf = conf.replace("upstream rajas {\n", "upstream rajas {\n" + servers, 1)
    conf = re.sub(r"listen 80;", f"listen 127.0.0.1:{listen};", conf)
    temps = "".join(f"    {k}_temp_path {tmp}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = conf.replace("http {\n", "http {\n    access_log off;\n" + temps, 1)
    head = f"daemon off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log warn;\nworker_processes 1;\n"
    if os.geteuid() == 0:
        head += "user root;\n"  # workers must reach the temporary directory we own
    return head + conf


@dataclass
class Node:
    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def metrics(self) -> dict[str, float]:
        return parse_metrics(get(self.url + "/metrics").decode())

    def log_lines(self) -> list[dict[str, Any]]:
        out = []
        for line in self.log.read_text().splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                out.append(json.loads(line))
        return out


@dataclass
class Topology:
    tmp: Path
    nodes_wanted: int
    redis_port: int = field(default_factory=free_port)
    lb_port: int = field(default_factory=free_port)
    redis: subprocess.Popen[bytes] | None = None
    nginx: subprocess.Popen[bytes] | None = None
    nodes: list[Node] = field(default_factory=list)
    started: int = 0
    cluster: Cluster | None = None
    env: dict[str, str] = field(default_factory=dict)  # more RAJAS_* settings for every node

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.lb_port}"

    @property
    def redis_url(self) -> str:
        if self.cluster is not None:
            return self.cluster.url
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def start_redis(self) -> None:
        if self.cluster is not None:
            (self.tmp / "cluster").mkdir(exist_ok=True)
            self.cluster.start()
            return
        # appendfsync always: an acknowledged decision is on disk before its reply, so even kill -9 of
        # Redis loses nothing (docker-compose.yml makes the same choice).
        self.redis = subprocess.Popen(
            [REDIS, "--port", str(self.redis_port), "--bind", "127.0.0.1", "--dir", str(self.tmp), "--save", "",
             "--appendonly", "yes", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.redis_port, self.redis, "redis-server")

    def kill_redis(self) -> None:
        assert self.redis is not None and self.cluster is None
        self.redis.send_signal(signal.SIGKILL)
        self.redis.wait()

    def start_node(self, slot: int | None = None) -> Node:
        self.started += 1
        name = f"node{self.started}"
        port = free_port() if slot is None else self.nodes[slot].port
        log = self.tmp / f"{name}.log"
        env = {
            **os.environ,
            "RAJAS_HOST": "127.0.0.1",
            "RAJAS_PORT": str(port),
            "RAJAS_REDIS_URL": self.redis_url,
            "RAJAS_NODE": name,
            "RAJAS_LOG_LEVEL": "info",
            "RAJAS_LOG_FORMAT": "json",
            "RAJAS_ROOM_TTL": "600",
            "RAJAS_HEARTBEAT": "0.5",
            "RAJAS_NODE_TTL": "2",
            "RAJAS_STALL": "1",
            **self.env,
        }
        with open(log, "wb") as out:
            cmd = [sys.executable, "-m", "rajas.server.cli", "serve"]
            proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=out)
        node = Node(name, port, proc, log)
        wait_port(port, proc, name)
        if slot is None:
            self.nodes.append(node)
        else:
            self.nodes[slot] = node
        return node

    def kill_node(self, slot: int) -> Node:
        node = self.nodes[slot]
        node.proc.send_signal(signal.SIGKILL)
        node.proc.wait()
        return node

    def start_nginx(self) -> None:
        for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.tmp / k).mkdir(exist_ok=True)
        conf = self.tmp / "nginx.conf"
        conf.write_text(nginx_conf(self.lb_port, [n.port for n in self.nodes], self.tmp))
        self.nginx = subprocess.Popen(
            [NGINX, "-p", str(self.tmp), "-c", str(conf), "-e", str(self.tmp / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stop() kills the workers with the master
        )
        wait_port(self.lb_port, self.nginx, "nginx")

    def start(self) -> Topology:
        self.start_redis()
        for _ in range(self.nodes_wanted):
            self.start_node()
        self.start_nginx()
        return self

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            # SIGKILL to the master alone would orphan its workers; the whole group goes.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.nginx.pid, signal.SIGKILL)
        procs = [self.nginx, *(n.proc for n in self.nodes), self.redis]
        for p in procs:
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGKILL)
        for p in procs:
            if p is not None:
                with contextlib.suppress(Exception):
                    p.wait(5)
        if self.cluster is not None:
            self.cluster.stop()


@contextlib.contextmanager
def topology(nodes: int, cluster: bool = False, env: dict[str, str] | None = None) -> Any:
    tmp = Path(tempfile.mkdtemp(prefix="rajas-scale-"))
    top = Topology(tmp, nodes, cluster=Cluster(tmp / "cluster") if cluster else None, env=env or {})
    try:
        yield top.start()
    finally:
        top.stop()
        shutil.rmtree(tmp, ignore_errors=True)


_SAMPLE = re.compile(
    r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? (-?[0-9.eE+-]+|\+Inf|NaN)$'
)


def parse_metrics(text: str) -> dict[str, float]:
    """Prometheus text format, strictly: every sample well formed and of a family declared by # TYPE."""
    types: dict[str, str] = {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in ("counter", "gauge", "histogram"), line
            types[name] = kind
            continue
        if not line or line.startswith("# HELP "):
            continue
        m = _SAMPLE.match(line)
        assert m, f"not a metrics sample: {line!r}"
        name = m.group(1)
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        assert family in types, f"{name} has no # TYPE"
        out[name + (m.group(2) or "")] = float(m.group(3))
    return out
