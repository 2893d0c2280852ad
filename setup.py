"""The package is declared in pyproject.toml. This file only adds the opt-in compiled build.

    pip install mypy setuptools wheel .
    RAJAS_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .

compiles the pure, synchronous modules on the path of every decision with mypyc: the rules engine's, the
generator, and the server's room changes and views (the same source, typed; see docs/benchmarks.md for what it
buys). Nothing asynchronous is compiled, so no coroutine depends on how mypyc compiles one. It needs gcc, the
Python headers, mypy and the package's dependencies in the installing environment (mypy follows the compiled
modules' imports into them: hence the pure package first), and is meant for deployment images
(deploy/Dockerfile), never for an editable install, where the compiled modules would hide edits of the source.
Without RAJAS_COMPILE the package is pure Python, as always.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup

# Folder -> the modules of it that are compiled. Left interpreted: the engine's sheet.py (pydantic models,
# loaded once) and errors.py (exception classes with class attributes); the game interface and each game's
# plug-in (games/*/game.py: subclasses of an abstract class); the protocol's pydantic messages and client;
# everything asynchronous in the server, its metrics (prometheus-client's classes) and budgets (their refusals
# subclass the protocol's exception); and frozen.py (its read-only dict must stay a Python class: compiled code
# would write into a native one).
COMPILED = {
    "games": ("rng",),
    "games/dice_charmers/engine": ("decisions", "effects", "game", "market", "palace", "province", "resolve", "river",
                                   "state", "tracks", "turns", "undo"),
    "server": ("frames", "rooms/changes", "rooms/lobby_changes", "rooms/room", "rooms/seat_moves", "rooms/series",
               "rooms/turn_rules", "rooms/undo", "rooms/views"),
    "protocol": ("codec",),
}  # fmt: skip
STAGED = ("games", "server", "protocol", "client_web")  # the rajas.* packages, for mypy to follow imports


def compiled_modules() -> list[object]:
    if os.environ.get("RAJAS_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    # mypyc names modules by their place on disk; the folders are `games/`, `server/`, ... but the packages
    # are `rajas.games`, `rajas.server`, ... (pyproject's package-dir), so the sources are compiled from a
    # copy laid out that way.
    stage = Path("build") / "mypyc-src"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "rajas").mkdir(parents=True)
    (stage / "rajas" / "__init__.py").write_text("")
    for folder in STAGED:
        shutil.copytree(folder, stage / "rajas" / folder, ignore=shutil.ignore_patterns("__pycache__", "*.js", "*.css"))
    paths = [str(stage / "rajas" / folder / f"{m}.py") for folder, mods in COMPILED.items() for m in mods]
    # One group: calls between compiled modules (session -> hub -> room -> engine) stay native calls.
    return list(mypycify(paths, opt_level="3"))


setup(ext_modules=compiled_modules())
