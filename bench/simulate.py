"""`rajas simulate`: plays complete games with the engine's bots and reports what happened (errors, length,
speed, dice chosen), checking every state's invariants on the way."""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from rajas.games.dice_charmers.engine.bots import BOTS
from rajas.games.dice_charmers.engine.errors import SheetError
from rajas.games.dice_charmers.engine.game import apply, new_game
from rajas.games.dice_charmers.engine.invariants import check_state
from rajas.games.dice_charmers.engine.sheet import load_sheet
from rajas.games.dice_charmers.engine.state import GameState
from rajas.games.dice_charmers.engine.turns import ROUND_LIMIT


def play_game(
    players: int, seed: int, sheet: str, bot: str, check: bool = True, stats: Counter[str] | None = None
) -> tuple[GameState, int]:
    """One whole game; returns the final state and the number of decisions taken."""
    g, _ = new_game(players, seed, load_sheet(sheet))
    bots = [BOTS[bot](f"{seed}:{seat}") for seat in range(players)]
    decisions = 0
    while not g.is_over:  # the engine ends every game by its round limit
        d = bots[g.current](g)
        g, events = apply(g, d)
        decisions += 1
        if stats is not None:
            for e in events:
                t = e["type"]
                if t in ("die_picked", "die_kept"):
                    stats["colour:" + g.sheet.die_colour[e["die"]]] += 1
                elif t in ("karma_rolled", "turn_passed", "bonus_wasted", "game_end_triggered"):
                    stats[t] += 1
        if check:
            check_state(g)
    return g, decisions


def sheet_problem(sheet: str) -> str | None:
    """Why `sheet` (a name or a file) cannot be played on, or None."""
    try:
        load_sheet(sheet)
    except (OSError, SheetError) as e:
        return str(e)
    return None


def simulate(
    players: int,
    games: int,
    seed: int = 0,
    sheet: str = "sun",
    bot: str = "random",
    check: bool = True,
    played: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """`games` bot games; `played(1)` is called after each (a progress bar's advance)."""
    rounds: list[int] = []
    errors = 0
    samples: list[str] = []
    decisions = 0
    stats: Counter[str] = Counter()
    winner_overlap = 0.0
    at_limit = 0  # games the round limit ended: nobody's tracks met
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        try:
            g, n = play_game(players, game_seed, sheet, bot, check, stats)
        except Exception as exc:  # every failure is counted and reported, never hidden
            errors += 1
            if len(samples) < 5:
                samples.append(f"seed {game_seed}: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}")
            continue
        finally:
            if played is not None:
                played(1)
        decisions += n
        rounds.append(g.round)
        assert g.result is not None
        if not any(r["crossed"] for r in g.result):
            at_limit += 1
        winner_overlap += g.result[0]["overlap"]
    elapsed = time.perf_counter() - started
    picks = {c: stats["colour:" + c] for c in ("purple", "green", "blue", "orange")}
    total_picks = sum(picks.values()) or 1
    done = len(rounds) or 1
    return {
        "games": games,
        "errors": errors,
        "players": players,
        "sheet": sheet,
        "bot": bot,
        "avg_rounds": round(sum(rounds) / done, 2),
        "max_rounds": max(rounds, default=0),
        "min_rounds": min(rounds, default=0),
        "round_limit": ROUND_LIMIT,
        "ended_at_round_limit": at_limit,
        "decisions": decisions,
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed else 0.0,
        "games_per_s": round(games / elapsed, 2) if elapsed else 0.0,
        "seconds": round(elapsed, 3),
        "colour_share": {c: round(n / total_picks, 3) for c, n in picks.items()},
        "karma_rerolls_per_game": round(stats["karma_rolled"] / done, 2),
        "passes_per_game": round(stats["turn_passed"] / done, 3),
        "wasted_bonuses_per_game": round(stats["bonus_wasted"] / done, 2),
        "avg_winner_overlap": round(winner_overlap / done, 2),
        "error_samples": samples,
    }
