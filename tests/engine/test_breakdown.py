"""Where fame and money came from: every gain names its source, and the final result sums them per player."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions, load_sheet, new_game
from rajas.games.dice_charmers.engine.effects import SOURCES
from rajas.games.dice_charmers.engine.state import PlayerState

from .builders import (
    BLUE_A,
    RAJA_MAN_SINGH,
    E,
    N,
    S,
    W,
    carry_out,
    cell,
    decide,
    game,
    play,
    resolving,
    set_dice,
    sheet_of,
    turn_of,
)


def gains(events: list[dict[str, Any]], track: str) -> list[tuple[int, str]]:
    return [(e["amount"], e["source"]) for e in events if e["type"] == track]


def test_an_erected_building_gives_fame_from_building() -> None:
    g = game()
    fort = cell(2, 1)
    sheet_of(g, 0, levels={"fort": 2})
    resolving(g, 0, ("road", 1))  # a straight

    g, events = play(g, decide("road", fort, E | W))

    assert gains(events, "fame")[0] == (2, "building")
    assert g.players[0].fame_from[SOURCES.index("building")] == 2


def test_goods_sold_at_a_market_give_money_from_market() -> None:
    g = game(players=3, start=0)
    market = cell(1, 3)
    sheet_of(g, 1, roads={cell(2, 3): W | N}, circled={"tea": 1, "silk": 1, "spices": 5}, sold={"spices": 3})
    resolving(g, 1, ("road", 1))
    g, _ = play(g, decide("road", market, N | S))

    g, events = play(g, decide("sell", 1, 1, 1))

    assert gains(events, "money") == [(5, "market")]


def test_a_river_reward_gives_money_from_river() -> None:
    g = game()
    sym = g.sheet.symbols.index("lotus")
    lotus = next(i for i, s in enumerate(g.sheet.river_symbol) if s == sym)
    amount = g.sheet.river_reward[lotus][0][1]
    turn_of(g, 0)
    set_dice(g, {BLUE_A: "lotus"})

    g, events = apply(g, decide("die", BLUE_A))

    assert gains(events, "money") == [(amount, "river")]


def test_raja_man_singh_gives_money_from_the_palace() -> None:
    g = game()
    events = carry_out(g, 0, ("palace", RAJA_MAN_SINGH))
    assert gains(events, "money") == [(1, "palace")]


def test_a_bonus_of_the_money_track_is_counted_as_track_bonus() -> None:
    g = game()
    at, bonus = next((at, b) for at, b in g.sheet.money_bonuses if b[0] in ("fame", "money"))
    sheet_of(g, 0, money=at - 1)

    events = carry_out(g, 0, ("money", 1))

    assert (bonus[1], "track_bonus") in gains(events, bonus[0])
    assert gains(events, "money")[0] == (1, "bonus"), "an effect put on the stack by hand has no source"


def play_random(n: int, sheet: str, seed: int) -> tuple[GameState, list[dict[str, Any]]]:
    g, events = new_game(n, seed, load_sheet(sheet))
    rng = random.Random(seed)
    while not g.is_over:
        g, ev = apply(g, rng.choice(legal_decisions(g)))
        events.extend(ev)
    return g, events


@pytest.mark.parametrize("sheet", ["sun", "moon"])
@pytest.mark.parametrize("n,seed", [(2, 11), (3, 12), (4, 13), (5, 14)])
def test_the_sources_add_up_to_each_players_fame_and_money(sheet: str, n: int, seed: int) -> None:
    g, events = play_random(n, sheet, seed)
    assert g.result is not None
    for row in g.result:
        p = g.players[row["seat"]]
        assert sum(row["fame_by_source"].values()) == row["fame"] == p.fame
        assert sum(row["money_by_source"].values()) == row["money"] == p.money
        for track in ("fame", "money"):
            mine = [e for e in events if e["type"] == track and e["player"] == row["seat"]]
            summed: dict[str, int] = {}
            for e in mine:
                summed[e["source"]] = summed.get(e["source"], 0) + e["amount"]
            assert summed == row[f"{track}_by_source"], "the result is the sum of the events"
            assert set(summed) <= set(SOURCES) - {"bonus"}, "every gain of a real game names where it came from"


def test_the_breakdown_survives_the_round_trip_of_the_state() -> None:
    g, _ = play_random(3, "sun", 5)
    for p in g.players:
        q = PlayerState.from_dict(p.to_dict())
        assert (q.fame_from, q.money_from) == (p.fame_from, p.money_from)


def test_a_state_saved_without_a_breakdown_counts_its_fame_and_money_as_bonus() -> None:
    d = game().players[0].to_dict()
    d.pop("fame_by_source")
    d.pop("money_by_source")
    d["fame"], d["money"] = 7, 9
    q = PlayerState.from_dict(d)
    assert q.fame_from[SOURCES.index("bonus")] == 7 and sum(q.fame_from) == 7
    assert q.money_from[SOURCES.index("bonus")] == 9 and sum(q.money_from) == 9
