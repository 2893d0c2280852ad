"""`rajas bench`: our server and a bare websockets broadcast server under the same open-loop load.

The server runs in its own process (--nodes of them sharing one redis-server with --store redis; the
generator spreads each room's sockets over them), the load in --workers separate processes
(bench/load.py; --clients says whether they speak msgpack or, as the
browser does, JSON text). Latency is decision-to-delivery at every socket of the room, measured from each
decision's intended send time. Server, Redis and load-generator CPU are read from /proc for the measured
window (the generators share the machine with the server: their CPU is reported so it can be weighed), memory
per connection is the server's resident memory growth divided by its sockets.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from typing import Any

from rajas.server.metrics import compiled

from .procs import core_share, core_times, free_port, gc_pauses, proc_stat, spawn, stop, wait_port
from .settings import BenchSettings

# Every simulated client comes from 127.0.0.1: the limits per client address (docs/security.md) would refuse
# all but the first few dozen connections and rooms.
LOOPBACK_CLIENTS = ["--conns-per-address", "1000000", "--rooms-per-minute", "1000000", "--max-rooms", "1000000"]


def throughput(results: list[dict[str, Any]], duration: float) -> tuple[float | None, float]:
    """(decisions per second, seconds counted) of the generators' `results`. A closed loop plays games to
    their end, and once one is over fewer rooms are left to play: only the decisions sent while every room
    still had its game count."""
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


def run_target(target: str, s: BenchSettings, payload: int = 0) -> dict[str, Any]:
    """One measured run against `target` (ours, or bare: the baseline, one node, sent `payload` bytes)."""
    rooms, rate, duration, workers, store = s.rooms, s.rate, s.seconds, s.workers, s.store
    nodes = s.nodes if target != "bare" else 1
    procs: list[subprocess.Popen[bytes]] = []
    tmp = tempfile.mkdtemp(prefix="rajas-bench-")
    redis_pid = None
    try:
        ports = [free_port() for _ in range(nodes if target != "bare" else 1)]
        servers: list[subprocess.Popen[bytes]] = []
        if target == "bare":
            servers.append(subprocess.Popen([sys.executable, "-m", "rajas.bench.bare", str(ports[0])]))
        else:
            extra = []
            if store == "redis":
                rport = free_port()
                redis = subprocess.Popen(
                    [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(rport), "--bind",
                     "127.0.0.1", "--dir", tmp, "--save", "", "--appendonly", "yes", "--appendfsync", s.fsync],
                    stdout=subprocess.DEVNULL,
                )  # fmt: skip
                procs.append(redis)
                wait_port(rport, redis)
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
            wait_port(port, server)
        time.sleep(0.5)
        rss0 = [proc_stat(s.pid)[1] for s in servers]
        path = "/ws" if target != "bare" else "/"
        url = ",".join(f"ws://127.0.0.1:{port}{path}" for port in ports)
        share = [rooms // workers + (1 if i < rooms % workers else 0) for i in range(workers)]
        gens = []
        for i, n in enumerate(share):
            gens.append(
                spawn(
                    [sys.executable, "-m", "rajas.bench.load", "--url", url, "--target", target, "--rooms",
                     str(n), "--rate", str(rate), "--payload", str(payload), "--index", str(i), "--clients", s.clients,
                     *(["--bare-text"] if s.bare_text else [])]
                )
            )  # fmt: skip
        procs += gens
        if s.pin:
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
        rss1 = [proc_stat(s.pid)[1] for s in servers]
        start = time.time() + 1.0
        for g in gens:
            assert g.stdin is not None
            g.stdin.write(f"{start} {duration}\n".encode())
            g.stdin.flush()
        time.sleep(max(0.0, start - time.time()))
        # CPU over the measured window: the server nodes, redis-server, the load generators.
        watched = [s.pid for s in servers] + [g.pid for g in gens] + ([redis_pid] if redis_pid else [])
        gc0 = gc_pauses(ports) if target != "bare" else None
        before = [proc_stat(pid)[0] for pid in watched]
        core0 = core_times(0) if s.pin else None
        time.sleep(duration)
        after = [proc_stat(pid) for pid in watched]
        core1 = core_times(0) if s.pin else None
        gc1 = gc_pauses(ports) if target != "bare" else None
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
        seen = sum(r.get("updates_seen", 0) for r in results)
        sockets = rooms * 7
        per_s, playing = throughput(results, duration)

        def per_decision(cpu: float) -> float | None:
            return round(cpu / decisions * 1e6, 1) if decisions else None

        out: dict[str, Any] = {
            "target": target if target == "bare" else f"rajas ({store} store)",
            "clients": s.clients if target != "bare" else f"{'text' if s.bare_text else 'binary'} frames, {payload} B",
            "rooms": rooms,
            "sockets": sockets,
            "rate_per_room": rate if rate > 0 else "max",
            "seconds": duration,
            "setup_seconds": round(setup_s, 1),
            "decisions": decisions,
            "decisions_per_s": per_s,
            "all_playing_seconds": round(playing, 2),
            "deliveries": len(lat),
            "deliveries_per_s": round(len(lat) / duration, 1),
            # (the mean size of an update's payload, as one socket per room received them)
            "update_bytes_mean": round(sum(r.get("update_bytes", 0) for r in results) / seen) if seen else None,
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
            out["servergc_pauses"] = gc1[0] - gc0[0]
            out["server_gc_pause_ms"] = round((gc1[1] - gc0[1]) * 1000, 1)
        if core0 is not None and core1 is not None:
            out["server_core_percent"] = core_share(core0, core1)
        if len(servers) > 1:
            out["nodes"] = len(servers)
            out["server_cpu_s_per_node"] = [round(c, 2) for c in node_cpu]
        if redis_pid:
            out["redis_cpu_us_per_decision"] = per_decision(used[-1])
        return out
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


def run_idle(connections: int, workers: int) -> dict[str, Any]:
    """Memory per idle connection: N sockets that said hello and sit there."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "rajas.server.cli", "serve", "--port", str(port),
                                   "--log-level", "warning", *LOOPBACK_CLIENTS])  # fmt: skip
        procs.append(server)
        wait_port(port, server)
        time.sleep(0.5)
        _, rss0 = proc_stat(server.pid)
        share = [connections // workers + (1 if i < connections % workers else 0) for i in range(workers)]
        gens = [
            spawn([sys.executable, "-m", "rajas.bench.load", "--url", f"ws://127.0.0.1:{port}/ws",
                    "--target", "idle", "--rooms", str(n)])
            for n in share
        ]  # fmt: skip
        procs += gens
        for g in gens:
            assert g.stdout is not None
            if g.stdout.readline().strip() != b"ready":
                raise RuntimeError("a load generator failed to open its connections")
        time.sleep(2.0)
        _, rss1 = proc_stat(server.pid)
        return {
            "idle_connections": connections,
            "server_rss_mb": round(rss1 / 2**20, 1),
            "server_bytes_per_idle_connection": round((rss1 - rss0) / connections),
        }
    finally:
        stop(procs)


def _ratios(ours: dict[str, Any], bare: dict[str, Any]) -> dict[str, float | None]:
    return {
        "p50": round(ours["p50_ms"] / bare["p50_ms"], 2) if bare["p50_ms"] else None,
        "p99": round(ours["p99_ms"] / bare["p99_ms"], 2) if bare["p99_ms"] else None,
        "throughput": round(ours["decisions_per_s"] / bare["decisions_per_s"], 2) if bare["decisions_per_s"] else None,
    }


def bench(s: BenchSettings) -> dict[str, Any]:
    s.check()
    if s.spectators > 0:  # the watched final: a scenario of its own (bench/crowd.py)
        from .crowd import run_crowd

        return {"command": " ".join(["rajas", *sys.argv[1:]]), "settings": asdict(s), "crowd": run_crowd(s)}
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    report: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "loadavg_before": [float(x) for x in load],
            "python": sys.version.split()[0],
            "pinned": s.pin,
            "build": "compiled" if compiled() else "pure Python",  # (setup.py: RAJAS_COMPILE=1)
        },
        "command": " ".join(["rajas", *sys.argv[1:]]),
        "settings": asdict(s),
        "clients": s.clients,
    }
    if s.rooms > 0:
        # The pairs alternate (ours, bare, ours, bare, ...): this machine's speed drifts from minute to
        # minute, so a ratio is taken within each pair and the median pair is reported.
        pairs: list[dict[str, Any]] = []
        for _ in range(s.repeat):
            pair: dict[str, Any] = {"ours": run_target("ours", s)}
            if s.baseline:
                payload = int(pair["ours"]["deliveries"] and 2000)
                if s.bare_text and pair["ours"]["update_bytes_mean"]:
                    payload = int(pair["ours"]["update_bytes_mean"])
                pair["bare"] = run_target("bare", s, payload)
                pair["ratio"] = _ratios(pair["ours"], pair["bare"])
            pairs.append(pair)
        if s.baseline:
            pairs.sort(key=lambda p: p["ratio"]["throughput"] or 0.0)
        else:
            pairs.sort(key=lambda p: p["ours"]["decisions_per_s"])
        report.update(pairs[len(pairs) // 2])
        if len(pairs) > 1:
            report["pairs"] = [_pair_summary(p, s.baseline) for p in pairs]
    if s.idle > 0:
        report["idle"] = run_idle(s.idle, s.workers)
    return report


def _pair_summary(p: dict[str, Any], baseline: bool) -> dict[str, Any]:
    out = {
        "ours_decisions_per_s": p["ours"]["decisions_per_s"],
        "ours_p99_ms": p["ours"]["p99_ms"],
        "ours_cpu_us_per_decision": p["ours"]["server_cpu_us_per_decision"],
    }
    if baseline:
        out["bare_decisions_per_s"] = p["bare"]["decisions_per_s"]
        out["bare_cpu_us_per_decision"] = p["bare"]["server_cpu_us_per_decision"]
        out["ratio"] = p["ratio"]
    return out
