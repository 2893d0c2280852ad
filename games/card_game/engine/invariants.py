"""Facts that hold in every reachable state; the simulator and the tests check them after every decision."""

from __future__ import annotations

from collections import Counter

from .cards import COLOURS, catalogue
from .state import PHASE_OVER, PHASE_PLAN, TRACK_CARDS, State


class InvariantBroken(AssertionError):
    pass


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise InvariantBroken(message)


def check_state(g: State) -> None:
    cat = catalogue()
    _check(2 <= g.n <= 4 and len(g.players) == g.n, "players")
    # Every card is somewhere, exactly once.
    places = [*g.draw, *g.discard, *g.offer, *g.in_play]
    for p in g.players:
        places += [*p.hand, *p.buildings, *p.goods, *p.ships]
    _check(sorted(places) == list(range(len(cat.kind))), "the 144 cards are not each in one place exactly once")
    # The dice sides: each colour's numbers 1-6, each on as many cards.
    counts = Counter((cat.colour[c], g.numbers[c]) for c in range(len(cat.kind)))
    _check(all(counts[(col, n)] == cat.dice_per_number for col in range(len(COLOURS)) for n in range(1, 7)),
           "the dice sides are not the card list's")
    _check(g.managers_supply + sum(p.managers for p in g.players) == cat.managers, "managers are not conserved")
    for seat, p in enumerate(g.players):
        who = f"seat {seat}"
        _check(len(p.hand) <= cat.hand_limit, f"{who}: more than {cat.hand_limit} dice in hand")
        numbers = [cat.ship_number[c] for c in p.ships]
        _check(numbers == sorted(numbers) and len(set(numbers)) == len(numbers), f"{who}: ships not rising")
        _check(all(cat.kind[c] == "ship" for c in p.ships), f"{who}: a card in the ship row is no ship")
        _check(all(cat.kind[c] == "building" for c in p.buildings), f"{who}: a non-building in the building row")
        _check(all(cat.kind[c] == "goods" for c in p.goods), f"{who}: a non-goods card in the goods row")
        _check(0 <= p.karma <= 2 and 0 <= p.managers <= 2, f"{who}: a third karma chip or manager was kept")
        _check(p.fame >= 0 and p.coins >= 0, f"{who}: negative fame or coins")
        if not all(p.flipped):
            _check(p.fame < 3 and p.coins < 6, f"{who}: fame or coins not turned into a score-track card")
        _check(sum(p.flipped) == p.fame_flips + p.coin_flips, f"{who}: turned cards do not add up")
        _check(p.fame == sum(p.fame_from) - 3 * p.fame_flips, f"{who}: fame sources do not add up")
        _check(p.coins == sum(p.coins_from) - 6 * p.coin_flips, f"{who}: coin sources do not add up")
        if g.phase != PHASE_PLAN:
            _check(sorted(p.track) == list(range(TRACK_CARDS)), f"{who}: the score track is not six rewards")
    if g.phase == PHASE_OVER:
        _check(g.result is not None and not g.stack, "finished game without result, or with effects left")
