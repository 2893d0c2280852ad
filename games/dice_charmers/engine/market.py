"""Goods: circling them in the market area, and selling them left to right for the column's coin."""

from __future__ import annotations

from itertools import combinations, product

from .state import GameState, replaced
from .tracks import Event, gain_money, release

Counts = tuple[int, int, int]
NOTHING: Counts = (0, 0, 0)
# One good of each kind in a combination of kinds, e.g. (0, 2) -> (1, 0, 1).
_ONE_EACH: dict[tuple[int, ...], Counts] = {
    combo: (int(0 in combo), int(1 in combo), int(2 in combo))
    for k in range(1, 4)
    for combo in combinations(range(3), k)
}


def room(g: GameState, good: int) -> int:
    return len(g.sheet.prices) - g.players[g.current].circled[good]


def gain_goods(g: GameState, counts: Counts, events: list[Event]) -> Counts:
    """Circles the leftmost free goods; a full row takes no more of its kind."""
    p = g.players[g.current]
    cap = len(g.sheet.prices)
    got = []
    for good, n in enumerate(counts):
        take = min(n, cap - p.circled[good])
        p.circled = replaced(p.circled, good, p.circled[good] + take)
        got.append(take)
    result: Counts = (got[0], got[1], got[2])
    events.append({"type": "goods_gained", "player": g.current, "goods": list(result), "wanted": list(counts)})
    return result


def can_gain_any(g: GameState, counts: Counts) -> bool:
    cap = len(g.sheet.prices)
    circled = g.players[g.current].circled
    return (counts[0] > 0 and circled[0] < cap) or (counts[1] > 0 and circled[1] < cap) or (
        counts[2] > 0 and circled[2] < cap
    )


def choice_options(g: GameState, count: int) -> list[Counts]:
    """`count` different goods of choice; with fewer kinds left, as many kinds as there are."""
    kinds = [good for good in range(3) if room(g, good) > 0]
    k = min(count, len(kinds))
    if k == 0:
        return []
    return [_ONE_EACH[combo] for combo in combinations(kinds, k)]


def sell_options(g: GameState, mode: str, most: int, least: int) -> list[Counts]:
    """Every sale of `least` to `most` goods the player could make; (0, 0, 0) only when selling is optional
    (least 0: a market opening). With fewer goods than `least` there is no sale: the bonus goes to waste."""
    owned = [g.players[g.current].owned(good) for good in range(3)]
    low = max(least, 1)
    found: set[Counts] = set()
    if mode in ("same", "same_or_different"):
        for good in range(3):
            for n in range(low, min(most, owned[good]) + 1):
                one = [0, 0, 0]
                one[good] = n
                found.add((one[0], one[1], one[2]))
    if mode in ("different", "same_or_different"):
        kinds = [good for good in range(3) if owned[good] > 0]
        for k in range(low, min(most, len(kinds)) + 1):
            for combo in combinations(kinds, k):
                found.add(_ONE_EACH[combo])
    if mode == "any":
        for a, b, c in product(*(range(min(most, o) + 1) for o in owned)):
            if low <= a + b + c <= most:
                found.add((a, b, c))
    out = sorted(found)
    if least == 0:
        out.insert(0, NOTHING)
    return out


def sell(g: GameState, counts: Counts, events: list[Event]) -> None:
    """Crosses out goods left to right; each earns the coin of its column; a sold-out tent gives its bonus."""
    p = g.players[g.current]
    prices = g.sheet.prices
    earned = 0
    finished_tents = []
    for good, n in enumerate(counts):
        if not n:
            continue
        before = p.sold[good]
        earned += sum(prices[before : before + n])
        p.sold = replaced(p.sold, good, before + n)
        for end, bonus in g.sheet.tents[good]:
            if before < end <= before + n:
                finished_tents.append((good, end, bonus))
    events.append({"type": "goods_sold", "player": g.current, "goods": list(counts), "money": earned})
    if earned:
        gain_money(g, earned, "market", events)
    for good, end, bonus in finished_tents:
        release(g, bonus, f"tent {good}:{end}", "tent_bonus", events)
