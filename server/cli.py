"""The `rajas` command: simulate, arena, serve, bots, verify, bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rajas.games.registry import DEFAULT, GAMES
from rajas.server.config import FIELDS, ConfigError, help_for, load
from rajas.server.console import progress, table


def _simulate(args: argparse.Namespace) -> int:
    shown = not args.json
    if args.game == "card_game":
        from rajas.games.card_game.simulate import simulate as simulate_cards

        if not 2 <= args.players <= 4:
            print("rajas simulate: the card game is for 2-4 players", file=sys.stderr)
            return 2
        with progress("games", args.games, shown) as played:
            result = simulate_cards(
                args.players, args.games, seed=args.seed, bot=args.bot, check=not args.fast, played=played
            )
        result.setdefault("error_samples", [])
    else:
        from rajas.bench.simulate import sheet_problem, simulate

        problem = sheet_problem(args.sheet)  # (a sheet that cannot be read is one line, not a failure per game)
        if problem:
            print(f"rajas simulate: --sheet {args.sheet}: {problem}", file=sys.stderr)
            return 2
        with progress("games", args.games, shown) as played:
            result = simulate(
                args.players, args.games, seed=args.seed, sheet=args.sheet, bot=args.bot, check=not args.fast,
                played=played,
            )  # fmt: skip
    if args.json:
        print(json.dumps(result))
    else:
        samples = result.pop("error_samples")
        table(f"rajas simulate: {args.game}", result)
        for s in samples:
            print(s, file=sys.stderr)
    return 1 if result["errors"] else 0


def _arena(args: argparse.Namespace) -> int:
    from rajas.bench.arena import arena, table

    lineup = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.players is not None and args.players != len(lineup):
        print(f"rajas arena: --bots names {len(lineup)} bots, one a seat, not {args.players}", file=sys.stderr)
        return 2
    total = -(-args.games // max(1, len(lineup))) * len(lineup)  # (whole sets of rotations, as arena plays them)
    try:
        with progress("games", total, not args.json) as played:
            report = arena(
                lineup, args.games, seed=args.seed, sheet=args.sheet, budget=args.budget,
                progress=lambda _done, _total: played(1),
            )  # fmt: skip
    except ValueError as e:
        print(f"rajas arena: {e}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else table(report))
    return 0


def _count(text: str) -> int:
    """A count given on the command line: 1 or more."""
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: give 1 or more")
    return n


def _seconds(text: str) -> float:
    """A length of time given on the command line: more than 0."""
    x = float(text)
    if not x > 0:
        raise argparse.ArgumentTypeError(f"{text}: give more than 0")
    return x


def _serve(args: argparse.Namespace) -> int:
    from rajas.server.rooms.room import COMPONENTS
    from rajas.server.serve import serve

    try:
        settings = load({flag: getattr(args, flag, None) for flag in FIELDS})
    except ConfigError as e:
        print(f"rajas serve: {e}", file=sys.stderr)
        return 2
    COMPONENTS.limit = max(1, settings.sheet_cache)  # (its default is RAJAS_SHEET_CACHE)
    serve(settings)
    return 0


def _bots(args: argparse.Namespace) -> int:
    import asyncio

    from rajas.bench.bots import run_bots

    options: dict[str, object] = {"game": args.game}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value  # (a bare word: `--option sheet=moon`)
    with progress("games", args.games, not args.json) as played:
        result = asyncio.run(
            run_bots(
                args.url,
                players=args.players,
                games=args.games,
                spectators=args.spectators,
                concurrency=args.concurrency,
                options=options,
                timeout=args.timeout,
                played=played,
            )
        )
    if args.json:
        print(json.dumps(result))
    else:
        samples = result.pop("error_samples")
        table(f"rajas bots: {args.game} at {args.url}", result)
        for s in samples:
            print(s, file=sys.stderr)
    return 1 if result["errors"] or result["completed"] != result["games"] else 0


def _verify(args: argparse.Namespace) -> int:
    from rajas.server.fairness import LogError, load_log, verify

    try:
        report = verify(load_log(args.log), args.commitment, args.contribution)
    except (OSError, ValueError, LogError) as e:  # unreadable, not JSON, too large
        report = {"ok": False, "problems": [f"cannot read the log: {e}"], "decisions": 0, "rolls": 0}
    if args.json:
        print(json.dumps(report))
    else:
        print("ok" if report["ok"] else "FAILED")
        for problem in report["problems"]:
            print(problem, file=sys.stderr)
    return 0 if report["ok"] else 1


def _bench(args: argparse.Namespace) -> int:
    from rajas.bench.run import bench
    from rajas.bench.settings import BenchSettings, BenchSetupError

    settings = BenchSettings(
        rooms=args.rooms,
        rate=args.rate,
        seconds=args.seconds,
        workers=args.workers,
        store=args.store,
        fsync=args.fsync,
        nodes=args.nodes,
        baseline=not args.no_baseline,
        pin=args.pin,
        idle=args.idle,
        repeat=args.repeat,
        clients=args.clients,
        bare_text=args.bare_text,
        spectators=args.spectators,
        other_rooms=args.other_rooms,
        join_concurrency=args.join_concurrency,
        probes=args.probes,
        restart=args.restart,
    )
    try:
        with progress("benchmark (servers, clients, measured windows)", None, not args.json):
            report = bench(settings)
    except BenchSetupError as e:
        print(f"rajas bench: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report))
    else:
        table("rajas bench", report)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rajas", description="Rajas of the Ganges: The Dice Charmers, online.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play complete games with bots and report errors, length and speed")
    sim.add_argument("--game", default=DEFAULT, choices=sorted(GAMES))
    sim.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="2-5")
    sim.add_argument("--games", type=_count, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--sheet", default="sun", help="the Dice Charmers: sun, moon, or a path to a sheet file")
    sim.add_argument("--bot", default="random", choices=("random", "greedy"))
    sim.add_argument("--fast", action="store_true", help="skip the invariant checks after every decision")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=_simulate)

    are = sub.add_parser("arena", help="bots against bots in seat-balanced games: win shares with 95% intervals")
    are.add_argument("--bots", default="expert,greedy", help="one bot per seat, e.g. expert,greedy,greedy,greedy")
    are.add_argument("--players", type=int, default=None, choices=range(2, 6), metavar="2-5", help="checks --bots")
    are.add_argument("--games", type=_count, default=100, help="rounded up to whole sets of seat rotations")
    are.add_argument("--seed", type=int, default=0)
    are.add_argument("--sheet", default="sun", help="sun, moon, or a path to a sheet file")
    are.add_argument("--budget", type=_seconds, help="seconds an expert decision may take (default: none)")
    are.add_argument("--json", action="store_true", help="print one JSON object")
    are.set_defaults(func=_arena)

    srv = sub.add_parser("serve", help="run the game server (websocket /ws, HTTP /api, the web client at /)")
    # (no default: a flag left out leaves the environment's value, and `_serve` reads both, refusing a bad one)
    for flag, field in FIELDS.items():
        kind: Callable[[str], Any] = int if field.annotation is int else float if field.annotation is float else str
        srv.add_argument("--" + flag.replace("_", "-"), type=kind, default=None, help=help_for(flag))
    srv.set_defaults(func=_serve)

    bots = sub.add_parser("bots", help="play whole games against a server with bot clients over websockets")
    bots.add_argument("--url", default="http://127.0.0.1:8000")
    bots.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="2-5")
    bots.add_argument("--games", type=_count, default=10)
    bots.add_argument("--spectators", type=int, default=0)
    bots.add_argument("--game", default=DEFAULT, choices=sorted(GAMES))
    bots.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a setting of the game's own, e.g. sheet=moon (repeatable)")  # fmt: skip
    bots.add_argument("--concurrency", type=_count, default=4, help="tables (rooms) playing at the same time")
    bots.add_argument("--timeout", type=_seconds, default=300.0, help="seconds one game may take")
    bots.add_argument("--json", action="store_true", help="print one JSON object")
    bots.set_defaults(func=_bots)

    bench = sub.add_parser("bench", help="open-loop load against our server and a bare websockets baseline")
    bench.add_argument("--rooms", type=_count, default=1000, help="concurrent rooms of 5 players + 2 spectators")
    bench.add_argument("--rate", type=float, default=1.0, help="decisions per second per room (0: closed loop)")
    bench.add_argument("--seconds", type=_seconds, default=30.0, help="length of the measured window")
    bench.add_argument("--workers", type=_count, default=2, help="load generator processes")
    bench.add_argument("--store", choices=("memory", "redis"), default="memory")
    bench.add_argument("--fsync", choices=("always", "everysec"), default="always", help="Redis appendfsync")
    bench.add_argument("--nodes", type=int, default=1, help="server nodes sharing one Redis (--store redis)")
    bench.add_argument("--no-baseline", action="store_true", help="skip the bare websockets server")
    bench.add_argument(
        "--pin", action="store_true", help="server on CPU 0, load generators on the others (steadier figures)"
    )
    bench.add_argument("--idle", type=int, default=0, help="also open this many idle sockets to measure memory")
    bench.add_argument(
        "--repeat", type=int, default=1, help="runs of ours and the baseline, alternating; the median is reported"
    )
    bench.add_argument(
        "--clients",
        choices=("msgpack", "json"),
        default="msgpack",
        help="the frames the clients speak: msgpack binary, or JSON text as the browser client does",
    )
    bench.add_argument(
        "--bare-text",
        action="store_true",
        help="the baseline relays text frames of the mean size of the updates our clients got (else 2,000-byte binary)",
    )
    crowd = bench.add_argument_group("the watched final: one room, a crowd of spectators behind nginx (bench/crowd.py)")
    crowd.add_argument("--spectators", type=int, default=0, help="spectators of one room of 5 players (0: --rooms)")
    crowd.add_argument("--other-rooms", type=int, default=10, help="ordinary rooms on the same nodes meanwhile")
    crowd.add_argument("--join-concurrency", type=int, default=50, help="joins in flight per load process")
    crowd.add_argument("--probes", type=int, default=20, help="single joins timed at the start and at the end")
    crowd.add_argument("--restart", type=int, default=0, help="nodes killed and started again after the window")
    bench.add_argument("--json", action="store_true", help="one JSON object on one line (no progress, no table)")
    bench.set_defaults(func=_bench)

    ver = sub.add_parser("verify", help="replay a finished game's log and check the seed and every roll")
    ver.add_argument("log", help="a log file, or the URL of /api/rooms/CODE/log or of an archived game, /api/games/ID")
    ver.add_argument(
        "--commitment",
        help="the commitment you saw at the start of the game (the page shows it): a log with another is refused",
    )
    ver.add_argument("--contribution", help="your page's dice contribution: a log made without it is refused")
    ver.add_argument("--json", action="store_true")
    ver.set_defaults(func=_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
