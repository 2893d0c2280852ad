"""The rules engine is pure: no I/O, no event loop, no clock, no global random in the modules that make rules."""

from __future__ import annotations

import ast
from pathlib import Path

import rajas.engine

ENGINE = Path(rajas.engine.__file__).parent
TOOLS = {"bots.py", "simulate.py", "benchmark.py"}  # players and measuring tools around the engine, not rules
FORBIDDEN = {"asyncio", "socket", "redis", "starlette", "uvicorn", "websockets", "random", "time", "threading"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_rules_modules_import_nothing_impure() -> None:
    rules = [p for p in ENGINE.glob("*.py") if p.name not in TOOLS]
    assert len(rules) >= 12
    for path in rules:
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_bots_use_their_own_seeded_generator() -> None:
    source = (ENGINE / "bots.py").read_text()
    assert "random.Random(seed)" in source
    assert "random.choice(" not in source and "random.random(" not in source
