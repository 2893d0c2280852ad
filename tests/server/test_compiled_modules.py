"""The modules the deployment build compiles with mypyc (setup.py's COMPILED) never wait inside a `finally` or
an `except`: compiled, an exception pending across that wait (a task's cancellation) was raised again in
whichever coroutine ran next, and a player's `leave` lost its connection (tests/server/test_rematch.py has the
case itself)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compiled_sources() -> list[Path]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    found = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    )
    compiled: dict[str, tuple[str, ...]] = ast.literal_eval(found)
    return [ROOT / folder / f"{module}.py" for folder, modules in compiled.items() for module in modules]


def waits_in_cleanup(source: str) -> list[int]:
    """Lines of every `await` (or `async for` / `async with`) inside a `finally` or an `except` block."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Try | ast.TryStar):
            blocks = [*node.finalbody, *(s for h in node.handlers for s in h.body)]
            for block in blocks:
                for inner in ast.walk(block):
                    if isinstance(inner, ast.Await | ast.AsyncFor | ast.AsyncWith):
                        lines.append(inner.lineno)
    return lines


def test_the_check_finds_a_wait_in_a_finally_and_in_an_except() -> None:
    source = "async def f():\n    try:\n        pass\n    finally:\n        await g()\n"
    assert waits_in_cleanup(source) == [5]
    source = "async def f():\n    try:\n        pass\n    except Exception:\n        await g()\n"
    assert waits_in_cleanup(source) == [5]
    assert waits_in_cleanup("async def f():\n    try:\n        await g()\n    finally:\n        h()\n") == []


def test_no_compiled_module_waits_in_a_finally_or_an_except() -> None:
    paths = compiled_sources()
    assert len(paths) > 30 and all(p.exists() for p in paths)
    offending = {str(p.relative_to(ROOT)): lines for p in paths if (lines := waits_in_cleanup(p.read_text()))}
    assert offending == {}
