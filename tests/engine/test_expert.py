"""The expert bot: legal, deterministic, blind to the hidden dice, finds a clearly best line, keeps its time cap;
and the levels the server offers."""

from __future__ import annotations

import time

from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions, new_game
from rajas.games.dice_charmers.engine.bots import BOTS, LEVELS, greedy_bot, level_bot, random_bot
from rajas.games.dice_charmers.engine.effects import SOURCES
from rajas.games.dice_charmers.engine.expert import decide, expert_bot, hint
from rajas.games.dice_charmers.engine.state import PHASE_REROLL

from .builders import (
    BLUE_A,
    BLUE_B,
    ELEPHANT,
    GREEN_A,
    GREEN_B,
    ORANGE_A,
    ORANGE_B,
    PURPLE_MIXED,
    PURPLE_SAME,
    E,
    N,
    S,
    W,
    cell,
    game,
    set_dice,
    sheet_of,
    turn_of,
)

SMALL = 400  # effort for tests: a few hundred engine decisions a search, enough to play sensibly


def _states(players: int, seed: str, count: int) -> list[GameState]:
    """States of a game random bots play, every few decisions, pick, reroll and resolve phases alike."""
    g, _ = new_game(players, seed)
    bot = random_bot(seed)
    out: list[GameState] = []
    step = 0
    while not g.is_over and len(out) < count:
        if step % 3 == 0 and len(legal_decisions(g)) > 1:
            out.append(g)
        g, _ = apply(g, bot(g))
        step += 1
    return out


def _karma_pick() -> GameState:
    """Seat 0 picks with karma to spend (the start player's die gone, its twin on the elephant) and a sheet that
    gives every die much to do: goods, roads, palace characters crossed out. A search of a few thousand
    decisions when free."""
    g = game(2, seed=5, start=1)
    set_dice(g, where={PURPLE_SAME: 1, PURPLE_MIXED: ELEPHANT})
    turn_of(g, 0)
    sheet_of(
        g,
        0,
        karma_gained=4,
        circled={"tea": 4, "silk": 3, "spices": 3},
        sold={"tea": 1},
        money=8,
        fame=6,
        roads={cell(2, 3): W | N | E, cell(1, 2): S | N},
        palace={"great_mogul": 1, "trader": 1},
    )
    return g


def test_the_expert_only_ever_returns_legal_decisions() -> None:
    g, _ = new_game(2, "legal")
    bots = [expert_bot("e", effort=SMALL), greedy_bot("g")]
    for _ in range(60):
        if g.is_over:
            break
        d = bots[g.current](g)
        assert d in legal_decisions(g)
        g, _ = apply(g, d)
    for s in _states(3, "legal-3", 12):
        assert decide(s, "e", effort=SMALL).decision in legal_decisions(s)


def test_the_expert_decides_in_a_karma_reroll() -> None:
    g = _karma_pick()
    karma = next(d for d in legal_decisions(g) if d.kind == "karma")
    rolled, _ = apply(g, karma)
    assert rolled.phase == PHASE_REROLL
    assert decide(rolled, "e", effort=SMALL).decision in legal_decisions(rolled)


def test_the_same_state_and_seed_give_the_same_decision() -> None:
    for s in [*_states(2, "same", 8), _karma_pick()]:
        first = expert_bot("seed-a", effort=SMALL)(s)
        assert expert_bot("seed-a", effort=SMALL)(s) == first
        bot = expert_bot("seed-a", effort=SMALL)
        assert [bot(s), bot(s)] == [first, first]  # nothing carried from one call to the next
        assert hint(s, s.current, effort=SMALL) == hint(s, s.current, effort=SMALL)


def test_the_hidden_future_cannot_change_the_decision() -> None:
    for s in [*_states(2, "future", 8), _karma_pick()]:
        other = s.copy()
        other.rng = s.rng ^ (0x5EED << 70)  # another dice generator: other future rolls, nothing else
        assert decide(other, "e", effort=SMALL) == decide(s, "e", effort=SMALL)


