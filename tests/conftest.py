"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rajas.protocol import client as protocol_client

from tests.chromium import launch

# Every frame a test's protocol client receives is checked against the protocol's models: the server keeps
# the contract in every test that talks to it (protocol/server_messages.py).
protocol_client.CHECK_FRAMES = True


@pytest.fixture(autouse=True)
def _frames_keep_the_contract() -> Iterator[None]:
    protocol_client.FAILED_CHECKS.clear()
    yield
    assert not protocol_client.FAILED_CHECKS, protocol_client.FAILED_CHECKS[0]


@pytest.fixture(scope="module")  # module, not session: one Playwright at a time across test folders
def browser() -> Iterator[Any]:
    yield from launch()
