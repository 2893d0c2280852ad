"""The package is declared in pyproject.toml. This file only adds the opt-in compiled build.

    pip install mypy setuptools wheel .
    RAJAS_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .

compiles the modules on the path of every decision with mypyc: the rules engine's and the server's (the
same source, typed; see docs/benchmarks.md for what it buys). It needs gcc, the Python headers, mypy and the
package's dependencies in the installing environment (mypy follows the compiled modules' imports into them:
hence the pure package first), and is meant for deployment images (deploy/Dockerfile), never for an editable
install, where the compiled modules would hide edits of the source. Without RAJAS_COMPILE the package is
pure Python, as always.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup

# Folder -> the modules of it that are compiled. Left interpreted: the engine's sheet.py (pydantic models,
# loaded once) and errors.py (exception classes with class attributes); the protocol's pydantic messages and
# client; the server's app (Starlette routes), start-up, command line, logs, metrics (prometheus-client's classes),
# budgets (their refusals subclass the protocol's exception) and `rajas bots` (the benchmarks live in bench/,
# outside the server), and
# frozen.py (its read-only dict must stay a Python class: compiled code would write into a native one).
COMPILED = {
    "games": ("rng",),
    "games/dice_charmers/engine": ("decisions", "effects", "game", "market", "palace", "province", "resolve", "river",
                                   "state", "tracks", "turns", "undo"),
    "server": ("edge/connection", "edge/inbox", "edge/session", "edge/transport/base", "edge/transport/fast",
               "rooms/changes", "rooms/encoding", "rooms/hub", "rooms/json_text", "rooms/local_room",
               "rooms/milestones", "rooms/modes", "rooms/packed", "rooms/room", "rooms/room_tasks", "rooms/rooms",
               "rooms/seat_moves", "rooms/snapshots", "rooms/state_text", "rooms/turn_undo", "rooms/undo",
               "rooms/update_text", "rooms/views", "rooms/watchdog", "storage/memory_store",
               "storage/redis_channels", "storage/redis_cluster", "storage/redis_pipe", "storage/redis_store",
               "storage/store"),
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
