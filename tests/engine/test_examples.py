"""The rulebook's worked examples, played on the Sun sheet exactly as the rulebook tells them."""

from __future__ import annotations

from rajas.games.dice_charmers.engine import standings
from rajas.games.dice_charmers.engine.tracks import overlap

from .builders import (
    BLUE_A,
    ELEPHANT,
    MASTER_BUILDER,
    PORTUGUESE,
    PURPLE_MIXED,
    PURPLE_SAME,
    SPICES,
    E,
    N,
    S,
    W,
    bonus_index,
    cell,
    decide,
    game,
    options,
    play,
    resolving,
    set_dice,
    sheet_of,
    turn_of,
    types,
)

LEILA, RAJESH = 1, 2


def leila_before_her_turn():
    """Leila's sheet as the example finds it: roads from the residence up to the well in the top row,
    the tower upgraded once, the Raja Man Singh and the Portuguese used once, the river sailed to space 2,
    and her tracks just short of crossing. The purple die on the elephant shows two spices."""
    g = game(players=3, start=0)
    turn_of(g, LEILA)
    set_dice(
        g,
        faces={BLUE_A: "flag", PURPLE_SAME: ["spices", "spices"], PURPLE_MIXED: ["tea", "silk"]},
        where={PURPLE_MIXED: 0, PURPLE_SAME: ELEPHANT},
    )
    sheet_of(
        g,
        LEILA,
        fame=18,
        money=34,
        roads={cell(2, 3): W | N, cell(1, 3): S | N, cell(0, 3): S | E},
        levels={"tower": 2},
        palace={"raja_man_singh": 1, "portuguese": 1},
        river=[0, 2],
        circled={"spices": 2},
    )
    return g


def test_leila_turn_with_several_bonuses():
    """Leila takes a blue die and sails to the flag, where she gets a fork and uses it at once; it reaches
    the Master Builder and the goods die at the edge and erects the tower (2 fame: upgraded once). She then
    takes 2 spices from the elephant's purple die, crosses out the Master Builder (which completes the first
    column of the lower palace area: another goods die), lays one half-road towards the temple and one onto
    the edge bonus 'river forward', sails on to the 4 coins, and takes 2 more spices. Her tracks cross: the
    game will end."""
    g = leila_before_her_turn()
    g, ev = play(g, decide("die", BLUE_A))
    assert g.players[LEILA].river_position == 3, "she sails to the next flag"
    assert g.stack[-1][0] == "road", "the flag space's fork is used at once"

    fork = decide("road", cell(0, 4), W | N | E)
    assert fork in options(g, "road")
    assert all(bin(d.args[1]).count("1") == 3 for d in options(g, "road")), "a fork, nothing else"
    g, ev = play(g, fork)
    leila = g.players[LEILA]
    assert leila.fame == 20, "the tower gives 2 fame: it was upgraded once"
    assert sorted(g.pool) == sorted([("palace", MASTER_BUILDER), ("goods_die",)]), "both edge bonuses circled"

    g, ev = play(g, decide("goods_die", PURPLE_SAME, bonus=bonus_index(g, ("goods_die",))))
    assert g.players[LEILA].circled[SPICES] == 4, "2 spices from the die on the elephant"
    # The Master Builder is now the only pending bonus and needs no choice to start: it is crossed out,
    # completing the lower palace area's first column, and its two half-roads are to be placed.
    assert g.players[LEILA].palace[MASTER_BUILDER] == 1
    assert ("goods_die",) in g.pool, "the palace column bonus"
    assert g.stack[-1] == ("half_roads", 2)

    g, ev = play(g, decide("half_road", cell(1, 3), W))
    assert g.players[LEILA].roads[cell(1, 3)] == S | N | W, "a fork pointing to the temple"
    assert g.players[LEILA].fame == 20, "a half-road pays nothing again"
    g, ev = play(g, decide("half_road", cell(0, 3), N))
    assert ("river_forward",) in g.pool

    g, ev = play(g, decide("use", bonus=bonus_index(g, ("river_forward",))))
    assert g.players[LEILA].river_position == 4
    assert g.players[LEILA].money == 38, "the 4 coins of the next river space"

    g, ev = play(g, decide("goods_die", PURPLE_SAME, bonus=bonus_index(g, ("goods_die",))))
    leila = g.players[LEILA]
    assert leila.circled[SPICES] == 6
    assert "game_end_triggered" in types(ev), "her tracks now cross"
    assert overlap(g.sheet, leila.fame, leila.money) >= 0
    assert g.current != LEILA and not g.is_over, "the round is still completed"


