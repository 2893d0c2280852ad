"""`rajas bench` works end to end (a tiny load: the figures of docs/benchmarks.md come from real runs)."""

from __future__ import annotations

import os

import pytest
from rajas.server.bench import BenchSetupError, _core_share, _throughput, bench


def test_a_tiny_bench_delivers_every_decision_to_every_socket_against_both_servers() -> None:
    pin = (os.cpu_count() or 1) >= 2 and hasattr(os, "sched_setaffinity")
    report = bench(3, 2.0, 2.0, 1, "memory", True, 0, "always", nodes=1, pin=pin, repeat=2)
    assert report["machine"]["pinned"] is pin
    for target in ("ours", "bare"):
        run = report[target]
        assert run["refused"] == 0 and run["closed_sockets"] == 0
        assert run["decisions"] > 0 and run["deliveries"] == 7 * run["decisions"]  # 5 players + 2 spectators
        if pin:  # where the server's core went in the window
            assert set(run["server_core_percent"]) >= {"user", "system", "softirq", "steal", "idle"}
    assert len(report["pairs"]) == 2 and report["ratio"]["throughput"] is not None


def test_flags_that_do_not_go_together_are_refused_before_anything_runs() -> None:
    with pytest.raises(BenchSetupError, match="--nodes > 1 needs --store redis"):
        bench(3, 2.0, 2.0, 1, "memory", True, 0, "always", nodes=2)


def test_throughput_counts_only_the_time_every_room_still_had_its_game() -> None:
    # Two generators, 10 s window: decisions at 0-9.9 s; the first game ends at 4 s.
    sent = [[ms for ms in range(0, 10_000, 100)], [ms for ms in range(50, 10_000, 100)]]
    results = [
        {"decisions": 100, "sent_ms": sent[0], "over_ms": [6_000]},
        {"decisions": 100, "sent_ms": sent[1], "over_ms": [4_000, 9_000]},
    ]
    assert _throughput(results, 10.0) == (80 / 4, 4.0)
    for r in results:
        r["over_ms"] = []  # no game ended: the whole window counts
    assert _throughput(results, 10.0) == (20.0, 10.0)


def test_the_server_cores_time_is_shared_out_in_percent() -> None:
    # user nice system idle iowait irq softirq steal, in ticks
    before = [100, 0, 50, 1000, 0, 0, 10, 5]
    after = [160, 0, 70, 1010, 0, 0, 15, 10]  # 100 ticks: 60 user, 20 system, 10 idle, 5 softirq, 5 steal
    share = _core_share(before, after)
    assert share == {
        "user": 60.0, "system": 20.0, "idle": 10.0, "iowait": 0.0, "irq": 0.0, "softirq": 5.0, "steal": 5.0
    }