def test_a_sale_of_three_goods_at_a_market_is_found() -> None:
    """Seat 0 holds one of each good, each to sell for 4 coins; a straight road can open the market of
    different goods the roads point at. A purple die and a blue die are the other choices."""
    g = game(2, seed=3, start=1)
    turn_of(g, 0)
    taken = {PURPLE_SAME: 1, GREEN_B: ELEPHANT, BLUE_B: 1, ORANGE_A: 1, ORANGE_B: 1}
    set_dice(g, {GREEN_A: "straight", PURPLE_MIXED: ["tea", "silk"], BLUE_A: "lotus"}, where=taken)
    market = cell(1, 3)
    sheet_of(
        g,
        0,
        circled={"tea": 6, "silk": 6, "spices": 6},
        sold={"tea": 5, "silk": 5, "spices": 5},
        roads={cell(2, 3): W | N},
        karma_used=1,
    )
    assert g.sheet.cell_market[market] == "different"
    market_before = g.players[0].money_from[SOURCES.index("market")]
    bot = expert_bot("best", effort=SMALL)
    first = bot(g)
    assert first.kind == "die" and first.args == (GREEN_A,)
    turn = g.turn
    roads = []
    while not g.is_over and g.current == 0 and g.turn == turn:
        d = bot(g)
        roads += [d.args] if d.kind == "road" else []
        g, _ = apply(g, d)
    assert roads[0] == (market, N | S)
    # All three sold there, for 4 coins each (the bonuses that sale releases may sell more).
    assert min(g.players[0].sold) >= 6
    assert g.players[0].money_from[SOURCES.index("market")] - market_before >= 12


def test_the_last_karma_is_spent_when_no_die_can_be_used() -> None:
    """Seat 0 has one karma; the only die in the middle shows a character crossed out three times already: a
    reroll of it and the elephant's die promises an action, passing promises nothing."""
    g = game(2, seed=8, start=1)
    in_depots = {d: 1 for d in (PURPLE_SAME, PURPLE_MIXED, GREEN_A, GREEN_B, BLUE_A, BLUE_B)}
    set_dice(g, {ORANGE_A: "great_mogul"}, where={**in_depots, ORANGE_B: ELEPHANT})
    turn_of(g, 0)
    sheet_of(g, 0, palace={"great_mogul": 3}, karma_gained=1)
    assert {d.kind for d in legal_decisions(g)} == {"pass", "karma"}
    assert expert_bot("k", effort=SMALL)(g).kind == "karma"


class TickingClock:
    """A clock that moves on by `tick` seconds each time it is read: time a test can count on."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


def test_the_time_cap_stops_the_search_and_still_gives_a_legal_decision() -> None:
    g = _karma_pick()
    free = decide(g, "cap", effort=100_000)
    assert not free.capped
    assert free.searched > 1000
    clock = TickingClock(0.001)
    capped = decide(g, "cap", effort=100_000, budget=0.1, clock=clock)
    assert capped.capped
    assert capped.decision in legal_decisions(g)
    assert clock.now <= 0.1 + 0.002  # no reading of the clock after the cap was reached...
    # ...and what is left after it is valued without searching: a small part of the whole search.
    assert capped.searched < free.searched / 2


def test_the_time_cap_holds_on_a_real_clock() -> None:
    g = _karma_pick()
    started = time.perf_counter()
    choice = decide(g, "cap", effort=1_000_000, budget=0.05, clock=time.perf_counter)
    assert choice.decision in legal_decisions(g)
    assert time.perf_counter() - started < 0.05 + 0.5  # finishing off after the cap takes little


def test_without_a_clock_the_budget_changes_nothing() -> None:
    g = _karma_pick()
    assert decide(g, "x", effort=SMALL, budget=0.0) == decide(g, "x", effort=SMALL)


def test_a_hint_is_the_decision_for_the_seat_to_move_only() -> None:
    g = _karma_pick()
    assert hint(g, 1) is None
    advice = hint(g, 0, effort=SMALL)
    assert advice in legal_decisions(g)


def test_the_levels_and_the_old_bot_names_all_play() -> None:
    assert LEVELS == ("easy", "normal", "expert")
    assert {"random", "greedy", "easy", "normal", "expert"} <= set(BOTS)
    assert BOTS["normal"] is BOTS["greedy"]
    g = _karma_pick()
    for level in LEVELS:
        assert level_bot(level, "s", budget=0.5, clock=time.perf_counter)(g) in legal_decisions(g)
