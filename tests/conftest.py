"""Fixtures shared by every test folder, and the order the tests start in."""

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


# The order the tests start in (tests/run.sh runs them on two workers, pytest-xdist's loadgroup, which hands
# them out in this order as workers come free): the slowest first, so that the short ones fill the end of
# both workers. First the modules and tests marked `slow` or given a longer timeout than pyproject.toml's
# (whole games in the browser, the benchmark, the turn-based scale test...), then by folder, slowest per test
# first; within that, as collected.
FOLDERS = ["e2e", "scale", "bench", "web", "security", "server", "engine", "protocol"]


def _module_group(item: pytest.Item) -> str | None:
    """A module whose tests share a module-scoped fixture (a browser, a topology of processes, a room played
    through in order) runs whole on one worker: as one xdist group, named after the module. The end-to-end
    tests (whole games clicked through in Chromium, each timed by its page's waits) are one group: one at a
    time, on one worker, while the other takes the rest."""
    if item.nodeid.startswith("tests/e2e/"):
        return "tests/e2e"
    for defs in item._fixtureinfo.name2fixturedefs.values():  # type: ignore[attr-defined]
        if defs and defs[-1].scope == "module":
            return item.nodeid.split("::")[0]
    return None


# tryfirst: xdist's own hook turns the xdist_group marks into the node ids it schedules by; it must see them.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups: dict[str, list[pytest.Item]] = {}
    units: list[list[pytest.Item]] = []  # a group's tests (in their order), or one test
    for item in items:
        group = _module_group(item)
        if group is None:
            units.append([item])
            continue
        item.add_marker(pytest.mark.xdist_group(group))
        if group not in groups:
            units.append(groups.setdefault(group, []))
        groups[group].append(item)

    default_timeout = float(config.getini("timeout") or 0)

    def is_slow(item: pytest.Item) -> bool:
        longer = item.get_closest_marker("timeout")
        return bool(item.get_closest_marker("slow")) or (longer is not None and longer.args[0] > default_timeout)

    def rank(unit: list[pytest.Item]) -> tuple[int, int]:
        slow = any(is_slow(item) for item in unit)
        folder = unit[0].nodeid.split("/")[1] if unit[0].nodeid.startswith("tests/") else ""
        return (0 if slow else 1, FOLDERS.index(folder) if folder in FOLDERS else len(FOLDERS))

    units.sort(key=rank)  # (stable: collection order within a rank)
    items[:] = [item for unit in units for item in unit]
