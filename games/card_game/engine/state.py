"""Game and player state: frozen dataclasses of tuples, their mutable working copies, and plain-data conversion.

A state the engine returns never changes: every field is an int, a str or a tuple. `apply` thaws a state into a
`Work` (lists), changes that, and freezes it into a new state, so the state passed in is left as it was.
The state holds the secrets too (each card's dice number, the draw pile's order, the score-track cards' order,
the generator): the server stores it and sends only views (views.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from rajas.games.rng import state_from_wire, state_to_wire

Effect = tuple[Any, ...]  # (kind, *args): an effect still to be carried out, ints and strs only
Event = dict[str, Any]

PHASE_PLAN = "plan"  # planned-track variant: players lay out their score tracks
PHASE_ACT = "act"  # the player chooses the turn's action (or uses a manager to draw)
PHASE_RESOLVE = "resolve"  # the action is being carried out
PHASE_END = "end"  # the action is done; a player with a manager may still use it
PHASE_OVER = "over"

TRACK_CARDS = 6
FAME_SOURCES = ("buildings", "ships", "managers", "track")
COIN_SOURCES = ("goods_cards", "sales", "ships", "palace", "track")


class Standing(NamedTuple):
    """One player's place at the end (docs/card-game/rules-decisions.md, the end of the game)."""

    seat: int
    place: int  # 1 = won; equal places share
    flipped: int
    fame: int
    coins: int
    tiebreak: int  # 2 per fame left, 1 per coin left
    karma: int
    winner: bool


@dataclass(frozen=True, slots=True)
class PlayerState:
    hand: tuple[int, ...]  # card ids, held dice side towards the player
    buildings: tuple[int, ...]  # the building row, in the order laid
    goods: tuple[int, ...]  # the goods row
    ships: tuple[int, ...]  # the ship row, numbers rising
    fame: int
    coins: int
    karma: int
    managers: int
    track: tuple[int, ...]  # per position, left to right: its reward (index into the score-track rewards)
    flipped: tuple[bool, ...]  # per position: turned to its night side
    fame_from: tuple[int, ...]  # fame gained by source (FAME_SOURCES), for the breakdown
    coins_from: tuple[int, ...]  # coins gained by source (COIN_SOURCES)
    fame_flips: int  # score-track cards turned by three fame
    coin_flips: int  # ... by six coins

    @property
    def turned(self) -> int:
        return sum(self.flipped)


