"""Engine speed on one core: `python -m rajas.bench.engine [--games N] [--sheet sun]`.

Per player count it reports
- `ms_per_game`, `games_per_s`, `decisions_per_s`: complete random games (legal_decisions + a random
  choice + apply for every decision), the way the simulator plays;
- `applies_per_s`: applications of legal decisions alone (apply on recorded states whose legal list is
  known), the cost the server pays per decision;
- `legal_us`: the mean cost of one legal_decisions call on a fresh state.
Each figure is the best of `--repeat` runs, so a busy machine disturbs it less.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from rajas.games.dice_charmers.engine.decisions import Decision
from rajas.games.dice_charmers.engine.game import apply, legal_decisions, new_game
from rajas.games.dice_charmers.engine.sheet import load_sheet
from rajas.games.dice_charmers.engine.state import GameState


def _random_games(players: int, games: int, sheet: str, seed: int) -> tuple[float, int]:
    s = load_sheet(sheet)
    decisions = 0
    started = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        g, _ = new_game(players, seed + i, s)
        while not g.is_over:
            g, _ = apply(g, rng.choice(legal_decisions(g)))
            decisions += 1
    return time.perf_counter() - started, decisions


def _recorded(players: int, games: int, sheet: str, seed: int) -> list[tuple[GameState, Decision]]:
    s = load_sheet(sheet)
    pairs = []
    for i in range(games):
        rng = random.Random(seed + i)
        g, _ = new_game(players, seed + i, s)
        while not g.is_over:
            d = rng.choice(legal_decisions(g))
            pairs.append((g, d))
            g, _ = apply(g, d)
    return pairs


def measure(players: int, games: int, sheet: str, repeat: int) -> dict[str, Any]:
    best_game = float("inf")
    decisions = 0
    for r in range(repeat):
        elapsed, decisions = _random_games(players, games, sheet, seed=1000 * r)
        best_game = min(best_game, elapsed)
    pairs = _recorded(players, max(10, games // 5), sheet, seed=7)
    best_apply = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for g, d in pairs:
            apply(g, d)
        best_apply = min(best_apply, time.perf_counter() - started)
    best_legal = float("inf")
    fresh = [GameState.from_dict(g.to_dict(), g.sheet) for g, _ in pairs[:2000]]
    for _ in range(repeat):
        for f in fresh:
            f._legal = None
        started = time.perf_counter()
        for f in fresh:
            legal_decisions(f)
        best_legal = min(best_legal, time.perf_counter() - started)
    return {
        "players": players,
        "games": games,
        "decisions_per_game": round(decisions / games, 1),
        "ms_per_game": round(best_game / games * 1000, 3),
        "games_per_s": round(games / best_game, 1),
        "decisions_per_s": round(decisions / best_game),
        "applies_per_s": round(len(pairs) / best_apply),
        "legal_us": round(best_legal / len(fresh) * 1e6, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sheet", default="sun")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = [measure(n, args.games, args.sheet, args.repeat) for n in (2, 3, 4, 5)]
    print(
        json.dumps(
            {
                "python": platform.python_version(),
                "machine": platform.machine(),
                "sheet": args.sheet,
                "results": rows,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
