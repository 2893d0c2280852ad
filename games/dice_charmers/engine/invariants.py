"""Facts that hold in every reachable state; the simulator and property tests check them."""

from __future__ import annotations

from collections import deque

from .effects import DIRECTION_BITS, OPPOSITE
from .state import ELEPHANT, MIDDLE, PHASE_OVER, PHASE_RESOLVE, GameState, PlayerState


class InvariantBroken(AssertionError):
    pass


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise InvariantBroken(message)


def connected_cells(g: GameState, p: PlayerState) -> set[int]:
    """Spaces reachable from the residence along drawn roads."""
    seen = {g.sheet.residence}
    todo = deque(seen)
    while todo:
        cell = todo.popleft()
        for i, bit in enumerate(DIRECTION_BITS):
            nb = g.sheet.neighbour[cell][i]
            if nb >= 0 and p.roads[cell] & bit and p.roads[nb] & OPPOSITE[bit] and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def check_player(g: GameState, seat: int) -> None:
    s = g.sheet
    p = g.players[seat]
    who = f"seat {seat}"
    _check(p.fame >= 0 and p.money >= 0, f"{who}: negative score")
    _check(sum(p.fame_from) == p.fame and sum(p.money_from) == p.money, f"{who}: sources do not add up")
    _check(0 <= p.karma_used <= p.karma_gained <= s.karma_spaces, f"{who}: karma track")
    for good in range(3):
        _check(0 <= p.sold[good] <= p.circled[good] <= len(s.prices), f"{who}: market row {good}")
    _check(all(0 <= u <= s.palace_uses for u in p.palace), f"{who}: palace")
    _check(all(1 <= lv <= s.max_level for lv in p.levels), f"{who}: upgrade table")
    _check(p.river < 1 << len(s.river_symbol), f"{who}: river")
    drawn = {c for c, arms in enumerate(p.roads) if arms}
    _check(drawn <= connected_cells(g, p), f"{who}: a road not connected to the residence")
    for c in drawn:
        arms = p.roads[c]
        _check(not arms & ~s.allowed[c], f"{who}: a road leaves the province where there is no bonus")
        _check(bin(arms).count("1") >= 2, f"{who}: a half-filled space")
    _check(p.roads[s.residence] & s.residence_arms == s.residence_arms, f"{who}: residence roads")


def check_state(g: GameState) -> None:
    _check(len(g.players) == g.n and 2 <= g.n <= 5, "players")
    for seat in range(g.n):
        check_player(g, seat)
    _check(g.where.count(ELEPHANT) <= 1, "more than one die on the elephant")
    for seat in range(g.n):
        held = g.where.count(seat)
        turns_so_far = g.order[: g.turn + 1].count(seat)
        _check(held <= turns_so_far, f"seat {seat} holds more dice than it has had turns")
    _check(
        g.where.count(MIDDLE) + g.where.count(ELEPHANT) + sum(g.where.count(s) for s in range(g.n)) == 8,
        "dice",
    )
    if g.phase != PHASE_RESOLVE:
        _check(not g.stack and not g.pool, "effects left over outside the resolve phase")
    if g.phase == PHASE_OVER:
        _check(g.result is not None, "finished game without result")
