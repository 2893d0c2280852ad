"""The deployment as processes: games through nginx with the players of one room on different nodes,
/metrics in Prometheus format, structured logs, configuration from the environment."""

from __future__ import annotations

import asyncio

import pytest
from rajas.bench.bots import run_bots
from rajas.server.cli import build_parser
from rajas.server.config import FIELDS, ConfigError, ServeSettings, env_default, load

from .players import check_acked, fetch_log, seat_room
from .topology import Topology, get, parse_metrics


async def test_games_through_the_balancer_use_every_node(three_nodes: Topology) -> None:
    before = [n.metrics() for n in three_nodes.nodes]
    result = await run_bots(three_nodes.url, players=5, games=3, spectators=2, concurrency=3, timeout=120)
    assert result["errors"] == 0, result["error_samples"]
    assert result["completed"] == 3 and result["verified"] == 3 and result["states_match"]
    after = [n.metrics() for n in three_nodes.nodes]
    for b, a in zip(before, after, strict=True):
        # Round robin spread the 21 sockets: every node held players and committed their decisions.
        assert a["rajas_connections_opened_total"] - b["rajas_connections_opened_total"] >= 3
        assert a['rajas_decisions_total{by="player"}'] > b.get('rajas_decisions_total{by="player"}', 0)


async def test_one_room_spread_over_nodes(three_nodes: Topology) -> None:
    created, seats, watchers = await seat_room(three_nodes.url, players=5, spectators=2)
    # Each node that holds a connection of the room knows the room; with 7 sockets over 3 nodes, all do.
    holders = [n for n in three_nodes.nodes if n.metrics()["rajas_rooms"] >= 1]
    assert len(holders) >= 2
    await asyncio.gather(*(s.play() for s in seats))
    for w in watchers:
        await w.wait_for(lambda c: c.over, timeout=10)
    log = fetch_log(three_nodes.url, created["code"])
    check_acked(log, seats)
    states = [s.client.game for s in seats if s.client is not None] + [w.game for w in watchers]
    assert all(st == states[0] for st in states)
    for c in [*(s.client for s in seats), *watchers]:
        if c is not None:
            await c.close()


def test_metrics_are_prometheus_text(three_nodes: Topology) -> None:
    text = get(three_nodes.nodes[0].url + "/metrics").decode()
    samples = parse_metrics(text)
    for name in (
        'rajas_connections{role="player"}',
        "rajas_rooms",
        "rajas_decision_seconds_count",
        'rajas_decision_seconds_bucket{le="+Inf"}',
        "rajas_commits_total",
        "rajas_gc_pause_seconds_count",  # (the nodes run `rajas serve`, which times the cyclic GC's passes)
        "process_resident_memory_bytes",
    ):
        assert name in samples, name
    buckets = [v for k, v in samples.items() if k.startswith("rajas_decision_seconds_bucket")]
    assert buckets == sorted(buckets) and buckets[-1] == samples["rajas_decision_seconds_count"]
    # Refusals are counted by code; the balancer serves /metrics of whichever node it picks.
    assert "# TYPE rajas_errors_total counter" in text


def test_nodes_log_json_lines_configured_from_the_environment(three_nodes: Topology) -> None:
    for node in three_nodes.nodes:
        lines = node.log_lines()
        started = [x for x in lines if x.get("event") == "node_started"]
        assert started and started[0]["node"] == node.name and started[0]["store"] == "RedisStore"
        assert all({"ts", "level", "logger", "msg", "node"} <= set(x) for x in lines)
        health = get(node.url + "/health").decode()
        assert node.name in health  # RAJAS_NODE and RAJAS_PORT came from the environment


def test_flags_default_to_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAJAS_PORT", "9123")
    monkeypatch.setenv("RAJAS_REDIS_URL", "redis://example:6379/2")
    monkeypatch.setenv("RAJAS_ROOM_TTL", "60")
    monkeypatch.setenv("RAJAS_LOG_LEVEL", "debug")
    def settings(*argv: str) -> ServeSettings:
        args = build_parser().parse_args(["serve", *argv])
        return load({flag: getattr(args, flag) for flag in FIELDS})

    s = settings()
    assert (s.port, s.redis, s.room_ttl, s.log_level) == (9123, "redis://example:6379/2", 60.0, "debug")
    assert settings("--port", "1").port == 1  # a flag beats the environment
    monkeypatch.setenv("RAJAS_PORT", "eighty")
    with pytest.raises(ConfigError, match="RAJAS_PORT"):
        env_default("port")
    with pytest.raises(ConfigError, match="RAJAS_PORT='eighty'"):
        settings()  # (`rajas serve` prints it as one line and exits 2: tests/server/test_cli.py)
