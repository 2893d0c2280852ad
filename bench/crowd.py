"""`rajas bench --spectators N`: the watched final. One room with 5 players deciding `--rate` times a second and N
spectators (JSON text clients, as the browser), `--other-rooms` ordinary rooms beside it, over `--nodes` nodes
behind the shipped nginx (deploy/nginx.conf) with Redis or, on one node, memory.

What it measures, in order:
1. the time of one join at the start: `--probes` spectators one after another, each joining a room of 100
   spectators alone and leaving again;
2. the crowd: the other N - 100 spectators at once (`--join-concurrency` joins in flight per load process), the
   time for all to be in and each one's join time;
3. the time of one join at the end, as in 1, into the room of N;
4. for `--seconds`: the latency of every update to every spectator (decision's intended send time to its receipt),
   and to every socket of the other rooms;
5. with `--restart M`: M nodes killed (SIGKILL) and started again; every client comes back as the browser does
   (through nginx, after its backoff), and the time until every spectator is back in the room, at the newest
   version and shown the right count; nothing lost: no spectator missing or behind, no update skipped, no
   acknowledged decision missing from the room.

The generators (bench/crowd_load.py) connect to nginx on loopback, one address: the per-address limits of the nodes
(`--conns-per-address` and the room limits) and nginx's (`limit_conn`, `limit_req`) are raised for this run in
the run's own settings and its copy of the configuration; the product's defaults are left as they are.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from rajas.server.metrics import compiled

from .procs import free_port, proc_stat, spawn, stop, wait_port
from .settings import BenchSettings, BenchSetupError

NGINX_CONF = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
START_SIZE = 100  # spectators in the room when the time of one join is first measured
SETTLE_LIMIT = 60.0  # seconds the crowd has to settle after a restart (issue 32)
DRAIN = 3.0  # seconds the spectators still note arrivals after the measured window


def nginx_conf(conf: str, listen: int, upstreams: list[int], tmp: Path, connections: int) -> str:
    """deploy/nginx.conf as shipped, with this run's ports, its files in `tmp`, and the per-address limits (one
    loopback address carries every simulated client) and worker connections raised to what the run needs."""
    servers = "".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in upstreams)
    conf, n = re.subn(r"(?m)^\s*server app\d*:\d+[^\n]*\n", "", conf)
    if n < 1:
        raise BenchSetupError("deploy/nginx.conf: no upstream server line to replace")
    conf = re.sub(r"(?m)^\s*resolver [^\n]*\n", "", conf)  # (Docker's DNS is not here)
    conf = conf.replace("upstream rajas {\n", "upstream rajas {\n" + servers, 1)
    conf = re.sub(r"listen 80;", f"listen 127.0.0.1:{listen};", conf)
    conf = re.sub(r"limit_conn rajas_conn \d+;", "limit_conn rajas_conn 65000;", conf)
    conf = re.sub(r"rate=\d+r/s", "rate=1000000r/s", conf)
    conf = re.sub(r"burst=\d+", "burst=1000000", conf)
    conf = re.sub(r"worker_connections \d+;", f"worker_connections {max(16384, connections)};", conf)
    temps = "".join(f"    {k}_temp_path {tmp}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = conf.replace("http {\n", "http {\n    access_log off;\n" + temps, 1)
    head = f"daemon off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log warn;\nworker_processes 1;\n"
    if os.geteuid() == 0:
        head += "user root;\n"  # (its worker must reach the temporary directory)
    return head + conf


class Line:
    """A load process spoken to one line at a time."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read(self) -> Any:
        assert self.proc.stdout is not None
        raw = self.proc.stdout.readline()
        if not raw:
            raise RuntimeError(f"load process {self.proc.args!r} ended")
        text = raw.decode().strip()
        return text if text == "ready" else json.loads(text)

    def ask(self, line: str) -> Any:
        self.send(line)
        return self.read()


def ask_all(lines: list[Line], commands: list[str]) -> list[Any]:
    for line, cmd in zip(lines, commands, strict=True):
        line.send(cmd)
    return [line.read() for line in lines]


def _pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(len(s) * q))] * 1000, 2)


def _summary(xs: list[float]) -> dict[str, Any]:
    """Seconds in, milliseconds out."""
    return {"n": len(xs), "p50_ms": _pct(xs, 0.5), "p90_ms": _pct(xs, 0.9), "p99_ms": _pct(xs, 0.99),
            "max_ms": round(max(xs) * 1000, 2) if xs else None}  # fmt: skip


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return out


def _cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += proc_stat(pid)[0]
        except OSError:
            continue
    return total


