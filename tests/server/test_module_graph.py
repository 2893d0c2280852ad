"""The server's modules depend one way: the rooms (load, commit, fan out) know nothing of the timers, bots
and watchdog that react to their commits, a room knows nothing of packing, and no module imports one that
imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import rajas.server

from ..engine.test_imports import _cycle

SERVER = Path(rajas.server.__file__).parent


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
    return found


def test_server_modules_import_in_no_circle() -> None:
    graph = {p.stem: _imports(p) for p in SERVER.glob("*.py") if p.stem != "__init__"}
    assert _cycle(graph) is None, f"import circle: {' -> '.join(_cycle(graph) or [])}"


def test_the_hub_core_reacts_through_hooks_only() -> None:
    graph = {p.stem: _imports(p) for p in SERVER.glob("*.py") if p.stem != "__init__"}
    assert not graph["rooms"] & {"room_tasks", "watchdog", "hub", "session"}
    assert not graph["room"] & {"encoding", "rooms", "hub", "changes"}  # a room is data, packed elsewhere
    assert not graph["changes"] & {"rooms", "hub", "encoding", "store"}  # the reducer does no I/O
