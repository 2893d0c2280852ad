"""The deployment build compiles with mypyc (setup.py's COMPILED) only pure, synchronous modules: how mypyc
compiles a coroutine (an exception pending across an `await` in a `finally` was once raised again in whichever
coroutine ran next) is then nothing the server depends on, and its asynchronous code is written as Python is."""

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


def asynchronous(source: str) -> list[int]:
    """Lines of every coroutine (`async def`) in a module."""
    return [node.lineno for node in ast.walk(ast.parse(source)) if isinstance(node, ast.AsyncFunctionDef)]


def test_the_check_finds_a_coroutine() -> None:
    assert asynchronous("async def f():\n    pass\n") == [1]
    assert asynchronous("def f():\n    pass\n") == []


def test_no_compiled_module_is_asynchronous() -> None:
    paths = compiled_sources()
    assert len(paths) > 20 and all(p.exists() for p in paths)
    offending = {str(p.relative_to(ROOT)): lines for p in paths if (lines := asynchronous(p.read_text()))}
    assert offending == {}
