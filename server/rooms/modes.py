"""A room's mode, live or turn-based (`mode: "turns"` in its settings; server/turn_rules.py has the rest of
turn-based rooms). Apart, and compiled (setup.py), because every commit asks it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def turn_based(settings: Mapping[str, Any]) -> bool:
    return settings.get("mode") == "turns"
