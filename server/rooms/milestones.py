"""The events of a commit worth a log line and a count (a game started or ended, a bot took a seat, a turn
clock ran out, a seat changed hands): the hub's commit calls this once per change."""

from __future__ import annotations

import logging

from rajas.server.metrics import Metrics
from rajas.server.rooms.room import Event
from rajas.server.rooms.seat_moves import metric_label

log = logging.getLogger("rajas.server")

MILESTONES = frozenset(("game_starting", "game_over", "bot_took_over", "clock_expired"))  # events that are logged


def log_milestones(metrics: Metrics, code: str, events: list[Event]) -> bool:
    """Logs the events worth a line; True when the game ended."""
    over = False
    for e in events:
        kind = e.get("type")
        seat_change = metric_label(e)  # (away, back, moved, left, taken over, the bot: server/seat_moves.py)
        if seat_change is not None:
            metrics.seat_changes.inc(seat_change)
        if kind not in MILESTONES:
            continue
        if kind == "game_starting":
            log.info("game started", extra={"event": "game_started", "room": code, "players": e["players"]})
            for c in e.get("contributions") or ():
                metrics.contributions.inc(c["by"])
        elif kind == "game_over":
            log.info("game over", extra={"event": "game_over", "room": code})
            over = True
        elif kind in ("bot_took_over", "clock_expired"):
            log.info(kind.replace("_", " "), extra={"event": kind, "room": code, "player": e["player"]})
    return over
