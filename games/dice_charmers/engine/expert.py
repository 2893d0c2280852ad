"""The expert bot: searches every way to play out the rest of its turn, weighs karma rerolls over every face the
dice may show, and values where each line ends with the outlook's evaluation (outlook.py).

It decides only from what a player sees: before searching, the state's dice generator is replaced by one drawn
from the bot's seed and the state's step, so the real future rolls cannot reach the search, and the decision is
the same for every state that differs only in its generator. The search is bounded by `effort`, the number of
engine decisions it may apply: at a given effort the decision follows from the state and the seed alone, so bot
games replay exactly. A time cap (`budget` seconds, read from a `clock` the caller passes in: the engine itself
reads no clock) only stops a search early when the effort would take longer; what is left is then valued
without searching deeper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rajas.games.rng import seed_to_state

from .decisions import Decision
from .errors import GameOver
from .game import apply, legal_decisions
from .outlook import Judge, Weights, pending_worth
from .state import ELEPHANT, MIDDLE, PHASE_OVER, PHASE_PICK, PHASE_REROLL, GameState, replaced
from .turns import DIE, advance, end_turn

Bot = Callable[[GameState], Decision]
Clock = Callable[[], float]  # seconds, from any fixed origin (time.monotonic, time.perf_counter)

EXPERT_DRAW = "rajas-expert/1"  # kept apart from the dice and the other bots' draws
EFFORT = 3000  # engine decisions one decision's search may apply (the default, the level `expert`)
# How many of a choice's options are searched further, by how deep in the turn the choice comes (deeper: the
# last figure); the others are valued as they stand. The first choice after the die is always searched whole.
WIDTHS = (99, 4, 2, 1)
KARMA_WIDTHS = (5, 2, 1)  # the same for the outcomes of a karma reroll: many, each weighing little
KARMA_LEVELS = 3  # at most this many karma spent in a row are weighed (more are valued like the third)


class _Search:
    """One decision's search over the rest of one seat's turn."""

    __slots__ = ("clock", "deadline", "judge", "limit", "memo", "nodes", "round", "seat", "stopped", "turn")

    def __init__(self, g: GameState, judge: Judge, limit: int, clock: Clock | None, deadline: float) -> None:
        self.seat = g.current
        self.turn = g.turn
        self.round = g.round
        self.judge = judge
        self.limit = limit
        self.clock = clock
        self.deadline = deadline
        self.memo: dict[tuple[object, ...], float] = {}
        self.nodes = 0
        self.stopped = False

    def spent(self) -> bool:
        """Whether the search must stop expanding: its effort is used up, or the time cap is reached."""
        if not self.stopped and (
            self.nodes >= self.limit or (self.clock is not None and self.clock() >= self.deadline)
        ):
            self.stopped = True
        return self.stopped

    def step(self, g: GameState, d: Decision) -> GameState:
        self.nodes += 1
        return apply(g, d)[0]

    def done(self, g: GameState) -> bool:
        """Whether the seat's turn is over in `g` (the search's leaves)."""
        return g.phase == PHASE_OVER or g.current != self.seat or g.turn != self.turn or g.round != self.round

    def key(self, g: GameState) -> tuple[object, ...]:
        """What of `g` the seat's turn can change; states alike in it are worth the same."""
        p = g.players[self.seat]
        return (
            g.phase,
            g.current,
            g.stack,
            g.pool,
            g.faces,
            p.fame,
            p.money,
            p.karma_gained,
            p.karma_used,
            p.circled,
            p.sold,
            p.palace,
            p.levels,
            p.river,
            p.roads,
            p.edges_taken,
        )

    def static(self, g: GameState) -> float:
        """A state valued without searching on: a leaf exactly, a state in the middle of the turn by what it holds
        and the rough worth of what is still to be carried out."""
        if self.done(g):
            return self.leaf(g)
        return self.judge.utility(g) + self.judge.w.pending * pending_worth(g)

    def leaf(self, g: GameState) -> float:
        k = self.key(g)
        v = self.memo.get(k)
        if v is None:
            v = self.memo[k] = self.judge.utility(g)
        return v

    def value(self, g: GameState, depth: int, widths: tuple[int, ...]) -> float:
        """The best the seat can make of `g`, a state in the middle of its turn (or its end), searching the
        `widths[depth]` most promising options of each choice further."""
        if self.done(g):
            return self.leaf(g)
        k = self.key(g)
        got = self.memo.get(k)
        if got is not None:
            return got
        options = legal_decisions(g)
        if len(options) == 1:
            v = self.value(self.step(g, options[0]), depth, widths)  # forced: costs no depth
        elif self.spent():
            v = max(self.static(self.step(g, d)) for d in options)
        else:
            width = widths[min(depth, len(widths) - 1)]
            after = [self.step(g, d) for d in options]
            if len(after) > width:
                ranked = sorted(range(len(after)), key=lambda i: -self.static(after[i]))
                after = [after[i] for i in ranked[:width]]
            v = max(self.value(a, depth + 1, widths) for a in after)
        self.memo[k] = v
        return v


