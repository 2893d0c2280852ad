"""`rajas bench` works end to end (a tiny load: the figures of docs/benchmarks.md come from real runs)."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest
from rajas.bench.procs import core_share
from rajas.bench.run import bench, throughput
from rajas.bench.settings import BenchSettings, BenchSetupError


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_tiny_bench_delivers_every_decision_to_every_socket_against_both_servers() -> None:
    pin = (os.cpu_count() or 1) >= 2 and hasattr(os, "sched_setaffinity")
    report = bench(BenchSettings(rooms=3, rate=2.0, seconds=2.0, workers=1, pin=pin, repeat=2))
    assert report["machine"]["pinned"] is pin and report["clients"] == "msgpack"
    for target in ("ours", "bare"):
        run = report[target]
        assert run["refused"] == 0 and run["closed_sockets"] == 0
        assert run["decisions"] > 0 and run["deliveries"] == 7 * run["decisions"]  # 5 players + 2 spectators
        if pin:  # where the server's core went in the window
            assert set(run["server_core_percent"]) >= {"user", "system", "softirq", "steal", "idle"}
    assert len(report["pairs"]) == 2 and report["ratio"]["throughput"] is not None


def test_json_clients_speak_text_frames_as_the_browser_does_and_every_decision_reaches_every_socket() -> None:
    report = bench(BenchSettings(rooms=2, rate=2.0, seconds=2.0, workers=1, baseline=False, clients="json"))
    ours = report["ours"]
    assert report["clients"] == "json" and ours["clients"] == "json"
    assert ours["refused"] == 0 and ours["closed_sockets"] == 0
    assert ours["decisions"] > 0 and ours["deliveries"] == 7 * ours["decisions"]


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_text_baseline_relays_text_frames_of_the_size_of_our_json_updates() -> None:
    report = bench(BenchSettings(rooms=2, rate=2.0, seconds=2.0, workers=1, clients="json", bare_text=True))
    ours, bare = report["ours"], report["bare"]
    assert ours["update_bytes_mean"] > 500  # (a JSON update of a 5-player game: its room and game views)
    assert bare["clients"] == f"text frames, {ours['update_bytes_mean']} B"
    assert bare["refused"] == 0 and bare["decisions"] > 0 and bare["deliveries"] == 7 * bare["decisions"]


def test_flags_that_do_not_go_together_are_refused_before_anything_runs() -> None:
    with pytest.raises(BenchSetupError, match="--nodes > 1 needs --store redis"):
        bench(BenchSettings(rooms=3, nodes=2))
    with pytest.raises(BenchSetupError, match="--workers"):
        bench(BenchSettings(rooms=3, workers=0))
    with pytest.raises(BenchSetupError, match="--bare-text"):
        bench(BenchSettings(rooms=3, baseline=False, bare_text=True))


def test_the_settings_are_one_frozen_record() -> None:
    s = BenchSettings()
    assert (s.rooms, s.rate, s.clients, s.store) == (1000, 1.0, "msgpack", "memory")  # the defaults of the command
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.rooms = 5  # type: ignore[misc]


def test_throughput_counts_only_the_time_every_room_still_had_its_game() -> None:
    # Two generators, 10 s window: decisions at 0-9.9 s; the first game ends at 4 s.
    sent = [[ms for ms in range(0, 10_000, 100)], [ms for ms in range(50, 10_000, 100)]]
    results = [
        {"decisions": 100, "sent_ms": sent[0], "over_ms": [6_000]},
        {"decisions": 100, "sent_ms": sent[1], "over_ms": [4_000, 9_000]},
    ]
    assert throughput(results, 10.0) == (80 / 4, 4.0)
    for r in results:
        r["over_ms"] = []  # no game ended: the whole window counts
    assert throughput(results, 10.0) == (20.0, 10.0)


def test_the_server_cores_time_is_shared_out_in_percent() -> None:
    # user nice system idle iowait irq softirq steal, in ticks
    before = [100, 0, 50, 1000, 0, 0, 10, 5]
    after = [160, 0, 70, 1010, 0, 0, 15, 10]  # 100 ticks: 60 user, 20 system, 10 idle, 5 softirq, 5 steal
    share = core_share(before, after)
    assert share == {
        "user": 60.0, "system": 20.0, "idle": 10.0, "iowait": 0.0, "irq": 0.0, "softirq": 5.0, "steal": 5.0
    }


def test_the_commands_defaults_are_the_settings_defaults() -> None:
    from rajas.server.cli import build_parser

    args = build_parser().parse_args(["bench"])
    defaults = BenchSettings()
    for field in dataclasses.fields(BenchSettings):
        flag = "no_baseline" if field.name == "baseline" else field.name
        value = not getattr(args, flag) if field.name == "baseline" else getattr(args, flag)
        assert value == getattr(defaults, field.name), field.name


def test_the_server_does_not_import_the_tools() -> None:
    import subprocess
    import sys

    code = "import sys, rajas.server.app, rajas.server.cli; print(sorted(m for m in sys.modules if 'bench' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_json_generators_eyes_read_status_and_pending_as_a_full_decode_would() -> None:
    from rajas.bench.peek import eyes_view_json, head_json
    from rajas.games.dice_charmers.engine.bots import random_bot
    from rajas.protocol import to_json
    from rajas.protocol.messages import RoomSettings
    from rajas.server.rooms import changes, views
    from rajas.server.rooms.frozen import EMPTY
    from rajas.server.rooms.room import Room

    room = Room.create(RoomSettings(seats=2))
    for i in range(2):
        changes.take_seat(room, f'p"{i}', room.host_token if i == 0 else None)  # (a quote in a name)
    kept = views.RoomViews()
    bot = random_bot(2)
    for k in range(30):
        base = room
        room = room.clone()
        if k == 0:
            events = changes.start(room, 0.0)
        else:
            assert room.state is not None
            events, _ = changes.decide(room, room.state.current, bot(room.state).to_wire(), "player", 0.0)
        room.v += 1
        text = views.updates(kept, room, base, events, EMPTY, 1.5)[None].json
        full = json.loads(text)
        assert eyes_view_json(text) == (full["room"]["status"], full["game"]["pending"])
        assert head_json(text) == ("update", room.v)
    assert eyes_view_json(to_json({"type": "reply", "id": 1}).encode()) == (None, None)


@pytest.mark.slow
def test_the_watched_final_measures_joins_updates_and_a_crowd_coming_back_after_a_node_restart() -> None:
    """`rajas bench --spectators N` end to end, tiny: nginx in front of two nodes on Redis, one restarted."""
    s = BenchSettings(spectators=120, nodes=2, store="redis", other_rooms=1, seconds=2.0, probes=2, restart=1,
                      workers=1, join_concurrency=20)  # fmt: skip
    crowd = bench(s)["crowd"]
    assert crowd["one_join_at_start"]["spectators"] == 100 and crowd["one_join_at_end"]["spectators"] == 120
    assert crowd["one_join_at_start"]["join"]["n"] == 2 and crowd["one_join_ratio_end_to_start"] is not None
    assert crowd["crowd_join"]["spectators"] == 20 and crowd["crowd_join"]["join"]["n"] == 20
    updates = crowd["updates"]
    assert updates["decisions"] >= 1 and updates["deliveries"] == updates["expected"] == 120 * updates["decisions"]
    assert crowd["other_rooms_updates"]["n"] > 0
    end = crowd["end"]
    assert end["nothing_lost"], end  # every spectator back, at the room's version, shown 120; no update skipped
    restart = crowd["restart"]
    assert restart["nothing_lost"] and restart["reconnects"] > 0 and 0 < restart["settled_seconds"] < 60
    assert restart["updates_after_settling"]["deliveries"] == restart["updates_after_settling"]["expected"]


def test_the_watched_finals_flags_that_do_not_go_together_are_refused() -> None:
    with pytest.raises(BenchSetupError, match="--restart needs --store redis"):
        bench(BenchSettings(spectators=10, restart=1))
    with pytest.raises(BenchSetupError, match="not with --pin"):
        bench(BenchSettings(spectators=10, pin=True))
    with pytest.raises(BenchSetupError, match="--restart: how many"):
        bench(BenchSettings(spectators=10, store="redis", nodes=2, restart=3))
