"""The `rajas` command: simulate, serve, bots, verify, bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _simulate(args: argparse.Namespace) -> int:
    from rajas.engine.simulate import simulate

    result = simulate(args.players, args.games, seed=args.seed, sheet=args.sheet, bot=args.bot, check=not args.fast)
    if args.json:
        print(json.dumps(result))
    else:
        samples = result.pop("error_samples")
        for key, value in result.items():
            print(f"{key:>24}: {value}")
        for s in samples:
            print(s, file=sys.stderr)
    return 1 if result["errors"] else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rajas", description="Rajas of the Ganges: The Dice Charmers, online.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play complete games with bots and report errors, length and speed")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="2-5")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--sheet", default="sun", help="sun, moon, or a path to a sheet file")
    sim.add_argument("--bot", default="random", choices=("random", "greedy"))
    sim.add_argument("--fast", action="store_true", help="skip the invariant checks after every decision")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
