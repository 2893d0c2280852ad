"""The attack tests' own measurements work: a real node answers the probe's decisions and reports its memory."""

from __future__ import annotations

from .node import Node, Probe, health_ms, metric, rss_mb


async def test_the_probe_plays_another_room_and_times_the_node(node: Node) -> None:
    async with Probe(node.url) as probe:
        for _ in range(5):
            await probe.decide()
    assert len(probe.times_ms) == 5 and 0 < probe.worst_ms < 5000
    assert metric(node, 'rajas_decisions_total{by="player"}') >= 5
    assert 10 < rss_mb(node) < 2000
    assert health_ms(node) < 5000
