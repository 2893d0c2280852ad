"""What each audience may know: a seat's view of the table, what is pending, the events it receives, and whether
a step showed anyone something hidden.

Hidden: the number on the dice side of every card in the offer, in the draw pile and in a hand (its owner alone
sees those of their own hand), of every card in a row (action side up: nobody sees it), the draw pile's order
below its top card, the rewards of score-track cards not yet turned, and the generator. Everyone sees every
action side (in a hand it faces the other players), the colour in each action side's corner, the draw pile's
top card, and the discard pile, which lies dice side up.
"""

from __future__ import annotations

from typing import Any

from .cards import catalogue
from .game import legal_decisions
from .state import PHASE_ACT, PHASE_END, PHASE_PLAN, Event, PlayerWork, State
from .threes import choices


def _dice(g: State, cards: tuple[int, ...]) -> list[dict[str, int]]:
    return [{"card": c, "number": g.numbers[c]} for c in cards]


def _seat(g: State, seat: int, audience: int | None) -> dict[str, Any]:
    p = g.players[seat]
    track = catalogue().score_track
    mine = audience == seat
    return {
        # Own hand: both sides; another's: the action sides that face the table, never a number.
        "hand": _dice(g, p.hand) if mine else list(p.hand),
        "hand_count": len(p.hand),
        "buildings": list(p.buildings),
        "goods": list(p.goods),
        "ships": list(p.ships),
        "fame": p.fame,
        "coins": p.coins,
        "karma": p.karma,
        "managers": p.managers,
        # A card still on its day side hides its reward from everyone, its owner too (not so in the planned
        # variant, where the tracks are laid out night side up by their owners).
        "track": [track[p.track[i]] if (p.flipped[i] or g.planned_track) and i < len(p.track) else None
                  for i in range(len(p.flipped))],
        "turned": list(p.flipped),
    }


def view(g: State, seat: int | None) -> dict[str, Any]:
    """The table as `seat` sees it (None: a spectator, who sees no hand's numbers). Plain JSON-able data."""
    return {
        "game": "card_game",
        "you": seat,
        "players": g.n,
        "round": g.round,
        "start_player": g.start_player,
        "startifant": "back" if g.turn >= g.n else "front",
        "turn": g.turn,
        "current": None if g.is_over else g.current,
        "phase": g.phase,
        "extra_turns": g.extra_turns,
        "offer": list(g.offer),
        "draw": {"count": len(g.draw), "top": g.draw[0] if g.draw else None},
        "discard": _dice(g, g.discard),
        "in_play": list(g.in_play),
        "managers_supply": g.managers_supply,
        "seats": [_seat(g, s, seat) for s in range(g.n)],
        "end_triggered": g.end_triggered,
        "result": [s._asdict() for s in g.result] if g.result is not None else None,
        "planned_track": g.planned_track,
    }


def pending_kind(g: State) -> str:
    if g.is_over:
        return "over"
    if g.phase == PHASE_PLAN:
        return "plan_track"
    if g.stack:
        return str(g.stack[-1][0])
    if g.phase == PHASE_ACT:
        return "action"
    if g.phase == PHASE_END:
        return "end_of_turn"
    raise AssertionError(f"nothing pending in phase {g.phase}")


def pending(g: State, seat: int | None) -> dict[str, Any]:
    """Who must decide and what kind of decision; the options, in wire form, only for that seat."""
    if g.is_over:
        return {"player": None, "kind": "over"}
    out: dict[str, Any] = {"player": g.current, "kind": pending_kind(g)}
    top = g.stack[-1] if g.stack else None
    if top is not None and top[0] == "discard":
        out["count"] = top[1]
    if top is not None and top[0] == "track_choice":
        out["reward"] = top[1]
    if seat == g.current:
        out["options"] = [d.to_wire() for d in legal_decisions(g)]
        if top is not None and top[0] == "threes":
            p = PlayerWork(g.players[g.current])
            out["threes"] = [[e.describe() for e in c] for c in choices(catalogue(), p)]
    return out


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """What one audience receives: every event without "to", and those addressed to `seat`."""
    return [e for e in events if "to" not in e or (seat is not None and e["to"] == seat)]


ALL = -1


def _knowledge(g: State) -> tuple[dict[int, frozenset[int]], set[int]]:
    """Who knows each card's number (ALL: everyone), and which cards' action sides are in sight."""
    known: dict[int, frozenset[int]] = {c: frozenset((ALL,)) for c in g.discard}
    for s, p in enumerate(g.players):
        for c in p.hand:
            known[c] = frozenset((s,))
    hidden_backs = set(g.draw[1:])
    return known, hidden_backs


def reveals(before: State, after: State) -> bool:
    """Whether the step from `before` to `after` showed anyone something hidden, drew from the generator, or
    passed the turn: undo never goes back across it (the Dice Charmers' sets_barrier)."""
    if after.is_over or after.rng != before.rng or after.turn_no != before.turn_no or after.current != before.current:
        return True
    if after.round != before.round:
        return True
    k0, backs0 = _knowledge(before)
    k1, backs1 = _knowledge(after)
    for card, who in k1.items():
        had = k0.get(card, frozenset())
        if ALL not in had and not who <= had:
            return True
    if backs0 - backs1:
        return True  # a card of the draw pile came into sight (a new top card, or the offer laid out)
    return any(a.flipped != b.flipped for a, b in zip(before.players, after.players, strict=True))
