"""`rajas arena`: every bot sits in every seat equally often, shares and intervals add up, the command speaks."""

from __future__ import annotations

import json

import pytest
from rajas.bench.arena import arena, grouped, quantile, rotations, table, wilson
from rajas.server.cli import main


def test_every_entry_of_a_lineup_sits_in_every_seat_once_over_its_rotations() -> None:
    lineup = ("expert", "greedy", "greedy", "greedy")
    seatings = rotations(lineup)
    assert len(seatings) == 4
    assert seatings[0] == lineup
    for seat in range(4):
        assert sorted(s[seat] for s in seatings) == ["expert", "greedy", "greedy", "greedy"]
    assert rotations(("a", "b")) == [("a", "b"), ("b", "a")]


def test_wilson_interval_of_known_shares() -> None:
    lo, hi = wilson(70, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.6042, 0.7811)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_interval_by_seed_is_the_mean_plus_or_minus_its_standard_errors() -> None:
    shares = [1.0, 0.5, 0.5, 1.0]  # mean 0.75, sample sd 0.2887, se 0.1443
    lo, hi = grouped(shares)
    assert lo == pytest.approx(0.75 - 1.959964 * 0.144338, abs=1e-5)
    assert hi == pytest.approx(min(1.0, 0.75 + 1.959964 * 0.144338), abs=1e-5)
    assert grouped([0.5, 0.5, 0.5]) == (0.5, 0.5)
    assert grouped([1.0]) == (0.0, 1.0)  # one seed says nothing of the spread


def test_quantiles_are_nearest_rank() -> None:
    values = [float(i) for i in range(1, 101)]
    assert quantile(values, 0.5) == 50.0
    assert quantile(values, 0.99) == 99.0
    assert quantile(values, 1.0) == 100.0
    assert quantile([], 0.5) == 0.0


def test_a_small_arena_plays_whole_rotations_and_credits_every_game() -> None:
    report = arena(["easy", "random", "random"], games=5, seed=7)
    assert report["seeds"] == 2 and report["games"] == 6  # rounded up to whole sets of 3 rotations
    bots = report["bots"]
    assert bots["easy"]["seats"] == 1 and bots["random"]["seats"] == 2
    assert bots["easy"]["wins"] + bots["random"]["wins"] == 6 + report["shared_victories"]
    for b in bots.values():
        assert 0.0 <= b["ci95"][0] <= b["share"] <= b["ci95"][1] <= 1.0
        assert b["wilson95"][0] <= b["share"] <= b["wilson95"][1]
        assert b["decision_ms"]["p50"] <= b["decision_ms"]["p99"] <= b["decision_ms"]["max"]
    assert "easy" in table(report)


def test_the_same_seed_plays_the_same_games() -> None:
    first = arena(["easy", "random"], games=4, seed=3)
    again = arena(["easy", "random"], games=4, seed=3)
    assert first["bots"]["easy"]["wins"] == again["bots"]["easy"]["wins"]
    assert first["avg_rounds"] == again["avg_rounds"]


def test_the_command_prints_json_and_refuses_a_lineup_that_does_not_fill_the_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "--bots", "random,random", "--players", "2", "--games", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["lineup"] == ["random", "random"]
    assert main(["arena", "--bots", "expert,greedy", "--players", "4", "--games", "4"]) == 2
    assert main(["arena", "--bots", "expert,nobody", "--games", "2"]) == 2
