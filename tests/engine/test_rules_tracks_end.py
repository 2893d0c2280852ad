"""Fame and money tracks, their bonuses, the crossing, the end of the game and the standings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions, load_sheet, overlap, standings
from rajas.games.dice_charmers.engine.tracks import has_crossed

from .builders import carry_out, game, sheet_of, types

SHEETS = ("sun", "moon")


def test_landing_on_a_fame_bonus_releases_it() -> None:
    """"Whenever you land on or pass a space that shows a bonus, you receive this bonus immediately." """
    g = game()
    at, bonus = g.sheet.fame_bonuses[0]
    sheet_of(g, 0, fame=at - 1)

    events = carry_out(g, 0, ("fame", 1))

    assert {"type": "bonus_released", "player": 0, "bonus": list(bonus), "source": f"fame track {at}"} in events


def test_passing_a_fame_bonus_releases_it() -> None:
    g = game()
    at, _bonus = g.sheet.fame_bonuses[0]
    sheet_of(g, 0, fame=at - 1)

    events = carry_out(g, 0, ("fame", 3))

    assert [e["source"] for e in events if e["type"] == "bonus_released"][:1] == [f"fame track {at}"]


def test_a_fame_bonus_already_reached_is_not_released_again() -> None:
    g = game()
    at, _ = g.sheet.fame_bonuses[0]
    sheet_of(g, 0, fame=at)
    events = carry_out(g, 0, ("fame", 1))
    assert "bonus_released" not in types(events)


def test_passing_two_money_bonuses_at_once_releases_both() -> None:
    g = game()
    (a, _bonus_a), (b, _bonus_b) = g.sheet.money_bonuses[:2]
    sheet_of(g, 0, money=a - 1)

    events = carry_out(g, 0, ("money", b - a + 1))

    released = [e["source"] for e in events if e["type"] == "bonus_released"]
    assert released[:2] == [f"money track {a}", f"money track {b}"]


def test_landing_on_a_money_bonus_releases_it() -> None:
    g = game()
    at, bonus = g.sheet.money_bonuses[1]
    sheet_of(g, 0, money=at - 1)
    events = carry_out(g, 0, ("money", 1))
    assert [e["bonus"] for e in events if e["type"] == "bonus_released"][:1] == [list(bonus)]


@pytest.mark.parametrize("sheet", SHEETS)
def test_rulebook_scoring_example_holds(sheet: str) -> None:
    """"Rajesh heeft 21 roempunten en 40 geld verzameld - de sporen zijn elkaar 2 punten gepasseerd. Leila
    heeft 16 roempunten en 49 geld verzameld - dus die sporen zijn elkaar 2,5 punt gepasseerd. Dus Leila wint
    met een halve punt voorsprong het spel (dus met 1 geld)." """
    s = load_sheet(sheet)
    assert overlap(s, 21, 40) == 2
    assert overlap(s, 16, 49) == Fraction(5, 2)
    assert overlap(s, 16, 48) == 2  # one money less: half a point less


@pytest.mark.parametrize("sheet", SHEETS)
def test_tracks_intersect_when_both_entries_reach_the_same_space(sheet: str) -> None:
    """Decision 27: overlap 0 counts as intersecting."""
    g = game(sheet=sheet)
    s = g.sheet
    i = len(s.fame_values) // 2
    j = s.track_length - i
    sheet_of(g, 0, fame=s.fame_values[i], money=s.money_values[j])
    assert overlap(s, s.fame_values[i], s.money_values[j]) == 0
    assert has_crossed(s, g.players[0])

    sheet_of(g, 0, money=s.money_values[j] - 1)
    assert not has_crossed(s, g.players[0])


@pytest.mark.parametrize("sheet", SHEETS)
def test_crossing_test_agrees_with_overlap_everywhere(sheet: str) -> None:
    g = game(sheet=sheet)
    s = g.sheet
    p = g.players[0]
    for fame in range(0, s.fame_values[-1] + 3, 3):
        for money in range(0, s.money_values[-1] + 3, 2):
            p.fame, p.money = fame, money
            assert has_crossed(s, p) == (overlap(s, fame, money) >= 0), (fame, money)