def _loadavg() -> list[float]:
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


class Deployment:
    """redis-server, the nodes and nginx as processes, as docker-compose.yml starts them."""

    def __init__(self, s: BenchSettings, tmp: Path) -> None:
        self.s = s
        self.tmp = tmp
        self.procs: list[subprocess.Popen[bytes]] = []
        self.redis_url: str | None = None
        self.ports = [free_port() for _ in range(s.nodes)]
        self.nodes: list[subprocess.Popen[bytes]] = []
        self.started = 0
        self.lb = free_port()
        self.nginx: subprocess.Popen[bytes] | None = None

    def start(self, connections: int) -> None:
        if self.s.store == "redis":
            port = free_port()
            redis = subprocess.Popen(
                [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.tmp), "--save", "",
                 "--appendonly", "yes", "--appendfsync", self.s.fsync],
                stdout=subprocess.DEVNULL,
            )  # fmt: skip
            self.procs.append(redis)
            wait_port(port, redis)
            self.redis_url = f"redis://127.0.0.1:{port}/0"
        for port in self.ports:
            self.nodes.append(self.node(port))
        for port, node in zip(self.ports, self.nodes, strict=True):
            wait_port(port, node)
        for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.tmp / k).mkdir(exist_ok=True)
        if not NGINX_CONF.exists():
            raise BenchSetupError(f"--spectators needs the source tree's {NGINX_CONF}")
        conf = self.tmp / "nginx.conf"
        conf.write_text(nginx_conf(NGINX_CONF.read_text(), self.lb, self.ports, self.tmp, connections))
        self.nginx = subprocess.Popen(
            [NGINX, "-p", str(self.tmp), "-c", str(conf), "-e", str(self.tmp / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # (its own process group: the workers go with the master)
        )
        wait_port(self.lb, self.nginx)

    def node(self, port: int) -> subprocess.Popen[bytes]:
        """A node, named anew each time it starts (as a restarted process is by default: host-pid-random)."""
        from .run import LOOPBACK_CLIENTS

        self.started += 1
        cmd = [sys.executable, "-m", "rajas.server.cli", "serve", "--port", str(port), "--log-level", "warning",
               "--node", f"crowd-{self.started}", "--rate", "1000", "--burst", "1000", *LOOPBACK_CLIENTS]  # fmt: skip
        if self.redis_url is not None:
            cmd += ["--redis", self.redis_url]
        return subprocess.Popen(cmd)

    def restart(self, count: int) -> None:
        """Kills `count` nodes at once (SIGKILL: nothing said to their clients) and starts them again."""
        for i in range(count):
            self.nodes[i].send_signal(signal.SIGKILL)
        for i in range(count):
            self.nodes[i].wait()
            self.nodes[i] = self.node(self.ports[i])
        for i in range(count):
            wait_port(self.ports[i], self.nodes[i])

    def pids(self) -> dict[str, list[int]]:
        nginx = [self.nginx.pid, *_children(self.nginx.pid)] if self.nginx is not None else []
        return {"nodes": [n.pid for n in self.nodes], "nginx": nginx, "redis": [p.pid for p in self.procs]}

    def room(self, code: str) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.ports[-1]}/api/rooms/{code}", timeout=10) as r:
            got: dict[str, Any] = json.loads(r.read())
            return got

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.nginx.pid, signal.SIGKILL)
            self.nginx.wait(5)
        stop([*self.nodes, *self.procs])


