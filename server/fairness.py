"""Provably fair dice: check a finished game's log against what a player saw at the start (docs/fairness.md).

The server publishes sha256(seed) when the room is created; each seated player's page then contributes a
random value; the dice come from the seed and every contribution together; at the end the seed is revealed.
`verify` replays the game from (players, seed, contributions, sheet, decisions) with the engine: every
decision, the bot's included, must be legal, every `undo` entry must take back a decision its player could
take back (engine/undo.py), every roll the server announced must be the roll the generator gives, the start
player must be drawn from it, and the final standings must follow.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from rajas.games.dice_charmers.engine import (
    Decision,
    GameState,
    RulesError,
    SheetError,
    apply,
    load_sheet,
    new_game,
    parse_sheet,
)
from rajas.games.dice_charmers.engine.sheet import BUILTIN_SHEETS, Sheet
from rajas.games.dice_charmers.engine.undo import TurnHistory, record, take_back
from rajas.games.rng import DICE_VERSION, bot_contribution
from rajas.server.rooms.codes import commitment
from rajas.server.rooms.encoding import public_state
from rajas.server.rooms.room import ROLL_EVENTS
from rajas.server.rooms.undo import UNDO

MAX_LOG_BYTES = 64 << 20  # a whole game's log is well under a megabyte; never read an endless answer
HEX256 = re.compile(r"[0-9a-f]{64}")


class LogError(Exception):
    """A log that cannot be read or does not have the shape of a game log."""


def load_log(where: str) -> dict[str, Any]:
    if where.startswith(("http://", "https://")):
        with urllib.request.urlopen(where, timeout=30) as resp:
            raw = resp.read(MAX_LOG_BYTES + 1)
    else:
        with Path(where).open("rb") as f:
            raw = f.read(MAX_LOG_BYTES + 1)
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(f"the log is larger than {MAX_LOG_BYTES} bytes")
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise LogError("a game log is a JSON object")
    return data


def _plain(x: Any) -> Any:
    """Tuples and lists alike, as the log's JSON has them."""
    return json.loads(json.dumps(x))


def _rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(_plain([e for e in events if e["type"] in ROLL_EVENTS]))


def log_sheet(spec: Any) -> Sheet:
    """The log's sheet: a built-in one by name, or the sheet file the log carries itself. Never a path: a log
    naming a file would make the checking machine open it."""
    if isinstance(spec, str):
        if spec not in BUILTIN_SHEETS:
            raise SheetError(f"sheet: {spec!r} is not a built-in sheet (a custom sheet is carried in the log)")
        return load_sheet(spec)
    if isinstance(spec, dict):
        return parse_sheet(spec)
    raise SheetError("sheet: neither a built-in sheet's name nor a sheet file")


class LogStepper:
    """Steps through a log's entries from the game's start: the one place that reads an entry, used by `verify`
    and by the replay viewer (server/replay.py) alike, so both read every kind of entry the same way. `step`
    raises RulesError for an entry the rules do not allow."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.history: TurnHistory | None = None  # what the player to move may take back (server/undo.py)

    def step(self, entry: Any) -> list[dict[str, Any]]:
        """Applies one entry ([seat, decision, by, rolls]) and returns its events; `state` is then the game after it."""
        seat, wire, by, _rolls = entry
        if wire == UNDO:  # the seat took back its last decision of the turn: replayed, nothing rolled
            self.state, self.history, events = take_back(self.history, self.state, seat)
            return events
        decision = Decision.from_wire(wire)
        before = self.state
        self.state, events = apply(before, decision, player=seat)
        self.history = record(self.history, before, decision, self.state, by == "player")
        return events


def contribution_problem(log: dict[str, Any], seed: str) -> str | None:
    """What is wrong with the log's contributions, if anything: one per seat, 64 hex digits each, and a
    seat marked as the bot's must hold exactly the value its bot derives from the seed."""
    got = log.get("contributions")
    players = log.get("players")
    if not isinstance(got, list) or not isinstance(players, list) or len(got) != len(players):
        return "the log does not hold one dice contribution per seat"
    for seat, c in enumerate(got):
        if not isinstance(c, dict) or not isinstance(c.get("value"), str) or not HEX256.fullmatch(c["value"]):
            return f"seat {seat}'s contribution is not 64 hex digits"
        if c.get("by") == "bot" and c["value"] != bot_contribution(seed, seat):
            return f"seat {seat}'s contribution is marked as its bot's but is not the value the bot derives"
        if c.get("by") not in ("player", "bot"):
            return f"seat {seat}'s contribution is neither a player's nor a bot's"
    return None


def verify(log: dict[str, Any], seen_commitment: str | None = None, mine: str | None = None) -> dict[str, Any]:
    """Replays the log. Returns {"ok", "problems", "decisions", "rolls"}; problems name the first mismatch.
    `seen_commitment`: the commitment the player saw at the start; a log with another one is refused.
    `mine`: the contribution the player's page sent; a log whose dice were made without it is refused."""
    problems: list[str] = []
    report: dict[str, Any] = {"ok": False, "problems": problems, "decisions": 0, "rolls": 0}
    try:
        _replay(log, seen_commitment, mine, problems, report)
    except (KeyError, TypeError, ValueError, IndexError) as e:  # a log of the wrong shape: refused, not a crash
        problems.append(f"the log is not a well-formed game log ({type(e).__name__}: {e})")
    report["ok"] = not problems
    return report


def _replay(
    log: dict[str, Any], seen: str | None, mine: str | None, problems: list[str], report: dict[str, Any]
) -> None:
    seed = log.get("seed")
    if seen is not None and seen.strip().lower() != log.get("commitment"):
        problems.append("the log's commitment is not the one you saw at the start: this is another game's log")
        return
    if not isinstance(seed, str) or not seed:
        problems.append("the log has no seed: the game is not over, or the seed was not revealed")
        return
    if commitment(seed) != log.get("commitment"):
        problems.append("the revealed seed does not match the commitment published at the start")
        return
    if log.get("dice") != DICE_VERSION:
        problems.append(f"the log's dice generator is {log.get('dice')!r}, not {DICE_VERSION!r}")
        return
    wrong = contribution_problem(log, seed)
    if wrong is not None:
        problems.append(wrong)
        return
    players_values = [c["value"] for c in log["contributions"] if c["by"] == "player"]
    if mine is not None and mine.strip().lower() not in players_values:
        problems.append("your contribution is not among the log's: the dice were made without it")
        return
    try:
        sheet = log_sheet(log["sheet"])
    except SheetError as e:
        problems.append(f"sheet: {e}")
        return
    if sheet.digest != log.get("sheet_digest"):
        problems.append("the sheet is not the one the game was played on")
        return
    values = [c["value"] for c in log["contributions"]]
    state, events = new_game(len(log["players"]), seed, sheet, contributions=values)
    checked_rolls = len(_rolls(events))
    if state.start_player != log["start_player"]:
        problems.append(f"start player {log['start_player']} was not drawn from the seed ({state.start_player})")
    if _rolls(events) != _plain(log.get("start_rolls")):
        problems.append("the first roll does not follow from the seed")
    stepper = LogStepper(state)
    for i, (seat, wire, by, rolls) in enumerate(log["decisions"]):
        try:
            events = stepper.step((seat, wire, by, rolls))
            state = stepper.state
        except RulesError as e:
            problems.append(f"decision {i} ({wire} by seat {seat}, {by}) is not legal: {e.message}")
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
    report.update(decisions=len(log["decisions"]), rolls=checked_rolls)