def _take_dice_until(g: GameState, turn: int, rnd: int) -> tuple[GameState, list[dict[str, object]]]:
    """Plays simple decisions until the given turn of the given round starts, or the game ends."""
    events: list[dict[str, object]] = []
    while not g.is_over and (g.round, g.turn) != (rnd, turn):
        opts = legal_decisions(g)
        d = next((x for x in opts if x.kind == "die"), next((x for x in opts if x.kind != "karma"), opts[0]))
        g, ev = apply(g, d)
        events.extend(ev)
    return g, events


def test_crossing_ends_the_game_after_the_round_is_completed() -> None:
    """"The game ends as soon as one player's entries on his money and fame track intersect. The round is
    still completed, so that all players have had the same number of turns." """
    g = game(4, start=1)
    sheet_of(g, 2, fame=21, money=40)

    g2, events = _take_dice_until(g, 99, 99)

    triggered = [e for e in events if e["type"] == "game_end_triggered"]
    assert triggered and triggered[0]["player"] == 2
    assert g2.is_over and g2.round == 1
    seats = [e["player"] for e in events if e["type"] == "turn_ended"]
    assert seats == [1, 2, 3, 0]
    assert "round_ended" not in types(events)


def test_the_game_is_not_over_before_anybody_crosses() -> None:
    g = game(3, start=0)
    g2, events = _take_dice_until(g, 0, 2)
    assert not g2.is_over and "game_end_triggered" not in types(events)


def _standings(fame_money_karma: list[tuple[int, int, int, int]]) -> list[dict[str, object]]:
    g = game(len(fame_money_karma))
    for seat, (fame, money, gained, used) in enumerate(fame_money_karma):
        sheet_of(g, seat, fame=fame, money=money, karma_gained=gained, karma_used=used)
    return standings(g)


def test_the_player_whose_tracks_exceed_the_intersection_most_wins() -> None:
    """"the player whose tracks exceed the intersection point the most wins." """
    rows = _standings([(21, 40, 1, 0), (16, 49, 1, 0), (5, 5, 6, 6)])
    assert [r["seat"] for r in rows] == [1, 0, 2]
    assert [r["winner"] for r in rows] == [True, False, False]
    assert rows[0]["overlap"] == 2.5 and rows[0]["ahead_by"] == "overlap"
    assert rows[2]["crossed"] is False and rows[2]["overlap"] < 0


def test_a_tie_goes_to_the_player_with_more_karma_circled() -> None:
    """"In case of a tie, the player who has collected (i.e., has circled) more karma wins." """
    rows = _standings([(21, 40, 4, 0), (21, 40, 5, 0)])
    assert [r["seat"] for r in rows] == [1, 0]
    assert rows[0]["winner"] and not rows[1]["winner"]
    assert rows[0]["ahead_by"] == "karma_gained"


def test_then_to_the_player_who_used_more_karma() -> None:
    """"If players have collected the same amount of karma, the tied player who has used (i.e., crossed
    out) more karma wins." (Rajesh 5 karma, Leila 5 karma of which 3 used: Leila wins.)"""
    rows = _standings([(21, 40, 5, 0), (21, 40, 5, 3)])
    assert [r["seat"] for r in rows] == [1, 0]
    assert rows[0]["ahead_by"] == "karma_used"


def test_then_the_tied_players_share_the_victory() -> None:
    """"If there is still a tie, the tied players share the victory." """
    rows = _standings([(21, 40, 3, 1), (21, 40, 3, 1), (16, 44, 3, 1)])
    assert [r["winner"] for r in rows] == [True, True, False]
    assert [r["rank"] for r in rows] == [1, 1, 3]
    assert rows[0]["ahead_by"] == "shared"


def test_the_result_is_part_of_the_final_state() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, fame=21, money=40)
    g2, events = _take_dice_until(g, 99, 99)
    assert g2.result is not None
    assert next(e for e in events if e["type"] == "game_over")["result"] == list(g2.result)
    assert g2.result[0]["seat"] == 0 and g2.result[0]["winner"]
