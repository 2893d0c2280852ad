"""The package is declared in pyproject.toml. This file only adds the opt-in compiled rules engine.

    RAJAS_COMPILE=1 pip install --no-build-isolation .

compiles the engine's hot modules with mypyc (the same source, typed; about twice as fast: see
docs/benchmarks.md). It needs gcc, the Python headers and mypy in the installing environment, and is meant
for deployment images (deploy/Dockerfile), never for an editable install, where the compiled modules would
hide edits of the source. Without RAJAS_COMPILE the package is pure Python, as always.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup

# The engine modules on the path of every decision. Left interpreted: sheet.py (pydantic models, loaded
# once), errors.py (exception classes with class attributes), and the tools around the engine.
COMPILED = ("decisions", "effects", "game", "market", "palace", "province", "resolve", "river", "rng", "state",
            "tracks", "turns")  # fmt: skip


def compiled_engine() -> list[object]:
    if os.environ.get("RAJAS_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    # mypyc names modules by their place on disk; the engine's folder is `engine/` but its package is
    # `rajas.engine` (pyproject's package-dir), so the sources are compiled from a copy laid out that way.
    stage = Path("build") / "mypyc-src"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "rajas" / "engine").mkdir(parents=True)
    (stage / "rajas" / "__init__.py").write_text("")
    for source in Path("engine").glob("*.py"):
        shutil.copy(source, stage / "rajas" / "engine" / source.name)
    return list(mypycify([str(stage / "rajas" / "engine" / f"{m}.py") for m in COMPILED], opt_level="3"))


setup(ext_modules=compiled_engine())