@dataclass(frozen=True, slots=True)
class State:
    n: int
    planned_track: bool  # the rulebook's tip: score tracks laid out by their owners, night side up
    round_limit: int  # 0: none (docs/card-game/rules-decisions.md)
    rng: int  # the generator after every draw so far (rng.py)
    numbers: tuple[int, ...]  # per card id: the number on its dice side (paired at setup; secret)
    draw: tuple[int, ...]  # the draw pile, index 0 on top (its action side is seen by all)
    discard: tuple[int, ...]  # the discard pile, dice side up, last on top
    offer: tuple[int, ...]  # the open offer, action side up
    in_play: tuple[int, ...]  # cards being carried out (a palace action, a card waiting for the hand limit)
    players: tuple[PlayerState, ...]
    managers_supply: int
    round: int  # 1-based
    start_player: int  # who holds the Startifant
    turn: int  # 0..2n-1: the turn of the round (n..2n-1: the second series, Startifant turned)
    current: int  # the seat that must decide (the last to play once the game is over)
    turn_no: int  # turns begun so far, extra turns included
    extra_turns: int  # extra turns the current player still has to take after this one
    phase: str
    stack: tuple[Effect, ...]  # effects still to carry out, last first
    end_triggered: bool
    result: tuple[Standing, ...] | None
    step: int  # decisions applied so far

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data, secrets included (for the server's store, never for a player)."""
        return {
            "n": self.n,
            "planned_track": self.planned_track,
            "round_limit": self.round_limit,
            "rng": state_to_wire(self.rng),
            "numbers": list(self.numbers),
            "draw": list(self.draw),
            "discard": list(self.discard),
            "offer": list(self.offer),
            "in_play": list(self.in_play),
            "players": [_player_dict(p) for p in self.players],
            "managers_supply": self.managers_supply,
            "round": self.round,
            "start_player": self.start_player,
            "turn": self.turn,
            "current": self.current,
            "turn_no": self.turn_no,
            "extra_turns": self.extra_turns,
            "phase": self.phase,
            "stack": [list(e) for e in self.stack],
            "end_triggered": self.end_triggered,
            "result": [s._asdict() for s in self.result] if self.result is not None else None,
            "step": self.step,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        return cls(
            n=int(d["n"]),
            planned_track=bool(d["planned_track"]),
            round_limit=int(d["round_limit"]),
            rng=state_from_wire(d["rng"]),
            numbers=_ints(d["numbers"]),
            draw=_ints(d["draw"]),
            discard=_ints(d["discard"]),
            offer=_ints(d["offer"]),
            in_play=_ints(d["in_play"]),
            players=tuple(_player_from(p) for p in d["players"]),
            managers_supply=int(d["managers_supply"]),
            round=int(d["round"]),
            start_player=int(d["start_player"]),
            turn=int(d["turn"]),
            current=int(d["current"]),
            turn_no=int(d["turn_no"]),
            extra_turns=int(d["extra_turns"]),
            phase=str(d["phase"]),
            stack=tuple(tuple(x if isinstance(x, str) else int(x) for x in e) for e in d["stack"]),
            end_triggered=bool(d["end_triggered"]),
            result=tuple(Standing(**s) for s in d["result"]) if d["result"] is not None else None,
            step=int(d["step"]),
        )


def _ints(xs: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in xs)


def _player_dict(p: PlayerState) -> dict[str, Any]:
    return {
        "hand": list(p.hand),
        "buildings": list(p.buildings),
        "goods": list(p.goods),
        "ships": list(p.ships),
        "fame": p.fame,
        "coins": p.coins,
        "karma": p.karma,
        "managers": p.managers,
        "track": list(p.track),
        "flipped": list(p.flipped),
        "fame_from": list(p.fame_from),
        "coins_from": list(p.coins_from),
        "fame_flips": p.fame_flips,
        "coin_flips": p.coin_flips,
    }


def _player_from(d: dict[str, Any]) -> PlayerState:
    return PlayerState(
        hand=_ints(d["hand"]),
        buildings=_ints(d["buildings"]),
        goods=_ints(d["goods"]),
        ships=_ints(d["ships"]),
        fame=int(d["fame"]),
        coins=int(d["coins"]),
        karma=int(d["karma"]),
        managers=int(d["managers"]),
        track=_ints(d["track"]),
        flipped=tuple(bool(x) for x in d["flipped"]),
        fame_from=_ints(d["fame_from"]),
        coins_from=_ints(d["coins_from"]),
        fame_flips=int(d["fame_flips"]),
        coin_flips=int(d["coin_flips"]),
    )


class PlayerWork:
    """A player's state while a decision is being applied: the same fields, in lists."""

    def __init__(self, p: PlayerState) -> None:
        self.hand = list(p.hand)
        self.buildings = list(p.buildings)
        self.goods = list(p.goods)
        self.ships = list(p.ships)
        self.fame = p.fame
        self.coins = p.coins
        self.karma = p.karma
        self.managers = p.managers
        self.track = list(p.track)
        self.flipped = list(p.flipped)
        self.fame_from = list(p.fame_from)
        self.coins_from = list(p.coins_from)
        self.fame_flips = p.fame_flips
        self.coin_flips = p.coin_flips

    def freeze(self) -> PlayerState:
        return PlayerState(
            hand=tuple(self.hand),
            buildings=tuple(self.buildings),
            goods=tuple(self.goods),
            ships=tuple(self.ships),
            fame=self.fame,
            coins=self.coins,
            karma=self.karma,
            managers=self.managers,
            track=tuple(self.track),
            flipped=tuple(self.flipped),
            fame_from=tuple(self.fame_from),
            coins_from=tuple(self.coins_from),
            fame_flips=self.fame_flips,
            coin_flips=self.coin_flips,
        )


class Work:
    """The game while a decision is being applied: a thawed copy of a state, plus the events it causes."""

    def __init__(self, g: State) -> None:
        self.n = g.n
        self.planned_track = g.planned_track
        self.round_limit = g.round_limit
        self.rng = g.rng
        self.numbers = g.numbers  # (never changes after the deal)
        self.draw = list(g.draw)
        self.discard = list(g.discard)
        self.offer = list(g.offer)
        self.in_play = list(g.in_play)
        self.players = [PlayerWork(p) for p in g.players]
        self.managers_supply = g.managers_supply
        self.round = g.round
        self.start_player = g.start_player
        self.turn = g.turn
        self.current = g.current
        self.turn_no = g.turn_no
        self.extra_turns = g.extra_turns
        self.phase = g.phase
        self.stack = list(g.stack)
        self.end_triggered = g.end_triggered
        self.result = g.result
        self.step = g.step
        self.events: list[Event] = []

    def freeze(self) -> State:
        return State(
            n=self.n,
            planned_track=self.planned_track,
            round_limit=self.round_limit,
            rng=self.rng,
            numbers=self.numbers,
            draw=tuple(self.draw),
            discard=tuple(self.discard),
            offer=tuple(self.offer),
            in_play=tuple(self.in_play),
            players=tuple(p.freeze() for p in self.players),
            managers_supply=self.managers_supply,
            round=self.round,
            start_player=self.start_player,
            turn=self.turn,
            current=self.current,
            turn_no=self.turn_no,
            extra_turns=self.extra_turns,
            phase=self.phase,
            stack=tuple(self.stack),
            end_triggered=self.end_triggered,
            result=self.result,
            step=self.step,
        )

    @property
    def me(self) -> PlayerWork:
        return self.players[self.current]

    def emit(self, event: Event) -> None:
        self.events.append(event)


def new_player(track: tuple[int, ...]) -> PlayerState:
    return PlayerState(
        hand=(),
        buildings=(),
        goods=(),
        ships=(),
        fame=0,
        coins=0,
        karma=0,
        managers=0,
        track=track,
        flipped=(False,) * TRACK_CARDS,
        fame_from=(0,) * len(FAME_SOURCES),
        coins_from=(0,) * len(COIN_SOURCES),
        fame_flips=0,
        coin_flips=0,
    )
