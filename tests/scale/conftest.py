"""Fixtures for the scale tests: the whole deployment as processes (see topology.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .topology import NGINX, REDIS, Topology, topology

if not (REDIS and NGINX):  # pragma: no cover - tests/run.sh installs both
    pytest.skip("redis-server and nginx are needed", allow_module_level=True)


@pytest.fixture(scope="module")
def three_nodes() -> Iterator[Topology]:
    with topology(3) as top:
        yield top


@pytest.fixture(scope="module")
def cluster_nodes() -> Iterator[Topology]:
    """Two nodes and nginx on a Redis Cluster of three masters."""
    with topology(2, cluster=True) as top:
        yield top
