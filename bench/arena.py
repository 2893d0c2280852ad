"""`rajas arena`: bots play each other in seat-balanced matches on fixed seeds; reports each bot's win share with
a 95 % confidence interval, the bots' decision times and the games played per second.

Decision times are wall-clock (`decision_ms`: every decision; `choice_ms`: those with more than one legal
option) and the process's CPU time (`cpu_ms`), which other work on a busy machine does not inflate.

Seat balance: every seed is played once with each rotation of the line-up over the seats (with the dice of
that seed), so every bot sits in every seat, the start player's among them, equally often. A game is a win
for every bot the engine's standings name winner: a shared victory counts for each of them.

Two intervals are given for each share. `ci95` treats each seed's rotations as one unit (its mean share), the
honest interval when the rotations of one seed, played with the same dice, are not independent: the mean of
the seeds' shares plus or minus 1.96 standard errors of it. `wilson95` is Wilson's score interval with every
game taken as independent.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from rajas.games.dice_charmers.engine.bots import BOTS, level_bot
from rajas.games.dice_charmers.engine.game import apply, legal_decisions, new_game
from rajas.games.dice_charmers.engine.sheet import load_sheet

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile


def rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Every rotation of a line-up over the seats: in rotation r, seat s holds entry (s - r) mod n."""
    n = len(lineup)
    return [tuple(lineup[(s - r) % n] for s in range(n)) for r in range(n)]


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share of `wins` in `games` independent games."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def grouped(shares: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """An interval for the mean of per-seed shares: the mean plus or minus z standard errors of the mean."""
    k = len(shares)
    if k < 2:
        return (0.0, 1.0)
    mean = sum(shares) / k
    var = sum((x - mean) ** 2 for x in shares) / (k - 1)
    half = z * math.sqrt(var / k)
    return (max(0.0, mean - half), min(1.0, mean + half))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank); 0 for none."""
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def _spread(sorted_seconds: Sequence[float]) -> dict[str, float]:
    """Median, 99th percentile and largest of sorted durations, in milliseconds."""
    return {
        "p50": round(1000 * quantile(sorted_seconds, 0.5), 2),
        "p99": round(1000 * quantile(sorted_seconds, 0.99), 2),
        "max": round(1000 * (sorted_seconds[-1] if sorted_seconds else 0.0), 2),
    }


def arena(
    lineup: Sequence[str],
    games: int,
    seed: int = 0,
    sheet: str = "sun",
    budget: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Plays `games` games (rounded up to whole sets of rotations) of the line-up, one bot name per seat."""
    n = len(lineup)
    for name in lineup:
        if name not in BOTS:
            raise ValueError(f"no bot named {name!r} (there are {', '.join(BOTS)})")
    if not 2 <= n <= 5:
        raise ValueError(f"the game is for 2-5 players, not {n}")
    seeds = max(1, -(-games // n))
    the_sheet = load_sheet(sheet)
    names = sorted(set(lineup))
    wins = {name: 0.0 for name in names}
    per_seed: dict[str, list[float]] = {name: [] for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    choice_times: dict[str, list[float]] = {name: [] for name in names}
    cpu_times: dict[str, list[float]] = {name: [] for name in names}
    shared = 0
    rounds = 0
    played = 0
    started = time.perf_counter()
    for i in range(seeds):
        game_seed = seed * 1_000_003 + i
        seed_wins = {name: 0.0 for name in names}
        for r, seating in enumerate(rotations(lineup)):
            g, _ = new_game(n, game_seed, the_sheet)
            # A bot's seed follows its entry in the line-up, not the seat it sits in this rotation.
            entry = [(s - r) % n for s in range(n)]
            bots = [level_bot(seating[s], f"arena:{game_seed}:{entry[s]}", budget, time.perf_counter) for s in range(n)]
            while not g.is_over:
                name = seating[g.current]
                choices = len(legal_decisions(g)) > 1
                t0, c0 = time.perf_counter(), time.process_time()
                d = bots[g.current](g)
                spent = time.perf_counter() - t0
                times[name].append(spent)
                cpu_times[name].append(time.process_time() - c0)
                if choices:
                    choice_times[name].append(spent)
                g, _ = apply(g, d)
            assert g.result is not None
            winners = [seating[r["seat"]] for r in g.result if r["winner"]]
            if len(winners) > 1:
                shared += 1
            for name in winners:
                wins[name] += 1
                seed_wins[name] += 1
            rounds += g.round
            played += 1
            if progress is not None:
                progress(played, seeds * n)
        for name in names:
            per_seed[name].append(seed_wins[name] / n)
    elapsed = time.perf_counter() - started
    bots_report: dict[str, Any] = {}
    for name in names:
        t = sorted(times[name])
        c = sorted(choice_times[name])
        cpu = sorted(cpu_times[name])
        lo, hi = grouped(per_seed[name])
        wlo, whi = wilson(wins[name], played)
        bots_report[name] = {
            "seats": lineup.count(name),
            "wins": wins[name],
            "share": wins[name] / played,
            "ci95": [round(lo, 4), round(hi, 4)],
            "wilson95": [round(wlo, 4), round(whi, 4)],
            "decisions": len(t),
            "decision_ms": _spread(t),
            # The expert's decisions that took the whole budget: those the time cap cut short (None: no cap).
            "at_budget": sum(1 for x in t if x >= budget) if budget is not None and name == "expert" else None,
            "choice_ms": _spread(c),
            "cpu_ms": _spread(cpu),
        }
    return {
        "lineup": list(lineup),
        "players": n,
        "sheet": sheet,
        "seed": seed,
        "seeds": seeds,
        "games": played,
        "shared_victories": shared,
        "avg_rounds": round(rounds / played, 2),
        "budget_s": budget,
        "seconds": round(elapsed, 1),
        "games_per_s": round(played / elapsed, 3) if elapsed else 0.0,
        "bots": bots_report,
    }


def table(report: dict[str, Any]) -> str:
    """The report as a table a person reads."""
    lines = [
        f"{report['games']} games ({report['seeds']} seeds x {report['players']} rotations), "
        f"line-up {','.join(report['lineup'])}, sheet {report['sheet']}, seed {report['seed']}",
        f"{'bot':<8} {'seats':>5} {'wins':>7} {'share':>7} {'95% CI (by seed)':>18} {'95% Wilson':>16} "
        f"{'ms p50':>8} {'ms p99':>8} {'ms max':>8} {'cpu p99':>8}",
    ]
    for name, b in report["bots"].items():
        ms, cpu = b["decision_ms"], b["cpu_ms"]
        lines.append(
            f"{name:<8} {b['seats']:>5} {b['wins']:>7g} {b['share']:>7.1%} "
            f"{b['ci95'][0]:>8.1%} - {b['ci95'][1]:<7.1%} {b['wilson95'][0]:>6.1%} - {b['wilson95'][1]:<7.1%} "
            f"{ms['p50']:>8.1f} {ms['p99']:>8.1f} {ms['max']:>8.1f} {cpu['p99']:>8.1f}"
        )
    lines.append(
        f"shared victories {report['shared_victories']}, {report['avg_rounds']} rounds a game, "
        f"{report['games_per_s']} games/s ({report['seconds']} s)"
    )
    return "\n".join(lines)
