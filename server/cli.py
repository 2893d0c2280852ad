"""The `rajas` command: simulate, serve, bots, verify, bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rajas.games.registry import DEFAULT, GAMES
from rajas.server.config import SERVE, ConfigError, env_default, help_for


def _simulate(args: argparse.Namespace) -> int:
    if args.game == "card_game":
        from rajas.games.card_game.simulate import simulate as simulate_cards

        if not 2 <= args.players <= 4:
            print("rajas simulate: the card game is for 2-4 players", file=sys.stderr)
            return 2
        result = simulate_cards(args.players, args.games, seed=args.seed, bot=args.bot, check=not args.fast)
        result.setdefault("error_samples", [])
    else:
        from rajas.bench.simulate import simulate

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


def _serve(args: argparse.Namespace) -> int:
    from rajas.server.edge.connection import Limits
    from rajas.server.rooms.room import COMPONENTS
    from rajas.server.serve import serve

    COMPONENTS.limit = max(1, args.sheet_cache)  # (the flag's default is RAJAS_SHEET_CACHE)

    if args.log_format not in ("json", "text"):
        print("rajas serve: --log-format is json or text", file=sys.stderr)
        return 2
    if args.transport not in ("fast", "standard"):
        print("rajas serve: --transport is fast or standard", file=sys.stderr)
        return 2
    if not 0 <= args.bot_pace < args.stall:  # (a paced bot must not look stalled to the other nodes)
        print("rajas serve: --bot-pace is 0 or more and less than --stall", file=sys.stderr)
        return 2
    limits = Limits(
        rate=args.rate,
        burst=args.burst,
        queue=args.queue,
        queue_bytes=args.queue_bytes,
        strikes=args.strikes,
        max_body=args.max_body,
        max_head=args.max_head,
        handshake_timeout=args.handshake_timeout,
        rooms_per_minute=args.rooms_per_minute,
        max_rooms=args.max_rooms,
        room_window=args.room_ttl,
        conns_per_address=args.conns_per_address,
        forwarded_allow_ips=args.forwarded_allow_ips,
        chat_per_minute=args.chat_per_minute,
        chat_spectators_per_minute=args.chat_spectators_per_minute,
    )
    serve(args, limits)
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
    result = asyncio.run(
        run_bots(
            args.url,
            players=args.players,
            games=args.games,
            spectators=args.spectators,
            concurrency=args.concurrency,
            options=options,
            timeout=args.timeout,
        )
    )
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
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
        report = bench(settings)
    except BenchSetupError as e:
        print(f"rajas bench: {e}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rajas", description="Rajas of the Ganges: The Dice Charmers, online.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play complete games with bots and report errors, length and speed")
    sim.add_argument("--game", default=DEFAULT, choices=sorted(GAMES))
    sim.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="2-5")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--sheet", default="sun", help="the Dice Charmers: sun, moon, or a path to a sheet file")
    sim.add_argument("--bot", default="random", choices=("random", "greedy"))
    sim.add_argument("--fast", action="store_true", help="skip the invariant checks after every decision")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=_simulate)

    srv = sub.add_parser("serve", help="run the game server (websocket /ws, HTTP /api, the web client at /)")
    for flag, (_, kind, _, _) in SERVE.items():
        try:
            default = env_default(flag)
        except ConfigError as e:
            parser.error(str(e))
        srv.add_argument("--" + flag.replace("_", "-"), type=kind, default=default, help=help_for(flag))
    srv.set_defaults(func=_serve)

    bots = sub.add_parser("bots", help="play whole games against a server with bot clients over websockets")
    bots.add_argument("--url", default="http://127.0.0.1:8000")
    bots.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="2-5")
    bots.add_argument("--games", type=int, default=10)
    bots.add_argument("--spectators", type=int, default=0)
    bots.add_argument("--game", default=DEFAULT, choices=sorted(GAMES))
    bots.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a setting of the game's own, e.g. sheet=moon (repeatable)")  # fmt: skip
    bots.add_argument("--concurrency", type=int, default=4, help="games played at the same time")
    bots.add_argument("--timeout", type=float, default=300.0, help="seconds one game may take")
    bots.add_argument("--json", action="store_true", help="print one JSON object")
    bots.set_defaults(func=_bots)

    bench = sub.add_parser("bench", help="open-loop load against our server and a bare websockets baseline")
    bench.add_argument("--rooms", type=int, default=1000, help="concurrent rooms of 5 players + 2 spectators")
    bench.add_argument("--rate", type=float, default=1.0, help="decisions per second per room (0: closed loop)")
    bench.add_argument("--seconds", type=float, default=30.0, help="length of the measured window")
    bench.add_argument("--workers", type=int, default=2, help="load generator processes")
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
    bench.add_argument("--json", action="store_true", help="one line")
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
