"""Property tests: random players choosing among legal decisions, 2-5 players, both sheets."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rajas.games.dice_charmers.engine import (
    Decision,
    GameState,
    apply,
    legal_decisions,
    load_sheet,
    new_game,
    pending,
    to_move,
)
from rajas.games.dice_charmers.engine.invariants import check_state

MAX_ROUNDS = 40

players = st.integers(min_value=2, max_value=5)
sheets = st.sampled_from(["sun", "moon"])
seeds = st.integers(min_value=0, max_value=2**32)


def play_random(
    n: int, sheet: str, seed: int, each_state: Any = None
) -> tuple[GameState, list[Decision], list[dict[str, Any]]]:
    """A whole game of random players (seeded), checking the invariants after every decision."""
    g, events = new_game(n, seed, load_sheet(sheet))
    check_state(g)
    rng = random.Random(seed)
    decisions: list[Decision] = []
    while not g.is_over:
        assert g.round <= MAX_ROUNDS, "the game should end within 40 rounds"
        opts = legal_decisions(g)
        assert opts, "a game that is not over always has a decision to take"
        assert to_move(g) == g.current == pending(g)["player"]
        if each_state is not None:
            each_state(g, rng)
        d = rng.choice(opts)
        g, ev = apply(g, d)
        check_state(g)
        decisions.append(d)
        events.extend(ev)
    return g, decisions, events


@settings(max_examples=25, deadline=None, database=None)
@given(n=players, sheet=sheets, seed=seeds)
def test_random_games_end_within_forty_rounds_with_invariants_holding(n: int, sheet: str, seed: int) -> None:
    g, _, events = play_random(n, sheet, seed)

    assert g.is_over and g.result is not None
    assert sorted(r["seat"] for r in g.result) == list(range(n))
    assert any(r["crossed"] for r in g.result)
    assert sum(1 for e in events if e["type"] == "game_over") == 1
    assert legal_decisions(g) == []


@settings(max_examples=15, deadline=None, database=None)
@given(n=players, sheet=sheets, seed=seeds)
def test_scores_never_go_down(n: int, sheet: str, seed: int) -> None:
    g, _ = new_game(n, seed, load_sheet(sheet))
    rng = random.Random(seed)
    while not g.is_over:
        prev = [(p.fame, p.money, p.karma_gained, p.karma_used) for p in g.players]
        g, _ = apply(g, rng.choice(legal_decisions(g)))
        now = [(p.fame, p.money, p.karma_gained, p.karma_used) for p in g.players]
        assert all(b >= a for old, new in zip(prev, now, strict=True) for a, b in zip(old, new, strict=True))


@settings(max_examples=10, deadline=None, database=None)
@given(n=players, sheet=sheets, seed=seeds)
def test_every_legal_decision_applies_without_error(n: int, sheet: str, seed: int) -> None:
    def try_all(g: GameState, rng: random.Random) -> None:
        if rng.random() < 0.25:
            before = g.to_dict()
            for d in legal_decisions(g):
                g2, _ = apply(g, d)
                check_state(g2)
            assert g.to_dict() == before

    play_random(n, sheet, seed, try_all)


@settings(max_examples=10, deadline=None, database=None)
@given(n=players, sheet=sheets, seed=seeds)
def test_serialisation_round_trips_at_random_points(n: int, sheet: str, seed: int) -> None:
    def reload(g: GameState, rng: random.Random) -> None:
        if rng.random() < 0.2:
            r = GameState.from_dict(g.to_dict(), g.sheet)
            assert r.to_dict() == g.to_dict()
            assert legal_decisions(r) == legal_decisions(g)
            d = rng.choice(legal_decisions(g))
            (a, ea), (b, eb) = apply(g, d), apply(r, d)
            assert ea == eb and a.to_dict() == b.to_dict()

    play_random(n, sheet, seed, reload)


@settings(max_examples=10, deadline=None, database=None)
@given(n=players, sheet=sheets, seed=seeds)
def test_replaying_the_seed_and_decisions_reproduces_the_game(n: int, sheet: str, seed: int) -> None:
    g, decisions, events = play_random(n, sheet, seed)

    r, replay_events = new_game(n, seed, load_sheet(sheet))
    for d in decisions:
        r, ev = apply(r, d)
        replay_events.extend(ev)

    assert replay_events == events
    assert r.to_dict() == g.to_dict()


@settings(max_examples=10, deadline=None, database=None)
@given(n=players, sheet=sheets, seed=seeds)
def test_each_seat_takes_at_most_one_die_per_turn_and_the_elephant_holds_the_start_players_twin(
    n: int, sheet: str, seed: int
) -> None:
    _, _, events = play_random(n, sheet, seed)
    s = load_sheet(sheet)
    picks_this_turn = 0
    first_pick: int | None = None
    for e in events:
        if e["type"] == "turn_started":
            picks_this_turn = 0
        elif e["type"] in ("die_picked", "die_kept"):
            picks_this_turn += 1
            assert picks_this_turn == 1
            if e["type"] == "die_picked" and first_pick is None:
                first_pick = e["die"]
        elif e["type"] == "elephant_loaded":
            assert first_pick is not None and e["die"] == s.die_twin[first_pick]
        elif e["type"] == "round_started":
            first_pick = None
