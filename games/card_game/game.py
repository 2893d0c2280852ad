"""Rajas of the Ganges: The Card Game as the platform sees it (games/interface.py): its options, its views per
seat (a hand's dice sides are its owner's alone), its bots, the skip of a turn-based turn, and what its logs
keep. The rules themselves are the engine's (engine/)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict
from rajas.games.card_game.engine import (
    BOTS,
    Decision,
    RulesError,
    State,
    apply,
    breakdown,
    card_data,
    events_for,
    from_dict,
    legal_decisions,
    new_game,
    pending,
    reveals,
    to_dict,
    to_move,
    view,
)
from rajas.games.card_game.engine import (
    Options as EngineOptions,
)
from rajas.games.interface import BotMaker, Event, Game, instant
from rajas.games.interface import RulesError as GameRulesError
from rajas.games.rng import DICE_VERSION

# A safety net no real game reaches (games end in 5-14 rounds: docs/card-game/balance.md): a table of bots
# that never turns its score-track cards still ends.
ROUND_LIMIT = 40


class Options(BaseModel):
    """The card game's own room settings."""

    model_config = ConfigDict(extra="forbid", strict=True)

    # The rulebook's tip: each player lays out their own score track, night side up (rules decision 29).
    planned_track: bool = False


class Cards:
    """The card list every page draws the action sides from (public: the numbers are paired per game)."""

    def __init__(self) -> None:
        self.data = card_data()
        self.digest = hashlib.sha256(json.dumps(self.data, sort_keys=True).encode()).hexdigest()[:16]
        self.name = "cards"

    def to_json(self) -> Any:
        return {"name": "cards", "cards": self.data}


@cache
def _cards() -> Cards:
    return Cards()


def _rules_error(e: RulesError) -> GameRulesError:
    return GameRulesError(str(e), e.code)


class CardGame(Game):
    id: ClassVar[str] = "card_game"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    hidden: ClassVar[bool] = True
    generator: ClassVar[str] = DICE_VERSION
    options_model: ClassVar[type[BaseModel]] = Options
    bots: ClassVar[Mapping[str, BotMaker]] = {kind: instant(make) for kind, make in BOTS.items()}  # (none searches)

    def components(self, options: Mapping[str, Any]) -> Cards:
        return _cards()

    # ---- playing ------------------------------------------------------------------------------------------

    def setup(
        self, players: int, seed: str, contributions: Sequence[str], components: Any
    ) -> tuple[State, list[Event]]:
        return new_game(players, seed, contributions, EngineOptions(round_limit=ROUND_LIMIT))

    def decision(self, wire: Any) -> Decision:
        try:
            return Decision.from_wire(wire)
        except RulesError as e:
            raise _rules_error(e) from None

    def wire(self, decision: Any) -> Any:
        return decision.to_wire()

    def apply(self, state: Any, decision: Any, seat: int | None = None) -> tuple[State, list[Event]]:
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
        return int(state.turn_no), int(state.current)

    def is_over(self, state: Any) -> bool:
        return bool(state.is_over)

    def result(self, state: Any) -> list[dict[str, Any]]:
        return [s._asdict() for s in state.result or ()]

    def series(self, row: Mapping[str, Any]) -> dict[str, float]:
        return {"fame": int(row["fame"]), "coins": int(row["coins"])}

    def barrier(self, before: Any, after: Any) -> str | None:
        if not reveals(before, after):
            return None
        passed = after.is_over or after.turn_no != before.turn_no or after.current != before.current
        return "nothing_to_undo" if passed else "undo_after_roll"

    def skip(self, state: Any) -> Decision:
        """Ends the turn where the rules allow it; otherwise the option after which the player has the least fame
        (two per point) and coins, the first in the engine's order among equals (docs/card-game/rules-decisions.md,
        "Turn-based rooms")."""
        options = legal_decisions(state)
        for d in options:
            if d.kind == "end":
                return d
        seat = state.current
        best, least = options[0], None
        for d in options:
            after, _ = apply(state, d, player=seat)
            me = after.players[seat]
            gain = 2 * me.fame + me.coins
            if least is None or gain < least:
                best, least = d, gain
        return best

    # ---- what each audience sees ------------------------------------------------------------------------------

    def view(self, state: Any, audience: int | None, base: Any = None) -> dict[str, Any]:
        shown = view(state, audience)
        if state.is_over:
            shown["breakdown"] = breakdown(state)  # where each player's fame and coins came from
        return {"pending": pending(state, audience), "state": shown}

    def replay_view(self, state: Any) -> dict[str, Any]:
        """After the game nothing is hidden: every hand with its dice sides, every row's numbers."""
        shown = self.view(state, None)["state"]
        for seat, row in enumerate(shown["seats"]):
            row["hand"] = view(state, seat)["seats"][seat]["hand"]
        shown["numbers"] = list(state.numbers)
        return {"state": shown, "pending": pending(state, None)}

    def events_for(self, events: list[Event], audience: int | None) -> list[Event]:
        return events_for(events, audience)

    def announced(self, events: list[Event]) -> list[Event]:
        """Everything the table saw happen: the offer laid out, the top card turned, a card discarded face up...
        all of it follows from the deal, so a player can check it once the seed is revealed."""
        return events_for(events, None)

    # ---- keeping a game ----------------------------------------------------------------------------------------

    def to_record(self, state: Any) -> dict[str, Any]:
        return to_dict(state)

    def from_record(self, data: Mapping[str, Any], components: Any) -> State:
        return from_dict(dict(data))

    def replay_marks(self, state: Any) -> list[int]:
        return [int(state.round), int(state.current)]


GAME = CardGame()
