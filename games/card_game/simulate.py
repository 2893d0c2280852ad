"""Plays whole card games with the engine's bots, checks every state's invariants on the way, and reports what
happened: errors, length, speed, how often each action is taken and what it is worth to the one who takes it.

    python -m rajas.games.card_game.simulate --players 3 --games 1000 --seed 1 --bot greedy
"""

from __future__ import annotations

import argparse
import json
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from .engine.bots import BOTS
from .engine.decisions import ACTIONS
from .engine.game import apply, new_game
from .engine.invariants import check_state
from .engine.state import PlayerState, State

SAFETY_ROUNDS = 200  # a game still running after this many rounds is counted as an error, not played on


def progress(p: PlayerState) -> float:
    """How far a player is along the score track, in cards: those turned plus the fame and coins towards the next."""
    return p.turned + p.fame / 3 + p.coins / 6


def play_game(players: int, seed: int, bot: str, stats: Counter[str], check: bool = True) -> tuple[State, int]:
    """One whole game; returns the final state and the number of decisions taken."""
    g, _ = new_game(players, seed)
    bots = [BOTS[bot](f"{seed}:{seat}") for seat in range(players)]
    decisions = 0
    open_action: tuple[str, int, int, float] | None = None  # (action, seat, turn number, progress before)
    while not g.is_over:
        if g.round > SAFETY_ROUNDS:
            raise RuntimeError(f"no end after {SAFETY_ROUNDS} rounds")
        seat = g.current
        d = bots[seat](g)
        if d.kind in ACTIONS or d.kind == "pass":
            open_action = (d.kind, seat, g.turn_no, progress(g.players[seat]))
            stats["action:" + d.kind] += 1
        elif d.kind in ("draw", "extra"):
            stats["manager:" + d.kind] += 1
        if d.kind == "building":
            stats["manager:joker"] += d.args[1]
        elif d.kind in ("ship", "palace") and d.args[1] == -1:
            stats["manager:joker"] += 1
        g, events = apply(g, d)
        decisions += 1
        for e in events:
            if e["type"] in ("reshuffled", "three_of_a_kind", "extra_turn_won", "managers_three", "karma_three"):
                stats["event:" + e["type"]] += 1
            elif e["type"] == "discarded" and e["reason"] in ("ship_row_reset", "hand_limit"):
                stats["event:" + e["reason"]] += 1
        if open_action is not None and (g.is_over or g.turn_no != open_action[2]):
            kind, who, _, before = open_action
            stats["worth_x1000:" + kind] += round(1000 * (progress(g.players[who]) - before))
            open_action = None
        if check:
            check_state(g)
    return g, decisions


def simulate(
    players: int,
    games: int,
    seed: int = 0,
    bot: str = "greedy",
    check: bool = True,
    played: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """`games` bot games of `players` players, seeded seed * 1_000_003 + i; the figures of docs/card-game/balance.md.
    `played(1)` is called after each game (a progress bar's advance)."""
    stats: Counter[str] = Counter()
    rounds: list[int] = []
    lengths: list[int] = []
    turned_by_loser: list[int] = []
    shared = 0
    errors = 0
    samples: list[str] = []
    wins_by_first_seat: Counter[int] = Counter()  # seat counted from the first round's start player
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        try:
            g, n = play_game(players, game_seed, bot, stats, check)
        except Exception as exc:  # every failure is counted and reported, never hidden
            errors += 1
            if len(samples) < 5:
                samples.append(f"seed {game_seed}: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}")
            continue
        finally:
            if played is not None:
                played(1)
        rounds.append(g.round)
        lengths.append(n)
        assert g.result is not None
        winners = [s for s in g.result if s.winner]
        shared += len(winners) > 1
        first, _ = new_game(players, game_seed)
        for s in winners:
            wins_by_first_seat[(s.seat - first.start_player) % players] += 1
        turned_by_loser += [s.flipped for s in g.result if not s.winner]
    seconds = time.perf_counter() - started
    done = max(1, len(rounds))
    actions = {k.split(":", 1)[1]: v for k, v in stats.items() if k.startswith("action:")}
    taken = max(1, sum(actions.values()))
    return {
        "players": players,
        "games": games,
        "bot": bot,
        "errors": errors,
        "error_samples": samples,
        "rounds_avg": round(sum(rounds) / done, 2),
        "rounds_min": min(rounds, default=0),
        "rounds_max": max(rounds, default=0),
        "decisions_avg": round(sum(lengths) / done, 1),
        "seconds_per_game": round(seconds / max(1, games), 4),
        "actions_per_game": {k: round(v / done, 2) for k, v in sorted(actions.items())},
        "action_share": {k: round(100 * v / taken, 1) for k, v in sorted(actions.items())},
        # Score-track cards gained from the action to the end of that turn (rewards, sales, managers included).
        "cards_gained_per_action": {
            k: round(stats["worth_x1000:" + k] / 1000 / v, 3) for k, v in sorted(actions.items())
        },
        "per_game": {k: round(v / done, 2) for k, v in sorted(stats.items()) if k.startswith(("manager:", "event:"))},
        "shared_wins": shared,
        "wins_by_seat_from_first_start_player": [wins_by_first_seat[s] for s in range(players)],
        "cards_turned_by_losers_avg": round(sum(turned_by_loser) / max(1, len(turned_by_loser)), 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", choices=sorted(BOTS), default="greedy")
    ap.add_argument("--no-check", action="store_true", help="skip the invariants after each decision")
    args = ap.parse_args(argv)
    print(json.dumps(simulate(args.players, args.games, args.seed, args.bot, not args.no_check), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