class _Karma:
    """Karma rerolls weighed over every face the two rerolled dice may show.

    A reroll of the elephant's die and a middle die shows a face on each; the player keeps one of them (or, when
    neither can be used, stops) or spends one more karma to roll both again. Keeping die x showing face f is
    worth what taking that die would be worth from `base` with one more karma spent; those values are searched
    once per effect and shared by every reroll weighed in the decision. One karma more spent is valued as the
    same outcome less what that karma would have been worth (`cost`)."""

    __slots__ = ("base", "cost", "kept", "search", "stop")

    def __init__(self, search: _Search, base: GameState) -> None:
        self.search = search
        self.base = base  # the state the rerolls start from (a pick, or a reroll just made)
        self.kept: dict[tuple[object, ...], float | None] = {}
        first = self._stopped(1)
        second = self._stopped(2) if base.players[base.current].karma >= 2 else first
        self.stop = first  # the turn ends with no die taken, one karma spent
        self.cost = max(0.0, first - second)  # what one more karma spent costs

    def _as_if(self, karma: int) -> GameState:
        """`base` as a pick with `karma` more karma spent (what a kept die is then carried out from)."""
        s = self.base.copy()
        p = s.players[s.current]
        p.karma_used += karma
        s.phase = PHASE_PICK
        s.reroll = None
        return s

    def _stopped(self, karma: int) -> float:
        """The turn ending with no die taken and `karma` more karma spent."""
        s = self._as_if(karma)
        s.step += 1
        s._legal = None
        # The seat passes: the next turn starts (what `pass` does, without asking whether it is offered).
        events: list[dict[str, object]] = []
        end_turn(s, events)
        advance(s, events)
        return self.search.leaf(s)

    def keep(self, die: int, face: int) -> float | None:
        """What keeping `die` showing `face` is worth, one karma spent; None when that die could not be used."""
        eff = self.base.sheet.die_faces[die][face]
        # (A purple die's face is part of the key: a goods_die bonus released later reads the purple dice.)
        k = (eff, die in self.base.sheet.purple_dice and face)
        if k in self.kept:
            return self.kept[k]
        s = self._as_if(1)
        s.faces = replaced(s.faces, die, face)
        s.where = replaced(s.where, die, MIDDLE)
        s._legal = None
        v = None
        if DIE[die] in legal_decisions(s):
            v = self.search.value(self.search.step(s, DIE[die]), 0, KARMA_WIDTHS)
        self.kept[k] = v
        return v

    def reroll(self, elephant: int, other: int, karma: int) -> float:
        """What spending karma to roll `elephant` and `other` is worth, with `karma` karma available for it."""
        faces = self.base.sheet.die_faces
        outcomes: list[tuple[float, float]] = []  # (chance, value once rolled, keeping the better die or stopping)
        e_values = [self.keep(elephant, f) for f in range(len(faces[elephant]))]
        o_values = [self.keep(other, f) for f in range(len(faces[other]))]
        chance = 1.0 / (len(e_values) * len(o_values))
        for ev in e_values:
            for ov in o_values:
                if ev is None and ov is None:
                    outcomes.append((chance, self.stop))
                else:
                    outcomes.append((chance, max(v for v in (ev, ov) if v is not None)))
        levels = max(1, min(karma, KARMA_LEVELS))
        # Backwards from the last karma weighed: roll again while that is worth more than what was rolled.
        again = float("-inf")
        for level in range(levels, 0, -1):
            shift = (level - 1) * self.cost
            again = sum(c * max(v - shift, again) for c, v in outcomes)
        return again


class Choice(NamedTuple):
    """A decision of the expert, with what its search took: engine decisions applied, and whether the time cap
    stopped it before its effort was spent."""

    decision: Decision
    searched: int
    capped: bool


def decide(
    g: GameState,
    seed: int | str = 0,
    effort: int = EFFORT,
    budget: float | None = None,
    clock: Clock | None = None,
    weights: Weights | None = None,
    widths: tuple[int, ...] = WIDTHS,
) -> Choice:
    """The expert's decision for whoever must decide in `g` (a game not over)."""
    options = legal_decisions(g)
    if not options:
        raise GameOver("the game is over")
    if len(options) == 1:
        return Choice(options[0], 0, False)
    seat = g.current
    root = g.copy()
    # The real generator is dropped before anything is searched: the future the search plays into is its own.
    root.rng = seed_to_state(seed, (EXPERT_DRAW, str(g.step), str(seat)))
    timed = clock is not None and budget is not None
    deadline = clock() + budget if clock is not None and budget is not None else 0.0
    search = _Search(root, Judge(root, seat, weights or Weights()), effort, clock if timed else None, deadline)
    karma: _Karma | None = None
    best = options[0]
    best_value = float("-inf")
    for d in options:
        if d.kind in ("karma", "reroll"):
            if karma is None:
                karma = _Karma(search, root)
            if root.phase == PHASE_REROLL:
                assert root.reroll is not None
                elephant, other = root.reroll
            else:
                elephant, other = root.where.index(ELEPHANT), d.args[0]
            v = karma.reroll(elephant, other, root.players[seat].karma)
        else:
            v = search.value(search.step(root, d), 0, widths)
        if v > best_value + 1e-9:
            best, best_value = d, v
    return Choice(best, search.nodes, search.stopped and search.nodes < effort)


def expert_bot(
    seed: int | str = 0,
    effort: int = EFFORT,
    budget: float | None = None,
    clock: Clock | None = None,
    weights: Weights | None = None,
    widths: tuple[int, ...] = WIDTHS,
) -> Bot:
    """The expert: at most `effort` engine decisions searched per decision; `budget` seconds (by `clock`) cap
    each decision's search, for servers that must answer in time whatever the machine."""
    w = weights or Weights()

    def choose(g: GameState) -> Decision:
        return decide(g, seed, effort, budget, clock, w, widths).decision

    return choose


def hint(
    g: GameState,
    seat: int,
    seed: int | str = "hint",
    effort: int = EFFORT,
    budget: float | None = None,
    clock: Clock | None = None,
) -> Decision | None:
    """What the expert would decide for `seat` now; None when it is not that seat's decision (or the game is
    over). The same state gives the same hint."""
    if g.phase == PHASE_OVER or g.current != seat:
        return None
    return decide(g, seed, effort, budget, clock).decision


__all__ = ["EFFORT", "Choice", "Clock", "decide", "expert_bot", "hint"]