def test_rajesh_portuguese_skips_the_marked_space():
    """Rajesh uses the Portuguese. He may mark one of the two nearest unmarked spaces left of his position:
    'sell 2 goods of choice' or '4 money'; the palace action between them was used before. He takes the 4
    money; his position stays where it was."""
    g = game(players=3, start=0)
    sheet_of(g, RAJESH, river=[0, 1, 2, 3, 4, 6, 8], money=10)
    resolving(g, RAJESH, ("palace", PORTUGUESE))
    assert g.players[RAJESH].palace[PORTUGUESE] == 1, "crossed out first"
    river_choices = options(g, "river")
    assert river_choices == [decide("river", 7), decide("river", 5)]
    assert g.sheet.river_reward[7] == (("money", 4),)
    assert g.sheet.river_reward[5] == (("sell", "any", 2, 2),), "sell exactly 2 goods of choice"
    assert g.sheet.river_reward[6][0][0] == "palace_any", "the skipped space holds a palace action"
    assert options(g, "goods"), "a good of his choice instead"

    g, _ = play(g, decide("river", 7))
    rajesh = g.players[RAJESH]
    assert rajesh.money == 14
    assert rajesh.river_position == 8, "the position is still the rightmost marked space"


def test_leila_sells_at_a_newly_opened_market():
    """Leila draws a road and opens a market where she may sell up to 3 different goods. She crosses out
    the leftmost circled tea, silk and spices and receives 5 money (1 each for tea and silk, 3 for spices)."""
    g = game(players=3, start=0)
    market = cell(1, 3)
    assert g.sheet.cell_market[market] == "different"
    sheet_of(
        g,
        LEILA,
        roads={cell(2, 3): W | N},
        circled={"tea": 1, "silk": 1, "spices": 5},
        sold={"spices": 3},
    )
    resolving(g, LEILA, ("road", 1))  # a straight
    g, _ = play(g, decide("road", market, N | S))
    assert decide("sell", 1, 1, 1) in options(g, "sell")
    assert decide("sell", 0, 0, 0) in options(g, "sell"), "selling is allowed, not required"
    g, ev = play(g, decide("sell", 1, 1, 1))
    sale = next(e for e in ev if e["type"] == "goods_sold")
    assert [g.sheet.prices[0], g.sheet.prices[0], g.sheet.prices[3]] == [1, 1, 3], "the coins below the columns"
    assert sale["money"] == 5
    assert g.players[LEILA].sold == (1, 1, 4)


def test_scoring_example_leila_wins_by_half_a_point():
    """Rajesh has 21 fame and 40 money: his tracks passed each other by 2. Leila has 16 fame and 49 money:
    2.5. So Leila wins by half a point (1 money)."""
    for name in ("sun", "moon"):
        g = game(players=2, sheet=name)
        sheet_of(g, 0, fame=21, money=40)
        sheet_of(g, 1, fame=16, money=49)
        assert overlap(g.sheet, 21, 40) == 2
        assert overlap(g.sheet, 16, 49) == 2.5
        assert overlap(g.sheet, 16, 48) == 2, "one money less would have tied"
        result = standings(g)
        assert [r["seat"] for r in result] == [1, 0]
        assert result[0]["winner"] and not result[1]["winner"]


def test_tie_break_example_more_karma_used_wins():
    """Rajesh has collected 5 karma. Leila has also collected 5, but she has used 3 of them, so she wins."""
    g = game(players=2)
    sheet_of(g, 0, fame=21, money=40, karma_gained=5, karma_used=1)
    sheet_of(g, 1, fame=21, money=40, karma_gained=5, karma_used=3)
    result = standings(g)
    assert [r["seat"] for r in result] == [1, 0]
    assert result[0]["ahead_by"] == "karma_used"


def test_tie_on_everything_shares_the_victory():
    g = game(players=3)
    for seat in range(3):
        sheet_of(g, seat, fame=20, money=40, karma_gained=4, karma_used=2)
    sheet_of(g, 2, money=38)
    result = standings(g)
    assert [r["winner"] for r in result] == [True, True, False]
    assert result[0]["rank"] == result[1]["rank"] == 1


def test_every_bonus_kind_of_the_rulebook_is_on_both_sheets():
    """Nothing on the sheet is filler, and every bonus the rulebook explains appears somewhere."""
    from rajas.games.dice_charmers.engine import load_sheet

    rulebook = {
        "fame", "money", "karma", "palace", "palace_any", "upgrade", "goods_die", "goods_choice",
        "sell:any", "sell:same_or_different", "sell:different", "half_road", "road",
        "river_forward", "river_back", "river_back_choice",
    }  # fmt: skip
    for name in ("sun", "moon"):
        s = load_sheet(name)
        effects = (
            [b for b in s.edge_bonus if b]
            + [e for _, e in s.fame_bonuses + s.money_bonuses + s.karma_bonuses]
            + [e for reward in s.river_reward for e in reward]
            + [e for tents in s.tents for _, e in tents]
            + [e for _, column in s.areas for e in column]
            + list(s.upgrade_bonuses)
        )
        kinds = {f"sell:{e[1]}" if e[0] == "sell" else e[0] for e in effects}
        assert rulebook <= kinds, f"{name} lacks {rulebook - kinds}"
