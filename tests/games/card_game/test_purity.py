"""The card game's rules engine is pure: no I/O, no event loop, no clock, no global random in any module."""

from __future__ import annotations

import ast
from pathlib import Path

import rajas.games.card_game.engine
from rajas.games.card_game.engine import BOTS, apply, new_game

ENGINE = Path(rajas.games.card_game.engine.__file__).parent
FORBIDDEN = {"asyncio", "socket", "redis", "starlette", "uvicorn", "websockets", "random", "time", "threading",
             "os", "subprocess"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_every_engine_module_imports_nothing_impure() -> None:
    modules = list(ENGINE.glob("*.py"))
    assert len(modules) >= 15
    for path in modules:
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.name} imports {sorted(bad)}"


def _bot_game(bot: str, seed: str, decisions: int) -> list[object]:
    g, _ = new_game(3, "purity")
    bots = [BOTS[bot](f"{seed}:{seat}") for seat in range(3)]
    chosen: list[object] = []
    while not g.is_over and len(chosen) < decisions:
        d = bots[g.current](g)
        chosen.append(d.to_wire())
        g, _ = apply(g, d)
    return chosen


def test_a_bot_chooses_the_same_given_the_same_seed_and_otherwise_not() -> None:
    for bot in ("random", "greedy"):
        first = _bot_game(bot, "a", 80)
        assert first == _bot_game(bot, "a", 80), bot
    assert _bot_game("random", "a", 80) != _bot_game("random", "b", 80)


def test_the_engine_modules_import_one_another_in_one_direction_only() -> None:
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        graph[path.stem] = found - {"__init__"}
    graph.pop("__init__")

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph.get(start, ()))

    assert not [m for m in graph if reaches(m, m, {m})]
