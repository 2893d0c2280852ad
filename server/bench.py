"""`rajas bench`: our server and a bare websockets broadcast server under the same open-loop load.

The server runs in its own process (--nodes of them sharing one redis-server with --store redis; the
generator spreads each room's sockets over them), the load in --workers separate processes
(server/bench_load.py). Latency is decision-to-delivery at every socket of the room, measured from each
decision's intended send time. Server, Redis and load-generator CPU are read from /proc for the measured
window (the generators share the machine with the server: their CPU is reported so it can be weighed), memory
per connection is the server's resident memory growth divided by its sockets.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from .metrics import compiled

_CLK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


class BenchSetupError(Exception):
    """Flags that do not go together, or a machine that cannot do what they ask: said in one line, no run."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# Every simulated client comes from 127.0.0.1: the limits per client address (docs/security.md) would refuse
# all but the first few dozen connections and rooms.
LOOPBACK_CLIENTS = ["--conns-per-address", "1000000", "--rooms-per-minute", "1000000", "--max-rooms", "1000000"]


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{proc.args!r} did not start")
        time.sleep(0.05)


def _proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _CLK, int(fields[21]) * _PAGE


_CORE_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def _core_times(cpu: int) -> list[int]:
    """The kernel's time counters of one CPU (/proc/stat, in ticks), in the order of `_CORE_FIELDS`."""
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith(f"cpu{cpu} "):
                return [int(x) for x in line.split()[1 : 1 + len(_CORE_FIELDS)]]
    return [0] * len(_CORE_FIELDS)


def _core_share(before: list[int], after: list[int]) -> dict[str, float]:
    """Percent of the window the server's core spent in each state. `softirq` is network work the kernel did
    there outside any process (on loopback, much of the clients' receiving); `steal` is time the hypervisor
    gave the core to another machine: a slow phase of a shared VM shows there."""
    spent = [a - b for a, b in zip(after, before, strict=True)]
    total = sum(spent) or 1
    return {name: round(100 * t / total, 1) for name, t in zip(_CORE_FIELDS, spent, strict=True) if name != "nice"}


def _gc_pauses(ports: list[int]) -> tuple[int, float]:
    """(passes, seconds) of the cyclic GC so far, summed over the nodes' /metrics."""
    count, total = 0, 0.0
    for port in ports:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            for line in r.read().decode().splitlines():
                if line.startswith("rajas_gc_pause_seconds_count "):
                    count += int(float(line.split()[1]))
                elif line.startswith("rajas_gc_pause_seconds_sum "):
                    total += float(line.split()[1])
    return count, total


def _throughput(results: list[dict[str, Any]], duration: float) -> tuple[float | None, float]:
    """(decisions per second, seconds counted) of the generators' `results`. A closed loop plays games to
    their end, and once one is over fewer rooms are left to play: only the decisions sent while every room
    still had its game count (a game of 5 random players is about 285 decisions, 300 rooms' games all end
    within 20 s at 4,300 decisions/s)."""
    ended = [ms for r in results for ms in r.get("over_ms", [])]
    playing = min(duration, min(ended) / 1000) if ended else duration
    if playing <= 0:
        return None, 0.0
    sent = sum(r["decisions"] for r in results)
    if playing < duration:
        sent = sum(ms < playing * 1000 for r in results for ms in r["sent_ms"])
    return round(sent / playing, 1), round(playing, 2)


