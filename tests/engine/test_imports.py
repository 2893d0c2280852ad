"""The engine's modules import one another in one direction only: no module imports one that imports it back
(directly or around a circle), at the top of the file or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import rajas.games.dice_charmers.engine

ENGINE = Path(rajas.games.dice_charmers.engine.__file__).parent


def _engine_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for nxt in sorted(graph.get(name, ())):
            found = visit(nxt, [*path, name])
            if found:
                return found
        done.add(name)
        return None

    for name in sorted(graph):
        found = visit(name, [])
        if found:
            return found
    return None


def test_engine_modules_import_in_no_circle() -> None:
    graph = {p.stem: _engine_imports(p) for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    assert graph["tracks"] >= {"state"}  # the tracks read the state...
    assert "tracks" not in graph["state"]  # ...and the state does not read the tracks
    assert _cycle(graph) is None, f"import circle: {' -> '.join(_cycle(graph) or [])}"


def test_a_circle_is_found() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
