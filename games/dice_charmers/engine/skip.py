"""The skip of a turn-based turn whose time ran out: the legal way through the rest of the turn after which the
player has the least fame plus money (docs/rules-decisions.md 37), found by searching the turn's paths with the
engine itself, within a bound.

Looking one decision ahead is not enough: taking a green die gains nothing until its road is drawn, and the road
may have to erect a building for 3 fame, when the blue die would have given 2 money. So every way through the turn
is followed to its end. The search is a depth-first branch and bound: fame and money never go down during a turn,
so a way that already holds as much as the best finished one is dropped; the decisions after which the player
holds least are tried first (the first way followed is the one a decision-by-decision choice would take, so the
skip is never worse than that); positions reached in two orders (bonuses used one way round or the other) are
searched once. A search takes at most STEPS engine steps; a turn with more ways than that (none of the games
measured for docs/rules-decisions.md 37) gets the least one found within them.
"""

from __future__ import annotations

from collections.abc import Hashable

from .decisions import Decision
from .game import apply, legal_decisions
from .state import GameState

STEPS = 20_000  # engine steps one skip decision may take (a few hundred in most turns; well under a second)
SPENDS_KARMA = ("karma", "reroll")
NONE = 1 << 62  # (no way through found yet)


def choices(g: GameState) -> list[Decision]:
    """The decisions a skip may take: `pass` wherever the engine offers it; otherwise never spending karma (the
    absent player's karma is theirs to spend) while another option is open."""
    options = legal_decisions(g)
    for d in options:
        if d.kind == "pass":
            return [d]
    return [d for d in options if d.kind not in SPENDS_KARMA] or options


class _Search:
    def __init__(self, g: GameState, steps: int) -> None:
        self.seat = g.current
        self.turn = (g.round, g.turn)
        self.left = steps
        # A position's least total: (value, exact). Not exact: no way from it gives less than value.
        self.known: dict[Hashable, tuple[int, bool]] = {}

    def held(self, g: GameState) -> int:
        p = g.players[self.seat]
        return p.fame + p.money

    def ended(self, g: GameState) -> bool:
        return g.is_over or (g.round, g.turn) != self.turn

    def key(self, g: GameState) -> Hashable:
        """What the rest of the turn depends on: the player's sheet and where the turn stands (no other sheet
        changes during the turn, and a skip never rolls)."""
        p = g.players[self.seat]
        return (
            p.fame, p.money, p.karma_gained, p.karma_used, p.circled, p.sold, p.palace, p.levels, p.river, p.roads,
            p.edges_taken, g.phase, g.faces, g.where, g.stack, g.pool, g.reroll,
        )  # fmt: skip

    def children(self, g: GameState) -> list[tuple[int, int, Decision, GameState]]:
        """Each decision a skip may take here and the state after it, those after which the player holds least
        first (then in the engine's order)."""
        out = []
        for i, d in enumerate(choices(g)):
            if self.left <= 0:
                break
            self.left -= 1
            after, _ = apply(g, d)
            out.append((self.held(after), i, d, after))
        out.sort(key=lambda c: (c[0], c[1]))
        return out

    def least(self, g: GameState, best: int) -> int:
        """The least fame plus money a way through the rest of the turn from `g` ends with, or `best` when none
        ends with less."""
        key = self.key(g)
        known = self.known.get(key)
        if known is not None and (known[1] or known[0] >= best):
            return min(best, known[0])
        bound = best
        for held, _, _, after in self.children(g):
            if held >= best:
                break  # (this way and the rest already hold as much as the best one: fame and money only grow)
            best = held if self.ended(after) else self.least(after, best)
        if self.left > 0:  # (searched whole: remembered)
            self.known[key] = (best, True) if best < bound else (bound, False)
        return best


def skip_decision(g: GameState, steps: int = STEPS) -> Decision:
    """The first decision of the way through the rest of `g`'s turn after which its player holds the least fame
    plus money (the first found among equals)."""
    search = _Search(g, steps)
    kids = search.children(g)
    best, chosen = NONE, kids[0][2]
    for held, _, d, after in kids:
        if held >= best:
            break
        total = held if search.ended(after) else search.least(after, best)
        if total < best:
            best, chosen = total, d
    return chosen
