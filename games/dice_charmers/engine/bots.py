"""Bots that choose among legal decisions: random, greedy (best immediate gain), and the levels players choose
from: easy (greedy one decision at a time, with noise), normal (greedy) and expert (expert.py, a search).

Used by the simulator, by the server for absent players, and by load tests. Each bot draws from a generator
of its own, the engine's seeded one (rng.py), so a bot's choices follow from its seed alone and bot games
replay exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rajas.games.rng import roll, seed_to_state

from .decisions import Decision
from .expert import Clock, expert_bot
from .game import apply, legal_decisions
from .state import PHASE_OVER, PHASE_RESOLVE, GameState
from .tracks import overlap

Bot = Callable[[GameState], Decision]
T = TypeVar("T")
BOT_DRAW = "rajas-bot/1"  # kept apart from the dice: a bot seeded like a game never echoes its rolls


class Draw:
    """A bot's own choices: the engine's generator, seeded once, advanced by every draw."""

    def __init__(self, seed: int | str) -> None:
        self.state = seed_to_state(seed, (BOT_DRAW,))

    def choice(self, options: Sequence[T]) -> T:
        self.state, i = roll(self.state, len(options))
        return options[i]

    def fraction(self) -> float:
        """A number in [0, 1), in steps of 1/1024."""
        self.state, i = roll(self.state, 1024)
        return i / 1024


# Rough worth, in track spaces, of an effect still to be carried out.
EFFECT_WORTH = {
    "fame": 1.0,
    "money": 0.5,
    "karma": 0.8,
    "goods": 1.2,
    "goods_die": 1.2,
    "goods_choice": 0.7,
    "sell": 1.5,
    "road": 2.0,
    "half_roads": 1.5,
    "half_road": 0.6,
    "river_symbol": 2.0,
    "river_forward": 2.0,
    "river_back": 1.5,
    "river_back_choice": 1.8,
    "maharani": 2.0,
    "portuguese": 1.5,
    "trader": 1.5,
    "palace": 1.5,
    "palace_any": 1.8,
    "great_mogul": 1.8,
    "upgrade": 1.2,
}


def evaluate(g: GameState, seat: int) -> float:
    """How well `seat` stands: the overlap of its tracks plus what its sheet promises."""
    s = g.sheet
    p = g.players[seat]
    value = float(overlap(s, p.fame, p.money))
    for good in range(3):
        owned = p.owned(good)
        if owned:
            prices = s.prices[p.sold[good] : p.sold[good] + owned]
            value += 0.3 * sum(prices)
    value += 0.6 * p.karma
    value += 0.7 * sum(lv - 1 for lv in p.levels)
    if g.phase == PHASE_RESOLVE and g.current == seat:
        for eff in g.stack:
            value += EFFECT_WORTH.get(eff[0], 1.0) * (eff[1] if eff[0] in ("fame",) else 1)
        for eff in g.pool:
            value += EFFECT_WORTH.get(eff[0], 1.0)
    return value


def random_bot(seed: int | str = 0) -> Bot:
    rng = Draw(seed)

    def choose(g: GameState) -> Decision:
        return rng.choice(legal_decisions(g))

    return choose


def greedy_bot(seed: int | str = 0, horizon: int = 12) -> Bot:
    """Plays every option out to the end of its own turn (choosing each later step by one-step worth)
    and takes the option that leaves the best-looking sheet."""
    rng = Draw(seed)

    def one_step(g: GameState, seat: int) -> Decision:
        best: list[Decision] = []
        best_value = float("-inf")
        for d in legal_decisions(g):
            after, _ = apply(g, d)
            v = evaluate(after, seat)
            if v > best_value + 1e-9:
                best, best_value = [d], v
            elif abs(v - best_value) <= 1e-9:
                best.append(d)
        return rng.choice(best)

    def finish_turn(g: GameState, seat: int) -> GameState:
        turn, rnd = g.turn, g.round
        for _ in range(horizon):
            if g.phase == PHASE_OVER or g.current != seat or g.turn != turn or g.round != rnd:
                break
            g, _ = apply(g, one_step(g, seat))
        return g

    def choose(g: GameState) -> Decision:
        seat = g.current
        options = legal_decisions(g)
        if len(options) == 1:
            return options[0]
        best: list[Decision] = []
        best_value = float("-inf")
        for d in options:
            after, _ = apply(g, d)
            v = evaluate(finish_turn(after, seat), seat)
            if v > best_value + 1e-9:
                best, best_value = [d], v
            elif abs(v - best_value) <= 1e-9:
                best.append(d)
        return rng.choice(best)

    return choose


def easy_bot(seed: int | str = 0, noise: float = 1.5) -> Bot:
    """Greedy one decision at a time, without playing the turn out, and with up to `noise` track spaces of
    chance added to each option's worth: it takes sensible decisions, not always the best one."""
    rng = Draw(seed)

    def choose(g: GameState) -> Decision:
        seat = g.current
        options = legal_decisions(g)
        if len(options) == 1:
            return options[0]
        best = options[0]
        best_value = float("-inf")
        for d in options:
            after, _ = apply(g, d)
            v = evaluate(after, seat) + noise * rng.fraction()
            if v > best_value:
                best, best_value = d, v
        return best

    return choose


# The bots by name. `easy`, `normal` and `expert` are the levels players choose from (LEVELS); `random` and
# `greedy` (the same bot as `normal`) are kept for the simulator, the load tests and older rooms.
BOTS: dict[str, Callable[[int | str], Bot]] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "easy": easy_bot,
    "normal": greedy_bot,
    "expert": expert_bot,
}
LEVELS = ("easy", "normal", "expert")


def level_bot(level: str, seed: int | str, budget: float | None = None, clock: Clock | None = None) -> Bot:
    """The bot of a level (or any name in BOTS); the expert's search is capped at `budget` seconds of `clock`
    per decision when both are given (the other bots answer at once)."""
    if level == "expert":
        return expert_bot(seed, budget=budget, clock=clock)
    return BOTS[level](seed)
