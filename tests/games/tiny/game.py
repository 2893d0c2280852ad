"""Tiny: a game kept for tests only, never offered to players, that the platform plays through the same game
interface as the real ones (games/interface.py). If the rooms, the store, the history, turn-based play, undo or
the fairness check named a real game anywhere, this one would fail there.

The rules, small on purpose but with what the platform must handle: 2-4 players; twelve cards numbered 1-12 are
shuffled from the game's generator and each player is dealt two, which only they see. On your turn you may play
any number of cards from your hand onto your pile (each play can be taken back), draw one card from the deck
(new information: nothing before it can be taken back), and end your turn. The game ends when the deck and every
hand are empty, or after 40 turns; the highest pile wins, ties sharing the win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, ConfigDict
from rajas.games.interface import BotMaker, Event, Game, RulesError
from rajas.games.rng import DICE_VERSION, roll, seed_to_state, state_from_wire, state_to_wire

CARDS = 12
DEAL = 2
TURN_LIMIT = 40


class Move(NamedTuple):
    kind: str  # "play" | "draw" | "end"
    card: int = 0


@dataclass(frozen=True)
class State:
    rng: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    piles: tuple[int, ...]
    start: int
    current: int
    turn: int
    drew: bool  # the player to move drew this turn already
    over: bool
    result: tuple[Mapping[str, Any], ...] | None


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    target: int | None = None  # (unused: a game setting that is the game's own, so the platform passes it through)


class Nothing:
    """Tiny has no components to draw with."""

    digest = "tiny"

    def to_json(self) -> Any:
        return None


def _legal(g: State) -> list[Move]:
    if g.over:
        return []
    moves = [Move("play", c) for c in g.hands[g.current]]
    if g.deck and not g.drew:
        moves.append(Move("draw"))
    moves.append(Move("end"))
    return moves


def _finish(g: State) -> State:
    if (g.deck or any(g.hands)) and g.turn < TURN_LIMIT:
        return g
    best = max(g.piles)
    order = sorted(range(len(g.piles)), key=lambda s: -g.piles[s])
    result = tuple({"seat": s, "score": g.piles[s], "winner": g.piles[s] == best} for s in order)
    return replace(g, over=True, result=result)


def _random(seed: str, budget: float | None = None) -> Any:
    state = [seed_to_state(seed, ("tiny-bot",))]

    def choose(g: State) -> Move:
        options = _legal(g)
        state[0], i = roll(state[0], len(options))
        return options[i]

    return choose


def _greedy(seed: str, budget: float | None = None) -> Any:
    def choose(g: State) -> Move:
        hand = g.hands[g.current]
        if hand:
            return Move("play", max(hand))
        return Move("draw") if g.deck and not g.drew else Move("end")

    return choose


class Tiny(Game):
    id: ClassVar[str] = "tiny"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    hidden: ClassVar[bool] = True
    generator: ClassVar[str] = DICE_VERSION
    options_model: ClassVar[type[BaseModel]] = Options
    bots: ClassVar[Mapping[str, BotMaker]] = {"random": _random, "greedy": _greedy}

    def components(self, options: Mapping[str, Any]) -> Nothing:
        return Nothing()

    def setup(
        self, players: int, seed: str, contributions: Sequence[str], components: Any
    ) -> tuple[State, list[Event]]:
        rng = seed_to_state(seed, contributions)
        rng, start = roll(rng, players)
        deck = list(range(1, CARDS + 1))
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates from the last index, as the real games shuffle
            rng, j = roll(rng, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hands = tuple(tuple(deck[s * DEAL : (s + 1) * DEAL]) for s in range(players))
        g = State(rng, tuple(deck[players * DEAL :]), hands, (0,) * players, start, start, 0, False, False, None)
        events: list[Event] = [{"type": "dealt", "to": s, "cards": list(h)} for s, h in enumerate(hands)]
        return g, [{"type": "started", "start": start}, *events]

    def decision(self, wire: Any) -> Move:
        if isinstance(wire, list) and wire and wire[0] in ("play", "draw", "end"):
            card = wire[1] if len(wire) > 1 else 0
            if type(card) is int:
                return Move(wire[0], card)
        raise RulesError(f"not a move: {wire!r}", "malformed_decision")

    def wire(self, decision: Any) -> Any:
        return [decision.kind, decision.card] if decision.kind == "play" else [decision.kind]

    def apply(self, state: Any, decision: Any, seat: int | None = None) -> tuple[State, list[Event]]:
        g: State = state
        if g.over:
            raise RulesError("the game is over", "game_over")
        if seat is not None and seat != g.current:
            raise RulesError("not your turn", "not_your_turn")
        if decision not in _legal(g):
            raise RulesError(f"{decision} is not legal now", "illegal_decision")
        me = g.current
        if decision.kind == "play":
            hands = list(g.hands)
            hands[me] = tuple(c for c in g.hands[me] if c != decision.card)
            piles = list(g.piles)
            piles[me] += decision.card
            g = replace(g, hands=tuple(hands), piles=tuple(piles))
            return _finish(g), [{"type": "played", "player": me, "card": decision.card}]
        if decision.kind == "draw":
            card, hands = g.deck[0], list(g.hands)
            hands[me] = (*g.hands[me], card)
            g = replace(g, deck=g.deck[1:], hands=tuple(hands), drew=True)
            return g, [{"type": "drew", "player": me}, {"type": "dealt", "to": me, "cards": [card]}]
        g = replace(g, current=(me + 1) % len(g.piles), turn=g.turn + 1, drew=False)
        return _finish(g), [{"type": "ended", "player": me}]

    def legal(self, state: Any) -> list[Move]:
        return _legal(state)

    def to_move(self, state: Any) -> int | None:
        return None if state.over else int(state.current)

    def start_player(self, state: Any) -> int:
        return int(state.start)

    def turn(self, state: Any) -> tuple[int, int]:
        return int(state.turn), int(state.current)

    def is_over(self, state: Any) -> bool:
        return bool(state.over)

    def result(self, state: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in state.result or ()]

    def series(self, row: Mapping[str, Any]) -> dict[str, float]:
        return {"score": int(row["score"])}

    def barrier(self, before: Any, after: Any) -> str | None:
        if after.over or after.turn != before.turn:
            return "nothing_to_undo"
        return "undo_after_roll" if after.deck != before.deck else None

    def skip(self, state: Any) -> Move:
        return Move("end")

    def view(self, state: Any, audience: int | None, base: Any = None) -> dict[str, Any]:
        g: State = state
        hands = [list(h) if s == audience or g.over else len(h) for s, h in enumerate(g.hands)]
        pending: dict[str, Any] = {"player": None if g.over else g.current}
        if audience is not None and audience == pending["player"]:
            pending["options"] = [self.wire(m) for m in _legal(g)]
        shown = {"deck": len(g.deck), "hands": hands, "piles": list(g.piles), "turn": g.turn, "result": g.result}
        return {"state": shown, "pending": pending}

    def replay_view(self, state: Any) -> dict[str, Any]:
        shown = self.view(state, None)
        shown["state"]["hands"] = [list(h) for h in state.hands]  # a finished game hides nothing
        return shown

    def events_for(self, events: list[Event], audience: int | None) -> list[Event]:
        return [e for e in events if "to" not in e or e["to"] == audience]

    def announced(self, events: list[Event]) -> list[Event]:
        return self.events_for(events, None)

    def to_record(self, state: Any) -> dict[str, Any]:
        g: State = state
        return {"rng": state_to_wire(g.rng), "deck": list(g.deck), "hands": [list(h) for h in g.hands],
                "piles": list(g.piles), "start": g.start, "current": g.current, "turn": g.turn, "drew": g.drew,
                "over": g.over, "result": list(g.result) if g.result is not None else None}  # fmt: skip

    def from_record(self, data: Mapping[str, Any], components: Any) -> State:
        result = data["result"]
        return State(state_from_wire(data["rng"]), tuple(data["deck"]), tuple(tuple(h) for h in data["hands"]),
                     tuple(data["piles"]), data["start"], data["current"], data["turn"], data["drew"], data["over"],
                     tuple(result) if result is not None else None)  # fmt: skip


GAME = Tiny()