def run_crowd(s: BenchSettings) -> dict[str, Any]:
    """The whole scenario; its report."""
    n = s.spectators
    start_size = min(START_SIZE, n)
    tmp = Path(tempfile.mkdtemp(prefix="rajas-crowd-"))
    dep = Deployment(s, tmp)
    loads: list[subprocess.Popen[bytes]] = []
    report: dict[str, Any] = {
        "spectators": n, "nodes": s.nodes, "store": s.store, "other_rooms": s.other_rooms, "rate_per_room": s.rate,
        "clients": "json", "loadavg": {"before": _loadavg()},
    }  # fmt: skip
    try:
        dep.start(connections=4 * (n + s.probes + 7 * s.other_rooms + 64))
        url = f"ws://127.0.0.1:{dep.lb}/ws"
        me = [sys.executable, "-m", "rajas.bench.crowd_load", "--url", url]
        driver_proc = spawn([*me, "--role", "driver", "--others", str(s.other_rooms), "--rate", str(s.rate)])
        loads.append(driver_proc)
        driver = Line(driver_proc)
        rooms = driver.read()
        workers = []
        for _ in range(s.workers):
            proc = spawn([*me, "--role", "crowd", "--watch", rooms["watch"]])
            loads.append(proc)
            workers.append(Line(proc))
        # The single joins are timed from a process of their own: a crowd process reads thousands of frames each
        # second, and a join timed there would wait behind them the bigger the crowd.
        probe_proc = spawn([*me, "--role", "crowd", "--watch", rooms["watch"]])
        loads.append(probe_proc)
        prober = Line(probe_proc)
        for w in [*workers, prober]:
            if w.read() != "ready":
                raise RuntimeError("a crowd process failed to start")
        driver.ask("go")

        def shares(total: int) -> list[int]:
            return [total // len(workers) + (1 if i < total % len(workers) else 0) for i in range(len(workers))]

        def join(total: int) -> tuple[float, list[list[float]], dict[str, int]]:
            t0 = time.monotonic()
            got = ask_all(workers, [f"join {k} {s.join_concurrency}" for k in shares(total)])
            joins = sorted((j for g in got for j in g["joins"]), key=lambda j: j[0])
            errors: dict[str, int] = {}
            for g in got:
                for k, c in g["errors"].items():
                    errors[k] = errors.get(k, 0) + c
            return t0, joins, errors

        def one_join(size: int) -> dict[str, Any]:
            time.sleep(1.5)  # (the arrivals' presence frames are out: the probe joins a quiet room)
            probes = prober.ask(f"probe {s.probes}")["probes"]
            return {"spectators": size, "join": _summary([p[0] for p in probes]),
                    "join_message": _summary([p[1] for p in probes])}  # fmt: skip

        def cpu() -> dict[str, float]:
            pids = dep.pids() | {"load": [p.pid for p in loads]}
            return {k: _cpu(v) for k, v in pids.items()}

        join(start_size)
        report["one_join_at_start"] = one_join(start_size)
        report["loadavg"]["crowd_join"] = _loadavg()
        cpu0 = cpu()
        t0, joins, errors = join(n - start_size)
        cpu1 = cpu()
        took = joins[-1][1] - t0 if joins else 0.0
        durations = [j[1] - j[0] for j in joins]
        report["crowd_join"] = {
            "spectators": n - start_size,
            "all_joined_seconds": round(max((j[1] for j in joins), default=t0) - t0, 2),
            "joins_per_second": round(len(joins) / took, 1) if took > 0 else None,
            "join": _summary(durations),
            "first_100": _summary(durations[:100]),
            "last_100": _summary(durations[-100:]),
            "failed_tries": errors,
            "cpu_seconds": {k: round(cpu1[k] - cpu0[k], 2) for k in cpu0},
        }
        report["one_join_at_end"] = one_join(n)
        start_ms, end_ms = report["one_join_at_start"]["join"]["p50_ms"], report["one_join_at_end"]["join"]["p50_ms"]
        report["one_join_ratio_end_to_start"] = round(end_ms / start_ms, 2) if start_ms and end_ms else None
        time.sleep(1.0)

        # The measured window: every update's latency to every spectator.
        report["loadavg"]["window"] = _loadavg()
        cpu0 = cpu()
        ask_all(workers, ["record on"] * len(workers))
        w0 = time.monotonic()
        time.sleep(s.seconds)
        w1 = time.monotonic()
        cpu1 = cpu()
        time.sleep(DRAIN)  # (the updates of the window's last decisions are still on their way)
        ask_all(workers, ["record off"] * len(workers))
        report["cpu_seconds_in_window"] = {k: round(cpu1[k] - cpu0[k], 2) for k in cpu0}
        arrivals = _arrivals(ask_all(workers, ["arrivals"] * len(workers)))
        states = ask_all(workers, ["report"] * len(workers))
        report["presence_frames_per_socket"] = [min(x["presence_frames"][0] for x in states),
                                                max(x["presence_frames"][1] for x in states)]  # fmt: skip

        restart: dict[str, Any] | None = None
        kill_at = 0.0
        acked_at_kill = 0
        if s.restart > 0:
            acked_at_kill = int(driver.ask("status")["acked"])
            ask_all(workers, [f"mark {acked_at_kill}"] * len(workers))
            ask_all(workers, ["record on"] * len(workers))
            report["loadavg"]["restart"] = _loadavg()
            kill_at = time.monotonic()
            dep.restart(s.restart)
            started_again = time.monotonic() - kill_at
            restart = {"nodes_restarted": s.restart, "nodes_up_again_seconds": round(started_again, 2)}
            deadline = kill_at + SETTLE_LIMIT + 10
            while time.monotonic() < deadline:  # until every spectator is back, shown N, and has a newer update
                time.sleep(2.0)
                got = ask_all(workers, ["report"] * len(workers))
                if all(x["joined"] == x["watchers"] and list(x["counts"]) == [str(n)] and x["fresh_missing"] == 0
                       for x in got):  # fmt: skip
                    break
            time.sleep(3.0)

        stopped = driver.ask("stop")
        time.sleep(2.0)  # (the last updates reach everyone)
        final = ask_all(workers, ["report"] * len(workers))
        tail = _arrivals(ask_all(workers, ["arrivals"] * len(workers)))
        room = dep.room(rooms["code"])
        intended = {int(v): t for v, t in stopped["intended"].items()}
        lat, expected, got_n = _latencies(arrivals, intended, w0, w1, n)
        report["updates"] = {
            "window_seconds": s.seconds,
            "decisions": sum(1 for t in intended.values() if w0 <= t < w1),
            "deliveries": got_n,
            "expected": expected,
            **_summary(lat),
            "p999_ms": _pct(lat, 0.999),
        }
        others = [x[1] for x in stopped["others"] if w0 <= x[0] < w1]
        report["other_rooms_updates"] = {"rooms": s.other_rooms, **_summary(others)}
        report["decisions"] = {
            "all": stopped["decisions"], "refusals": stopped["refusals"], "rematches": stopped["rematches"],
            "driver_reconnects": stopped["reconnects"],
        }  # fmt: skip
        report["end"] = _final(final, n, room, stopped["acked"])
        if restart is not None:
            back = max(x["back_last"] for x in final)
            shown = max(x["count_last"] for x in final)
            fresh = max(x["fresh_last"] for x in final)
            restart["settled_seconds"] = round(max(back, shown, fresh) - kill_at, 2)
            restart["all_back_seconds"] = round(back - kill_at, 2)
            restart["counts_right_seconds"] = round(shown - kill_at, 2)
            restart["newer_update_seconds"] = round(fresh - kill_at, 2)
            restart["reconnects"] = sum(x["reconnects"] for x in final)
            restart["failed_tries"] = _merge([x["errors"] for x in final])
            restart["acked_before_kill"] = acked_at_kill
            after = [t for t in intended.values() if t >= kill_at + restart["settled_seconds"]]
            lat2, expected2, got2 = _latencies(tail, intended, min(after, default=kill_at), time.monotonic(), n)
            restart["updates_after_settling"] = {"deliveries": got2, "expected": expected2, **_summary(lat2)}
            restart["nothing_lost"] = report["end"]["nothing_lost"]
            report["restart"] = restart
        report["loadavg"]["after"] = _loadavg()
        report["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                             "build": "compiled" if compiled() else "pure Python"}  # fmt: skip
        for w in [*workers, prober]:
            w.send("exit")
        driver.send("exit")
        return report
    finally:
        stop(loads)
        dep.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def _merge(counts: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, n in c.items():
            out[k] = out.get(k, 0) + n
    return out


def _arrivals(got: list[Any]) -> dict[int, list[float]]:
    out: dict[int, list[float]] = {}
    for g in got:
        for v, ts in g["arrivals"].items():
            out.setdefault(int(v), []).extend(ts)
    return out


def _latencies(
    arrivals: dict[int, list[float]], intended: dict[int, float], w0: float, w1: float, sockets: int
) -> tuple[list[float], int, int]:
    """Latencies of the updates whose decisions were due in [w0, w1) to `sockets` spectators; (latencies, how many
    deliveries were due, how many came)."""
    lat: list[float] = []
    versions = [v for v, t in intended.items() if w0 <= t < w1]
    for v in versions:
        lat += [t - intended[v] for t in arrivals.get(v, ())]
    return lat, len(versions) * sockets, len(lat)


def _final(states: list[dict[str, Any]], n: int, room: dict[str, Any], acked: int) -> dict[str, Any]:
    """Where the crowd ended: every spectator in the room, at its newest version, shown the right count, no update
    skipped, and the room holding every decision a reply acknowledged."""
    counts = _merge([{k: c for k, c in x["counts"].items()} for x in states])
    versions = _merge([{k: c for k, c in x["versions"].items()} for x in states])
    joined = sum(x["joined"] for x in states)
    gaps = sum(x["gaps"] for x in states)
    v = int(room["v"])
    at_newest = versions.get(str(v), 0)
    lost = joined != n or counts.get(str(n), 0) != n or at_newest != n or gaps != 0 or v < acked
    return {"joined": joined, "room_v": v, "at_room_v": at_newest, "shown_count": counts, "gaps": gaps,
            "acked_v": acked, "nothing_lost": not lost}  # fmt: skip
