"""The Dice Charmers as the platform sees it (games/interface.py): its options (the sheet), its views, its bots,
the skip of a turn-based turn, and what its logs keep. The rules themselves are the engine's (engine/)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict
from rajas.games.dice_charmers.engine import (
    BUILTIN_SHEETS,
    Decision,
    GameState,
    PlayerState,
    RulesError,
    Sheet,
    SheetError,
    apply,
    legal_decisions,
    load_sheet,
    new_game,
    pending,
    to_move,
)
from rajas.games.dice_charmers.engine.bots import BOTS, Bot, level_bot
from rajas.games.dice_charmers.engine.errors import MalformedDecision, UndoAfterRoll
from rajas.games.dice_charmers.engine.skip import skip_decision
from rajas.games.dice_charmers.engine.state import PHASE_REROLL
from rajas.games.dice_charmers.engine.tracks import overlap_float
from rajas.games.dice_charmers.engine.undo import sets_barrier
from rajas.games.interface import BotMaker, Event, Game, OptionsError
from rajas.games.interface import RulesError as GameRulesError
from rajas.games.rng import DICE_VERSION, state_to_wire

ROLL_EVENTS = ("dice_rolled", "karma_rolled")  # the events that show dice the server rolled
TURNS_PER_ROUND = 1000  # (more than any round has: a turn's number is round * this + turn)
KEPT = 256  # players' views kept by identity (a few rooms' worth: each room's players change one at a time)


class Options(BaseModel):
    """The Dice Charmers' own room settings: the sheet played on (a dict is a custom sheet file, docs/sheets.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    sheet: Literal["sun", "moon"] | dict[str, Any] = "sun"


def _level(kind: str) -> BotMaker:
    """The maker of one of the engine's bots by name; a budget caps the expert's search by this process's
    monotonic clock (the engine reads none)."""

    def make(seed: str, budget: float | None = None) -> Bot:
        return level_bot(kind, seed, budget, time.perf_counter if budget is not None else None)

    return make


def _rules_error(e: RulesError) -> GameRulesError:
    return GameRulesError(str(e), e.code)


