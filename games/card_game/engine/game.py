"""The engine's public face: start a game, list the legal decisions, apply one.

Pure and synchronous: state in, decision in, new state and events out. The state passed in is never changed;
a refused decision raises a RulesError and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from rajas.games.rng import roll, seed_to_state

from .cards import catalogue
from .deal import pair_numbers, shuffle
from .decisions import Decision
from .errors import GameOver, IllegalDecision, NotYourTurn
from .piles import shown
from .state import PHASE_ACT, PHASE_PLAN, Event, State, Work, new_player
from .turns import advance, apply_decision, begin_turn, legal

MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEAL = 4  # "Elke speler trekt een voor een 4 kaarten van de stapel"


class Options(NamedTuple):
    start_player: int | None = None  # None: drawn from the generator ("De oudste speler krijgt de Startifant")
    planned_track: bool = False  # the rulebook's tip: each player lays out their own score track, night side up
    round_limit: int = 0  # 0: none; otherwise the game ends after that round (a server's safety net)


DEFAULT = Options()


def new_game(
    players: int, seed: int | str | bytes, contributions: Sequence[str] = (), options: Options = DEFAULT
) -> tuple[State, list[Event]]:
    """A new game: the dice sides paired with the action sides, the deck shuffled, the score tracks shuffled,
    four cards dealt to each player and the offer laid out, all from the seed and the players' contributions
    (the order of draws: docs/card-game/rules-decisions.md, "How the deal is derived")."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"the game is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    cat = catalogue()
    rng = seed_to_state(seed, contributions)
    start = options.start_player
    if start is None:
        rng, start = roll(rng, players)
    elif not 0 <= start < players:
        raise ValueError("start_player is not a seat")
    rng, numbers = pair_numbers(rng, cat)
    rng, deck = shuffle(rng, list(range(len(cat.kind))))
    tracks: list[tuple[int, ...]] = []
    for _ in range(players):
        if options.planned_track:
            tracks.append(())
        else:
            rng, order = shuffle(rng, list(range(len(cat.score_track))))
            tracks.append(tuple(order))
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(DEAL):
        for i in range(players):
            hands[(start + i) % players].append(deck.pop(0))
    size = cat.offer_size[players]
    offer, draw = deck[:size], deck[size:]
    base = State(
        n=players,
        planned_track=options.planned_track,
        round_limit=options.round_limit,
        rng=rng,
        numbers=numbers,
        draw=tuple(draw),
        discard=(),
        offer=tuple(offer),
        in_play=(),
        players=tuple(replace(new_player(t), hand=tuple(h)) for t, h in zip(tracks, hands, strict=True)),
        managers_supply=cat.managers,
        round=1,
        start_player=start,
        turn=0,
        current=start,
        turn_no=0,
        extra_turns=0,
        phase=PHASE_PLAN if options.planned_track else PHASE_ACT,
        stack=(),
        end_triggered=False,
        result=None,
        step=0,
    )
    w = Work(base)
    w.emit({"type": "game_started", "players": players, "start_player": start, "offer": list(offer),
            "hands": [list(h) for h in hands], "draw_top": draw[0], "draw_count": len(draw),
            "planned_track": options.planned_track})
    for seat, hand in enumerate(hands):
        w.emit({"type": "dice_seen", "to": seat, "cards": shown(w, hand)})
    if not options.planned_track:
        begin_turn(w, start)
        advance(w)
    return w.freeze(), w.events


def legal_decisions(g: State) -> list[Decision]:
    """Every decision the seat to move may take now (empty once the game is over)."""
    return legal(Work(g))


def to_move(g: State) -> int | None:
    """The seat that must decide now, or None once the game is over."""
    return None if g.is_over else g.current


def apply(g: State, decision: Decision, player: int | None = None) -> tuple[State, list[Event]]:
    """Applies one decision for `player` (default: whoever must decide). Returns the new state and the events
    it caused; raises NotYourTurn, GameOver or IllegalDecision and leaves `g` as it was."""
    if g.is_over:
        raise GameOver("the game is over")
    if player is not None and player != g.current:
        raise NotYourTurn(f"it is seat {g.current}'s decision, not seat {player}'s")
    w = Work(g)
    if decision not in legal(w):
        raise IllegalDecision(f"{decision.kind} {list(decision.args)} is not legal now")
    w.step += 1
    apply_decision(w, decision)
    return w.freeze(), w.events
