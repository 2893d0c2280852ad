"""The attack tests (tests/security): each replays one attack against a real `rajas serve` process (two nodes on
a real redis-server where the attack crosses nodes) and asserts that the node stays responsive, its memory stays
under a stated bound, and the refusals carry the codes docs/protocol.md documents. See node.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.conftest import redis_url  # noqa: F401  # the session's redis-server, shared with tests/server

from .node import Node, rajas_node


@pytest.fixture
def node() -> Iterator[Node]:
    """A node with its default limits and in-memory rooms."""
    with rajas_node() as n:
        yield n


@pytest.fixture(scope="session")
def shared_node() -> Iterator[Node]:
    """A node shared by the tests of a worker that send it requests and check only the answers to them (none
    counts its metrics or its memory, or changes its settings): its default limits, but for the rooms one
    address may create a minute (every test comes from 127.0.0.1)."""
    with rajas_node(env={"RAJAS_ROOMS_PER_MINUTE": "100000"}, name="shared") as n:
        yield n
