"""Hidden information: no view, pending decision or event of any audience ever shows a dice number that
audience may not know, and what a seat sees (and its bot decides) does not change with what it cannot see."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from rajas.games.card_game.engine import BOTS, State, events_for, new_game, pending, view
from rajas.games.card_game.engine.cards import catalogue

from .games import bot_game

CAT = catalogue()


def numbers_shown(data: Any) -> list[tuple[int, int]]:
    """Every dice side shown anywhere in plain data: each {"card": c, "number": n}."""
    found: list[tuple[int, int]] = []
    if isinstance(data, dict):
        if "card" in data and "number" in data:
            found.append((data["card"], data["number"]))
        for v in data.values():
            found += numbers_shown(v)
    elif isinstance(data, list | tuple):
        for v in data:
            found += numbers_shown(v)
    return found


def known_to(g: State, audience: int | None) -> set[int]:
    """Cards whose number the audience may know in `g`: on the discard pile, or in its own hand."""
    cards = set(g.discard)
    if audience is not None:
        cards |= set(g.players[audience].hand)
    return cards


@pytest.mark.parametrize(("players", "bot"), [(2, "random"), (3, "greedy"), (4, "random")])
def test_no_audience_ever_sees_a_number_it_may_not_know(players: int, bot: str) -> None:
    audiences: list[int | None] = [*range(players), None]
    ever: dict[int | None, set[int]] = {a: set() for a in audiences}
    steps = 0
    for step in bot_game(players, f"hidden {players}", bot):
        steps += 1
        # A card discarded and shuffled back within one step was face up on the discard pile meanwhile.
        laid_open = {d["card"] for e in step.events if e["type"] == "discarded" and "to" not in e for d in e["cards"]}
        for a in audiences:
            ever[a] |= known_to(step.before, a) | known_to(step.after, a) | laid_open
            shown = [*numbers_shown(view(step.after, a)), *numbers_shown(pending(step.after, a)),
                     *numbers_shown(events_for(step.events, a))]
            for card, number in shown:
                assert card in ever[a], f"audience {a} was shown card {card}'s number at step {steps}"
                assert number == step.after.numbers[card]
            if a is None:
                assert not any("to" in e for e in events_for(step.events, a))
                assert all(isinstance(s["hand"][0], int) for s in view(step.after, a)["seats"] if s["hand"])
    assert steps > 20


def test_a_seat_is_sent_its_own_dice_and_nobody_elses() -> None:
    _, events = new_game(3, "dealt")
    for seat in range(3):
        private = [e for e in events_for(events, seat) if "to" in e]
        assert [e["to"] for e in private] == [seat]
    assert all("to" not in e for e in events_for(events, None))


def test_a_view_holds_no_secret_field() -> None:
    g, _ = new_game(4, "fields")
    text = json.dumps([view(g, 0), view(g, None), pending(g, 1), pending(g, None)])
    for secret in ("numbers", "rng", "stack"):
        assert f'"{secret}"' not in text
    assert set(view(g, 0)["draw"]) == {"count", "top"}
    assert "options" not in pending(g, (g.current + 1) % 4) and "options" not in pending(g, None)
    assert "options" in pending(g, g.current)


def hide_differently(g: State, audience: int, salt: int) -> State:
    """`g` with everything `audience` cannot see changed: the numbers of cards it does not know (swapped within
    their colour), the draw pile below its top card, the others' score tracks not yet turned, the generator."""
    known = known_to(g, audience)
    numbers = list(g.numbers)
    for colour in range(4):
        cards = [c for c in range(144) if CAT.colour[c] == colour and c not in known]
        values = [numbers[c] for c in cards]
        values = values[salt % len(values):] + values[:salt % len(values)] if values else values
        for c, v in zip(cards, values, strict=True):
            numbers[c] = v
    below = list(g.draw[1:])
    below = below[salt % max(1, len(below)):] + below[:salt % max(1, len(below))]
    players = list(g.players)
    for s, p in enumerate(players):
        hidden = [i for i in range(6) if not p.flipped[i]]
        if s != audience and len(hidden) > 1 and not g.planned_track:
            track = list(p.track)
            rewards = [track[i] for i in hidden]
            for i, r in zip(hidden, rewards[1:] + rewards[:1], strict=True):
                track[i] = r
            players[s] = replace(p, track=tuple(track))
    return replace(g, numbers=tuple(numbers), draw=(*g.draw[:1], *below), players=tuple(players), rng=g.rng + salt)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_what_a_seat_sees_and_what_its_bot_decides_do_not_depend_on_what_it_cannot_see(players: int) -> None:
    checked = 0
    for i, step in enumerate(bot_game(players, f"blind {players}", "greedy")):
        if i % 3 or step.after.is_over:
            continue
        g = step.after
        seat = g.current
        for salt in (1, 7):
            other = hide_differently(g, seat, salt)
            assert other.numbers != g.numbers or salt == 0
            for audience in (seat, None):
                assert view(other, audience) == view(g, audience)
                assert pending(other, audience) == pending(g, audience)
            for bot in ("greedy", "random"):
                assert BOTS[bot](f"x{i}")(other) == BOTS[bot](f"x{i}")(g)
        checked += 1
    assert checked > 10


def test_the_action_sides_and_colours_alone_do_not_give_a_number_away() -> None:
    """The pairing is the game's own shuffle: the same action side carries different numbers in different games."""
    seen: dict[int, set[int]] = {c: set() for c in range(144)}
    for seed in range(12):
        g, _ = new_game(2, seed)
        for c in range(144):
            seen[c].add(g.numbers[c])
    assert all(len(v) >= 3 for v in seen.values())
