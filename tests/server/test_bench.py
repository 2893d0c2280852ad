"""`rajas bench` works end to end (a tiny load: the figures of docs/benchmarks.md come from real runs)."""

from __future__ import annotations

import os

import pytest
from rajas.server.bench import BenchSetupError, bench


def test_a_tiny_bench_delivers_every_decision_to_every_socket_against_both_servers() -> None:
    pin = (os.cpu_count() or 1) >= 2 and hasattr(os, "sched_setaffinity")
    report = bench(3, 2.0, 2.0, 1, "memory", True, 0, "always", nodes=1, pin=pin, repeat=2)
    assert report["machine"]["pinned"] is pin
    for target in ("ours", "bare"):
        run = report[target]
        assert run["refused"] == 0 and run["closed_sockets"] == 0
        assert run["decisions"] > 0 and run["deliveries"] == 7 * run["decisions"]  # 5 players + 2 spectators
    assert len(report["pairs"]) == 2 and report["ratio"]["throughput"] is not None


def test_flags_that_do_not_go_together_are_refused_before_anything_runs() -> None:
    with pytest.raises(BenchSetupError, match="--nodes > 1 needs --store redis"):
        bench(3, 2.0, 2.0, 1, "memory", True, 0, "always", nodes=2)
