"""Provably fair dice: check a finished game's log against the seed the server committed to.

At the start the server publishes sha256(seed); at the end it reveals the seed. Anyone can then replay
the game from (players, seed, sheet, decisions) with the engine and see that every roll the server
announced is the roll the seed dictates, that the start player was drawn from it, and that the final
standings follow.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from rajas.engine import Decision, RulesError, SheetError, apply, load_sheet, new_game, parse_sheet

from .codes import commitment
from .room import ROLL_EVENTS, public_state


def load_log(where: str) -> dict[str, Any]:
    if where.startswith(("http://", "https://")):
        with urllib.request.urlopen(where, timeout=30) as resp:
            data: dict[str, Any] = json.loads(resp.read())
            return data
    data = json.loads(Path(where).read_text())
    return data


def _plain(x: Any) -> Any:
    """Tuples and lists alike, as the log's JSON has them."""
    return json.loads(json.dumps(x))


def _rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(_plain([e for e in events if e["type"] in ROLL_EVENTS]))


def verify(log: dict[str, Any]) -> dict[str, Any]:
    """Replays the log. Returns {"ok", "problems", "decisions", "rolls"}; problems name the first mismatch."""
    problems: list[str] = []
    checked_rolls = 0
    seed = log.get("seed")
    report: dict[str, Any] = {"ok": False, "problems": problems, "decisions": 0, "rolls": 0}
    if not seed:
        problems.append("the log has no seed: the game is not over, or the seed was not revealed")
        return report
    if commitment(seed) != log.get("commitment"):
        problems.append("the revealed seed does not match the commitment published at the start")
        return report
    try:
        spec = log["sheet"]
        sheet = load_sheet(spec) if isinstance(spec, str) else parse_sheet(spec)
    except SheetError as e:
        problems.append(f"sheet: {e}")
        return report
    if sheet.digest != log.get("sheet_digest"):
        problems.append("the sheet is not the one the game was played on")
        return report
    state, events = new_game(len(log["players"]), seed, sheet)
    if state.start_player != log["start_player"]:
        problems.append(f"start player {log['start_player']} was not drawn from the seed ({state.start_player})")
    if _rolls(events) != _plain(log.get("start_rolls")):
        problems.append("the first roll does not follow from the seed")
    checked_rolls += len(_rolls(events))
    for i, (seat, wire, _by, rolls) in enumerate(log["decisions"]):
        try:
            state, events = apply(state, Decision.from_wire(wire), player=seat)
        except RulesError as e:
            problems.append(f"decision {i} ({wire} by seat {seat}) is not legal: {e.message}")
            break
        if _rolls(events) != _plain(rolls):
            problems.append(f"decision {i}: the dice announced {rolls} are not the seed's {_rolls(events)}")
            break
        checked_rolls += len(rolls)
    else:
        if not state.is_over:
            problems.append("the replayed game is not over")
        elif _plain(state.result) != _plain(log.get("result")):
            problems.append("the final standings differ from the replay")
        elif log.get("final_state") is not None and _plain(public_state(state)) != _plain(log["final_state"]):
            problems.append("the final sheets differ from the replay")
    report.update(ok=not problems, decisions=len(log["decisions"]), rolls=checked_rolls)
    return report
