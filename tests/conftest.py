"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.chromium import launch


@pytest.fixture(scope="module")  # module, not session: one Playwright at a time across test folders
def browser() -> Iterator[Any]:
    yield from launch()
