"""The sheets rooms play on: Sun and Moon from the engine, a host's custom sheet parsed once while it stays in a
bounded cache (RAJAS_SHEET_CACHE), keyed by the content hash of its file."""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from typing import Any

from rajas.games.dice_charmers.engine import SheetError, load_sheet, parse_sheet
from rajas.games.dice_charmers.engine.sheet import Sheet
from rajas.server.rooms.errors import from_sheet


class SheetCache:
    """Parsed custom sheets by the content hash of their file, the least recently used dropped past `limit`:
    rooms on one sheet share one parse, and sheets of rooms long gone do not stay behind."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self.sheets: OrderedDict[str, Sheet] = OrderedDict()
        self.evictions = 0

    def __len__(self) -> int:
        return len(self.sheets)

    def get(self, spec: dict[str, Any]) -> Sheet:
        key = hashlib.sha256(json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        got = self.sheets.get(key)
        if got is not None:
            self.sheets.move_to_end(key)
            return got
        sheet = parse_sheet(spec)
        self.sheets[key] = sheet
        while len(self.sheets) > self.limit:
            self.sheets.popitem(last=False)
            self.evictions += 1
        return sheet


def _cache_size() -> int:
    try:
        return int(os.environ.get("RAJAS_SHEET_CACHE") or 64)
    except ValueError:
        return 64


SHEETS = SheetCache(_cache_size())  # (`rajas serve --sheet-cache` sets its limit again)


def sheet_for(settings: dict[str, Any]) -> Sheet:
    """The sheet a room plays on; a host's custom sheet is parsed once while it stays in the cache."""
    spec = settings["sheet"]
    try:
        if isinstance(spec, str):
            return load_sheet(spec)
        return SHEETS.get(spec)
    except SheetError as e:
        raise from_sheet(e) from None
