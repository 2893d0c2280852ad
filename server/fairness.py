"""Provably fair draws: check a finished game's log against what a player saw at the start (docs/fairness.md).

The server publishes sha256(seed) when the room is created; each seated player's page then contributes a
random value; every die, shuffle and deal comes from the seed and every contribution together; at the end the
seed is revealed. `verify` replays the game from (players, seed, contributions, options, decisions) with the
game's rules: every decision, the bot's included, must be legal, every `undo` entry must take back a decision
its player could take back (server/rooms/undo.py), everything the server announced as drawn must be what the
generator gives, the start player must be drawn from it, and the final standings must follow.
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rajas.games.interface import Components, Game, OptionsError, RulesError
from rajas.games.registry import GAMES
from rajas.games.registry import game as game_of
from rajas.games.rng import bot_contribution
from rajas.server.rooms.codes import commitment
from rajas.server.rooms.undo import MAX_TURN_DECISIONS, UNDO, replay

MAX_LOG_BYTES = 64 << 20  # a whole game's log is well under a megabyte; never read an endless answer
HEX256 = re.compile(r"[0-9a-f]{64}")


class LogError(Exception):
    """A log that cannot be read or does not have the shape of a game log."""


def log_address(where: str) -> str:
    """The log's own address for a page's: the replay viewer's /games/ID (what a player copies from the address
    bar) is the archived log at /api/games/ID; a room's page ?room=CODE is its log at /api/rooms/CODE/log."""
    parts = urllib.parse.urlsplit(where)
    path = parts.path.rstrip("/")
    if path.startswith("/games/"):
        return urllib.parse.urlunsplit(parts._replace(path="/api" + path, query="", fragment=""))
    room = urllib.parse.parse_qs(parts.query).get("room")
    if path in ("", "/") and room:
        return urllib.parse.urlunsplit(parts._replace(path=f"/api/rooms/{room[0]}/log", query="", fragment=""))
    return where


def load_log(where: str) -> dict[str, Any]:
    if where.startswith(("http://", "https://")):
        with urllib.request.urlopen(log_address(where), timeout=30) as resp:
            raw = resp.read(MAX_LOG_BYTES + 1)
    else:
        with Path(where).open("rb") as f:
            raw = f.read(MAX_LOG_BYTES + 1)
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(f"the log is larger than {MAX_LOG_BYTES} bytes")
    try:
        data = json.loads(raw)
    except ValueError:
        raise LogError(f"{where} holds no game log (not JSON): give a log file or the address of a game") from None
    if not isinstance(data, dict):
        raise LogError("a game log is a JSON object")
    return data


def _plain(x: Any) -> Any:
    """Tuples and lists alike, as the log's JSON has them."""
    return json.loads(json.dumps(x))


def log_game(log: Mapping[str, Any]) -> tuple[Game, Components]:
    """The log's game and the components it was played with: from its options, never a path (a log naming a file
    would make the checking machine open it). A log from before games had ids is a Dice Charmers log whose
    `sheet` is its only option."""
    gid = log.get("game", "dice_charmers")
    if gid not in GAMES:
        raise OptionsError(f"game: {gid!r} is not a game this checker knows")
    game = game_of(gid)
    options = log["options"] if "options" in log else {"sheet": log.get("sheet")}
    if not isinstance(options, dict):
        raise OptionsError("options: not an object")
    return game, game.components(game.options(options))


class LogStepper:
    """Steps through a log's entries from the game's start: the one place that reads an entry, used by `verify`
    and by the replay viewer (server/history/replay.py) alike, so both read every kind of entry the same way.
    `step` raises RulesError for an entry the rules (or the rule of undo within the turn) do not allow."""

    def __init__(self, game: Game, state: Any) -> None:
        self.game = game
        self.state = state
        self.base: Any = None  # the state at the turn's last barrier, while something can be taken back
        self.decisions: tuple[Any, ...] = ()
        self.seat: int | None = None

    def step(self, entry: Any) -> list[dict[str, Any]]:
        """Applies one entry ([seat, decision, by, announced]) and returns its events; `state` is then the game
        after it."""
        game = self.game
        seat, wire, by, _announced = entry
        if wire == UNDO:  # the seat took back its last decision of the turn: replayed, nothing drawn
            if self.base is None or not self.decisions or self.seat != seat or game.to_move(self.state) != seat:
                raise RulesError(f"seat {seat} had nothing to take back", "nothing_to_undo")
            last, self.decisions = self.decisions[-1], self.decisions[:-1]
            self.state = replay(game, self.base, self.decisions)
            return [{"type": "took_back", "player": seat, "decision": game.wire(last), "left": len(self.decisions)}]
        decision = game.decision(wire)
        before = self.state
        self.state, events = game.apply(before, decision, seat)
        if game.barrier(before, self.state) is not None or by != "player":
            self.base, self.decisions, self.seat = None, (), None
        elif self.base is None or self.seat != seat:
            self.base, self.decisions, self.seat = before, (decision,), seat
        else:
            self.decisions = (*self.decisions, decision)
            if len(self.decisions) > MAX_TURN_DECISIONS:  # (as the room keeps it: the oldest becomes fixed)
                self.base, _ = game.apply(self.base, self.decisions[0])
                self.decisions = self.decisions[1:]
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
    wrong = contribution_problem(log, seed)
    if wrong is not None:
        problems.append(wrong)
        return
    players_values = [c["value"] for c in log["contributions"] if c["by"] == "player"]
    if mine is not None and mine.strip().lower() not in players_values:
        problems.append("your contribution is not among the log's: the dice were made without it")
        return
    try:
        game, components = log_game(log)
    except (OptionsError, KeyError) as e:
        problems.append(f"options: {e}")
        return
    if components.digest != log.get("components_digest", log.get("sheet_digest")):
        problems.append("the game's components (its sheet) are not the ones the game was played with")
        return
    if log.get("dice") != game.generator:
        problems.append(f"the log's generator is {log.get('dice')!r}, not {game.generator!r}")
        return
    values = [c["value"] for c in log["contributions"]]
    state, events = game.setup(len(log["players"]), seed, values, components)
    start = _plain(game.announced(events))
    checked = len(start)
    if game.start_player(state) != log["start_player"]:
        problems.append(f"start player {log['start_player']} was not drawn from the seed ({game.start_player(state)})")
    if start != _plain(log.get("start_rolls")):
        problems.append("what the start drew does not follow from the seed")
    stepper = LogStepper(game, state)
    for i, (seat, wire, by, announced) in enumerate(log["decisions"]):
        try:
            events = stepper.step((seat, wire, by, announced))
            state = stepper.state
        except RulesError as e:
            problems.append(f"decision {i} ({wire} by seat {seat}, {by}) is not legal: {e}")
            break
        drawn = _plain(game.announced(events))
        if drawn != _plain(announced):
            problems.append(f"decision {i}: what was announced as drawn, {announced}, is not the seed's {drawn}")
            break
        checked += len(announced)
    else:
        if not game.is_over(state):
            problems.append("the replayed game is not over")
        elif _plain(game.result(state)) != _plain(log.get("result")):
            problems.append("the final standings differ from the replay")
        elif log.get("final_state") is not None and _plain(game.view(state, None)["state"]) != _plain(
            log["final_state"]
        ):
            problems.append("the final state differs from the replay")
    report.update(decisions=len(log["decisions"]), rolls=checked)