class _Kept:
    """Plain data made from read-only engine objects, kept by identity: `apply` shares every player who did not
    decide, so a player's view is made once per change of that player, not once per update."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        self._items: dict[int, tuple[object, dict[str, Any]]] = {}

    def get(self, obj: object) -> dict[str, Any] | None:
        got = self._items.get(id(obj))
        return got[1] if got is not None and got[0] is obj else None

    def put(self, obj: object, value: dict[str, Any]) -> dict[str, Any]:
        items = self._items
        if len(items) >= KEPT:
            del items[next(iter(items))]  # the oldest first (dicts keep their order)
        items[id(obj)] = (obj, value)
        return value


class DiceCharmers(Game):
    id: ClassVar[str] = "dice_charmers"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    hidden: ClassVar[bool] = False
    generator: ClassVar[str] = DICE_VERSION
    options_model: ClassVar[type[BaseModel]] = Options
    # The levels (easy, normal, expert: engine/bots.py LEVELS) besides random and greedy, so rooms can seat any of them.
    bots: ClassVar[Mapping[str, BotMaker]] = {kind: _level(kind) for kind in BOTS}

    def __init__(self) -> None:
        self._views = _Kept()

    # ---- options and components ---------------------------------------------------------------------------

    def components(self, options: Mapping[str, Any]) -> Sheet:
        spec = options.get("sheet", "sun")
        try:
            if isinstance(spec, str):
                if spec not in BUILTIN_SHEETS:
                    raise SheetError(f"sheet: {spec!r} is not a built-in sheet")
                return load_sheet(spec)
            from rajas.games.dice_charmers.engine import parse_sheet

            return parse_sheet(spec)
        except SheetError as e:
            raise OptionsError(f"custom sheet: {e}") from None

    def options_view(self, options: Mapping[str, Any]) -> dict[str, Any]:
        shown = dict(options)
        spec = shown.get("sheet")
        if isinstance(spec, Mapping):
            shown["sheet"] = {"custom": self.components(options).name}
        return shown

    # ---- playing ------------------------------------------------------------------------------------------

    def setup(
        self, players: int, seed: str, contributions: Sequence[str], components: Any
    ) -> tuple[GameState, list[Event]]:
        return new_game(players, seed, components, contributions=contributions)

    def decision(self, wire: Any) -> Decision:
        try:
            return Decision.from_wire(wire)
        except MalformedDecision as e:
            raise _rules_error(e) from None

    def wire(self, decision: Any) -> Any:
        return decision.to_wire()

    def apply(self, state: Any, decision: Any, seat: int | None = None) -> tuple[GameState, list[Event]]:
        try:
            return apply(state, decision, player=seat)
        except RulesError as e:
            raise _rules_error(e) from None

    def legal(self, state: Any) -> list[Decision]:
        return legal_decisions(state)

    def to_move(self, state: Any) -> int | None:
        return to_move(state)

    def start_player(self, state: Any) -> int:
        return int(state.start_player)

    def turn(self, state: Any) -> tuple[int, int]:
        return state.round * TURNS_PER_ROUND + state.turn, state.current

    def is_over(self, state: Any) -> bool:
        return bool(state.is_over)

    def result(self, state: Any) -> list[dict[str, Any]]:
        return [dict(row) for row in state.result or ()]

    def series(self, row: Mapping[str, Any]) -> dict[str, float]:
        return {"overlap": float(row["overlap"]), "fame": int(row["fame"])}

    def barrier(self, before: Any, after: Any) -> str | None:
        if not sets_barrier(before, after):
            return None
        # a karma reroll's dice: the turn goes on, but what came before them is fixed
        return UndoAfterRoll.code if after.phase == PHASE_REROLL and not after.is_over else "nothing_to_undo"

    def skip(self, state: Any) -> Decision:
        """The first decision of the way through the rest of the turn after which the player has the least fame plus
        money: `pass` where the engine offers it, never spending karma while another option is open (engine/skip.py;
        docs/rules-decisions.md, "Turn-based rooms")."""
        return skip_decision(state)

    # ---- what each audience sees ------------------------------------------------------------------------------

    def view(self, state: Any, audience: int | None, base: Any = None) -> dict[str, Any]:
        """Everyone sees the same: the state without the dice generator (which would tell the future), each
        player's sheet with how far its track entries have passed each other; with `base`, `null` for every player
        who is the very same as there (a decision changes one player's sheet, and a page holds the others)."""
        was = base.players if base is not None else ()
        players = [
            None if i < len(was) and was[i] is p else self._player(state, p) for i, p in enumerate(state.players)
        ]
        return {"pending": self._pending(state), "state": self._head(state) | {"players": players}}

    def _player(self, state: GameState, p: PlayerState) -> dict[str, Any]:
        got = self._views.get(p)
        if got is None:
            got = p.to_dict()
            got["overlap"] = overlap_float(state.sheet, p.fame, p.money)
            self._views.put(p, got)
        return got

    @staticmethod
    def _head(state: GameState) -> dict[str, Any]:
        return {
            "sheet": state.sheet.name,
            "sheet_digest": state.sheet.digest,
            "round": state.round,
            "start_player": state.start_player,
            "order": state.order,
            "turn": state.turn,
            "phase": state.phase,
            "faces": state.faces,
            "where": state.where,
            "reroll": state.reroll or None,
            "stack": state.stack,
            "pool": state.pool,
            "end_after": state.end_after,
            "result": state.result,
            "step": state.step,
        }

    @staticmethod
    def _pending(state: GameState) -> dict[str, Any]:
        p = pending(state)
        p["options"] = [d.to_wire() for d in p["options"]]
        if p.get("effect") is not None:
            p["effect"] = list(p["effect"])
        p["pool"] = [list(e) for e in p["pool"]]
        return p

    def announced(self, events: list[Event]) -> list[Event]:
        return [e for e in events if e["type"] in ROLL_EVENTS]

    # ---- keeping a game ----------------------------------------------------------------------------------------

    def to_record(self, state: Any) -> dict[str, Any]:
        """The state as `GameState.from_dict` reads it: the players as everyone sees them (what a view adds,
        `from_dict` derives again), and the dice generator's state."""
        head = self._head(state)
        head["rng"] = state_to_wire(state.rng)
        head["players"] = [self._player(state, p) for p in state.players]
        return head

    def from_record(self, data: Mapping[str, Any], components: Any) -> GameState:
        return GameState.from_dict(dict(data), components)

    def replay_marks(self, state: Any) -> list[int]:
        return [state.round, state.current]


GAME = DiceCharmers()