def _merge(counts: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, n in c.items():
            out[k] = out.get(k, 0) + n
    return out


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
    for p in procs:
        with contextlib.suppress(Exception):
            p.wait(5)


def _pct(sorted_us: list[int], q: float) -> float:
    if not sorted_us:
        return float("nan")
    return round(sorted_us[min(len(sorted_us) - 1, int(len(sorted_us) * q))] / 1000, 3)


def _timeline(results: list[dict[str, Any]], seconds: int) -> list[float | None]:
    """p99 of the decisions due in each second of the window: a steady queue shows as a flat line, a stall
    (a GC pass, the machine) as a few seconds far above the rest."""
    by_second: list[list[int]] = [[] for _ in range(max(seconds, 1))]
    for r in results:
        for us, ms in zip(r["lat_us"], r["at_ms"], strict=True):
            by_second[min(max(ms // 1000, 0), len(by_second) - 1)].append(us)
    return [_pct(sorted(xs), 0.99) if xs else None for xs in by_second]


def _spawn(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def run_target(
    target: str,
    rooms: int,
    rate: float,
    duration: float,
    workers: int,
    store: str,
    payload: int,
    fsync: str,
    nodes: int = 1,
    pin: bool = False,
) -> dict[str, Any]:
    procs: list[subprocess.Popen[bytes]] = []
    tmp = tempfile.mkdtemp(prefix="rajas-bench-")
    redis_pid = None
    try:
        ports = [_free_port() for _ in range(nodes if target != "bare" else 1)]
        servers: list[subprocess.Popen[bytes]] = []
        if target == "bare":
            servers.append(subprocess.Popen([sys.executable, "-m", "rajas.server.bench_bare", str(ports[0])]))
        else:
            extra = []
            if store == "redis":
                rport = _free_port()
                redis = subprocess.Popen(
                    [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(rport), "--bind",
                     "127.0.0.1", "--dir", tmp, "--save", "", "--appendonly", "yes", "--appendfsync", fsync],
                    stdout=subprocess.DEVNULL,
                )  # fmt: skip
                procs.append(redis)
                _wait_port(rport, redis)
                redis_pid = redis.pid
                extra += ["--redis", f"redis://127.0.0.1:{rport}/0"]
            for i, port in enumerate(ports):
                cmd = [sys.executable, "-m", "rajas.server.cli", "serve", "--port", str(port), "--log-level", "warning"]
                cmd += ["--rate", "1000", "--burst", "1000", *LOOPBACK_CLIENTS, *extra]
                if nodes > 1:
                    cmd += ["--node", f"bench-{i}"]
                servers.append(subprocess.Popen(cmd))
        procs += servers
        for port, server in zip(ports, servers, strict=True):
            _wait_port(port, server)
        time.sleep(0.5)
        rss0 = [_proc_stat(s.pid)[1] for s in servers]
        path = "/ws" if target != "bare" else "/"
        url = ",".join(f"ws://127.0.0.1:{port}{path}" for port in ports)
        share = [rooms // workers + (1 if i < rooms % workers else 0) for i in range(workers)]
        gens = []
        for i, n in enumerate(share):
            gens.append(
                _spawn(
                    [sys.executable, "-m", "rajas.server.bench_load", "--url", url, "--target", target, "--rooms",
                     str(n), "--rate", str(rate), "--payload", str(payload), "--index", str(i)]
                )
            )  # fmt: skip
        procs += gens
        if pin:
            # The server gets a core of its own, as it would with its clients on other machines; otherwise
            # the scheduler moves it and the generators between the cores and figures vary from run to run.
            for sv in servers:
                os.sched_setaffinity(sv.pid, {0})
            for g in gens:
                os.sched_setaffinity(g.pid, set(range(1, os.cpu_count() or 2)))
        setup_started = time.monotonic()
        for g in gens:
            assert g.stdout is not None
            if g.stdout.readline().strip() != b"ready":
                raise RuntimeError("a load generator failed to set up")
        setup_s = time.monotonic() - setup_started
        time.sleep(1.0)
        rss1 = [_proc_stat(s.pid)[1] for s in servers]
        start = time.time() + 1.0
        for g in gens:
            assert g.stdin is not None
            g.stdin.write(f"{start} {duration}\n".encode())
            g.stdin.flush()
        time.sleep(max(0.0, start - time.time()))
        # CPU over the measured window: the server nodes, redis-server, the load generators.
        watched = [s.pid for s in servers] + [g.pid for g in gens] + ([redis_pid] if redis_pid else [])
        gc0 = _gc_pauses(ports) if target != "bare" else None
        before = [_proc_stat(pid)[0] for pid in watched]
        core0 = _core_times(0) if pin else None
        time.sleep(duration)
        after = [_proc_stat(pid) for pid in watched]
        core1 = _core_times(0) if pin else None
        gc1 = _gc_pauses(ports) if target != "bare" else None
        used = [a[0] - b for a, b in zip(after, before, strict=True)]
        node_cpu = used[: len(servers)]
        gen_cpu = used[len(servers) : len(servers) + len(gens)]
        rss2 = [a[1] for a in after[: len(servers)]]
        results = []
        for g in gens:
            assert g.stdout is not None
            results.append(json.loads(g.stdout.readline()))
        lat = sorted(x for r in results for x in r["lat_us"])
        timeline = _timeline(results, int(duration))
        decisions = sum(r["decisions"] for r in results)
        sockets = rooms * 7
        throughput, playing = _throughput(results, duration)

        def per_decision(cpu: float) -> float | None:
            return round(cpu / decisions * 1e6, 1) if decisions else None

        out: dict[str, Any] = {
            "target": target if target == "bare" else f"rajas ({store} store)",
            "rooms": rooms,
            "sockets": sockets,
            "rate_per_room": rate if rate > 0 else "max",
            "seconds": duration,
            "setup_seconds": round(setup_s, 1),
            "decisions": decisions,
            "decisions_per_s": throughput,
            "all_playing_seconds": round(playing, 2),
            "deliveries": len(lat),
            "deliveries_per_s": round(len(lat) / duration, 1),
            "refused": sum(r["refused"] for r in results),
            "refusals": _merge([r.get("refusals", {}) for r in results]),
            "games_over": sum(r["games_over"] for r in results),
            "closed_sockets": sum(r.get("closed_sockets", 0) for r in results),
            "p50_ms": _pct(lat, 0.50),
            "p99_ms": _pct(lat, 0.99),
            "p999_ms": _pct(lat, 0.999),
            "max_ms": round(lat[-1] / 1000, 3) if lat else None,
            "p99_ms_by_second": timeline,
            "server_cpu_s": round(sum(node_cpu), 2),
            "server_cpu_us_per_decision": per_decision(sum(node_cpu)),
            "loadgen_cpu_s": round(sum(gen_cpu), 2),
            "loadgen_cpu_us_per_decision": per_decision(sum(gen_cpu)),
            "server_rss_mb": round(sum(rss2) / 2**20, 1),
            "server_bytes_per_connection": round((sum(rss1) - sum(rss0)) / sockets) if sockets else None,
        }
        if gc0 is not None and gc1 is not None:
            out["server_gc_pauses"] = gc1[0] - gc0[0]
            out["server_gc_pause_ms"] = round((gc1[1] - gc0[1]) * 1000, 1)
        if core0 is not None and core1 is not None:
            out["server_core_percent"] = _core_share(core0, core1)
        if len(servers) > 1:
            out["nodes"] = len(servers)
            out["server_cpu_s_per_node"] = [round(c, 2) for c in node_cpu]
        if redis_pid:
            out["redis_cpu_us_per_decision"] = per_decision(used[-1])
        return out
    finally:
        _stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


def run_idle(connections: int, workers: int) -> dict[str, Any]:
    """Memory per idle connection: N sockets that said hello and sit there."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "rajas.server.cli", "serve", "--port", str(port),
                                   "--log-level", "warning", *LOOPBACK_CLIENTS])  # fmt: skip
        procs.append(server)
        _wait_port(port, server)
        time.sleep(0.5)
        _, rss0 = _proc_stat(server.pid)
        share = [connections // workers + (1 if i < connections % workers else 0) for i in range(workers)]
        gens = [
            _spawn([sys.executable, "-m", "rajas.server.bench_load", "--url", f"ws://127.0.0.1:{port}/ws",
                    "--target", "idle", "--rooms", str(n)])
            for n in share
        ]  # fmt: skip
        procs += gens
        for g in gens:
            assert g.stdout is not None
            if g.stdout.readline().strip() != b"ready":
                raise RuntimeError("a load generator failed to open its connections")
        time.sleep(2.0)
        _, rss1 = _proc_stat(server.pid)
        return {
            "idle_connections": connections,
            "server_rss_mb": round(rss1 / 2**20, 1),
            "server_bytes_per_idle_connection": round((rss1 - rss0) / connections),
        }
    finally:
        _stop(procs)


def _ratios(ours: dict[str, Any], bare: dict[str, Any]) -> dict[str, float | None]:
    return {
        "p50": round(ours["p50_ms"] / bare["p50_ms"], 2) if bare["p50_ms"] else None,
        "p99": round(ours["p99_ms"] / bare["p99_ms"], 2) if bare["p99_ms"] else None,
        "throughput": round(ours["decisions_per_s"] / bare["decisions_per_s"], 2) if bare["decisions_per_s"] else None,
    }


def bench(
    rooms: int,
    rate: float,
    duration: float,
    workers: int,
    store: str,
    baseline: bool,
    idle: int,
    fsync: str,
    nodes: int = 1,
    pin: bool = False,
    repeat: int = 1,
) -> dict[str, Any]:
    if nodes < 1 or (nodes > 1 and store != "redis"):
        raise BenchSetupError("--nodes > 1 needs --store redis (nodes share rooms only through Redis)")
    if pin and (nodes > 1 or (os.cpu_count() or 1) < 2 or not hasattr(os, "sched_setaffinity")):
        raise BenchSetupError("--pin needs one node and at least 2 CPUs (Linux)")
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    report: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "loadavg_before": [float(x) for x in load],
            "python": sys.version.split()[0],
            "pinned": pin,
            "build": "compiled" if compiled() else "pure Python",  # (setup.py: RAJAS_COMPILE=1)
        },
        "command": " ".join(["rajas", *sys.argv[1:]]),
    }
    if rooms > 0:
        # The pairs alternate (ours, bare, ours, bare, ...): this machine's speed drifts by up to 30 % from
        # minute to minute, so a ratio is taken within each pair and the median pair is reported.
        pairs: list[dict[str, Any]] = []
        for _ in range(max(1, repeat)):
            ours = run_target("ours", rooms, rate, duration, workers, store, 0, fsync, nodes, pin)
            pair: dict[str, Any] = {"ours": ours}
            if baseline:
                payload = int(pair["ours"]["deliveries"] and 2000)
                pair["bare"] = run_target("bare", rooms, rate, duration, workers, store, payload, fsync, 1, pin)
                pair["ratio"] = _ratios(pair["ours"], pair["bare"])
            pairs.append(pair)
        if baseline:
            pairs.sort(key=lambda p: p["ratio"]["throughput"] or 0.0)
        else:
            pairs.sort(key=lambda p: p["ours"]["decisions_per_s"])
        report.update(pairs[len(pairs) // 2])
        if len(pairs) > 1:
            report["pairs"] = [
                {
                    "ours_decisions_per_s": p["ours"]["decisions_per_s"],
                    "ours_p99_ms": p["ours"]["p99_ms"],
                    "ours_cpu_us_per_decision": p["ours"]["server_cpu_us_per_decision"],
                    **(
                        {
                            "bare_decisions_per_s": p["bare"]["decisions_per_s"],
                            "bare_cpu_us_per_decision": p["bare"]["server_cpu_us_per_decision"],
                            "ratio": p["ratio"],
                        }
                        if baseline
                        else {}
                    ),
                }
                for p in pairs
            ]
    if idle > 0:
        report["idle"] = run_idle(idle, workers)
    return report
