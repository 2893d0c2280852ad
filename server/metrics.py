"""Prometheus metrics of one node, rendered by hand in the text exposition format (no dependency).

One `Metrics` per app, so two nodes in one test process keep their own figures. Counters only grow;
gauges that can be read off the hub (connections, rooms, timers) are computed when scraped.
"""

from __future__ import annotations

import importlib.util
import os
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable

# Decision latency is sub-millisecond when healthy; the upper buckets catch a stalled store.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GC_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
# The limits of docs/security.md, as `rajas_limit_refusals_total{limit=...}` names them.
LIMITS = (
    "body",  # an HTTP body past RAJAS_MAX_BODY (413 too_large)
    "head",  # a request line and headers past RAJAS_MAX_HEAD (431 too_large)
    "handshake_timeout",  # a request not whole within RAJAS_HANDSHAKE_TIMEOUT (408 request_timeout)
    "rooms_per_address",  # RAJAS_ROOMS_PER_MINUTE (too_many_rooms)
    "rooms_total",  # RAJAS_MAX_ROOMS (server_full)
    "connections_per_address",  # RAJAS_CONNS_PER_ADDRESS (429 too_many_connections)
    "message_rate",  # a message over RAJAS_RATE/RAJAS_BURST (rate_limited)
    "control_rate",  # a ping or other control frame over the same rate (left unanswered)
    "strikes",  # connections closed (1008) after RAJAS_STRIKES refused messages
    "queue",  # slow clients dropped (4008) past RAJAS_QUEUE frames or RAJAS_QUEUE_BYTES bytes
    "chat_rate",  # a chat line over RAJAS_CHAT_PER_MINUTE (chat_rate_limited)
    "chat_spectators_rate",  # a spectator's chat line over RAJAS_CHAT_SPECTATORS_PER_MINUTE (chat_rate_limited)
)
_CLK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _labels(pairs: Iterable[tuple[str, str]]) -> str:
    inner = ",".join(f'{k}="{v}"' for k, v in pairs)
    return "{" + inner + "}" if inner else ""


class Counter:
    def __init__(self, name: str, help: str, label: str | None = None) -> None:
        self.name, self.help, self.label = name, help, label
        self.values: dict[str, float] = {}
        if label is None:
            self.values[""] = 0.0

    def inc(self, key: str = "", by: float = 1.0) -> None:
        self.values[key] = self.values.get(key, 0.0) + by

    def value(self, key: str = "") -> float:
        return self.values.get(key, 0.0)

    def render(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        for key, v in sorted(self.values.items()):
            pairs = [(self.label, key)] if self.label else []
            out.append(f"{self.name}{_labels(pairs)} {v:g}")
        return out


class Histogram:
    def __init__(self, name: str, help: str, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.name, self.help, self.buckets = name, help, buckets
        self.counts = [0] * (len(buckets) + 1)  # the last one is +Inf
        self.sum = 0.0
        self.count = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.buckets, seconds)] += 1
        self.sum += seconds
        self.count += 1

    def render(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        running = 0
        for bound, n in zip((*self.buckets, float("inf")), self.counts, strict=True):
            running += n
            le = "+Inf" if bound == float("inf") else f"{bound:g}"
            out.append(f'{self.name}_bucket{{le="{le}"}} {running}')
        out.append(f"{self.name}_sum {self.sum:.6f}")
        out.append(f"{self.name}_count {self.count}")
        return out


def compiled() -> bool:
    """Whether this process runs the server's modules compiled by mypyc (setup.py) or as pure Python: the
    same behaviour, but not the same CPU per decision, so /health, /metrics and `rajas bench` say which."""
    spec = importlib.util.find_spec("rajas.server.rooms.hub")
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")


class Metrics:
    def __init__(self, node: str) -> None:
        self.node = node
        self.compiled = compiled()
        self.started = time.time()
        self.connections_total = Counter("rajas_connections_opened_total", "websocket connections accepted")
        self.messages = Counter("rajas_messages_received_total", "client messages received")
        self.decisions = Counter("rajas_decisions_total", "decisions committed by this node", "by")
        self.commits = Counter("rajas_commits_total", "room changes committed by this node")
        self.undos = Counter("rajas_undos_total", "decisions taken back by their players (undo within the turn)")
        self.conflicts = Counter("rajas_commit_conflicts_total", "commits retried: another node was first")
        self.errors = Counter("rajas_errors_total", "messages refused, by error code", "code")
        self.updates = Counter("rajas_updates_delivered_total", "update frames queued to local connections")
        self.update_bytes = Counter("rajas_update_bytes_total", "bytes of update messages committed")
        self.dropped = Counter("rajas_slow_clients_dropped_total", "connections dropped for a full queue")
        self.takeovers = Counter("rajas_takeovers_total", "stalled rooms this node took over", "kind")
        self.contributions = Counter(
            "rajas_dice_contributions_total",
            "seats' dice contributions fixed when games started: by a player's page, or by the bot (none was sent)",
            "by",
        )
        self.seat_changes = Counter(
            "rajas_seat_changes_total",
            "seats during play: away, back, bot_took_over, bot_now (the host), left_game, seat_moved, seat_taken_over",
            "kind",
        )
        self.store_errors = Counter("rajas_store_errors_total", "store calls that failed (e.g. Redis down)")
        self.store_reconnects = Counter(
            "rajas_store_reconnects_total", "times this node's room feed lost Redis and reconnected (a Redis restart)"
        )
        self.latency = Histogram(
            "rajas_decision_seconds", "a player's decision: frame received to update committed and queued"
        )
        self.gc_pauses = Histogram(
            "rajas_gc_pause_seconds",
            "pauses of Python's cyclic garbage collector: every room on the node waits for them",
            GC_BUCKETS,
        )
        # ---- limits against hostile clients (docs/security.md): one sample per limit, 0 until it refuses ----
        self.limit_refusals = Counter(
            "rajas_limit_refusals_total", "requests, connections, rooms and frames refused by a limit", "limit"
        )
        for limit in LIMITS:
            self.limit_refusals.inc(limit, 0.0)
        # ----
        self.gauges: list[tuple[str, str, Callable[[], Iterable[tuple[str, float]]]]] = []
        self.extra: list[Counter] = []  # counters of optional parts (turn e-mails), rendered after the rest
        # ---- room state: shared snapshots, refusals checked against the store ----
        self.snapshots_shared = Counter(
            "rajas_snapshots_shared_total", "snapshots sent from the room's packed copy instead of built again"
        )
        self.snapshot_sheets_skipped = Counter(
            "rajas_snapshot_sheets_skipped_total", "snapshots sent without the sheet: the client had it (digest)"
        )
        self.chat_lines = Counter("rajas_chat_lines_total", "chat lines sent through this node", "by")
        self.stale_refusals_avoided = Counter(
            "rajas_stale_refusals_avoided_total", "refusals not made: the store had a newer room than this node's copy"
        )
        # ---- issue 17 (rematch): the table's changes ----
        self.table = Counter("rajas_table_changes_total", "rematches, and bot seats added or removed", "what")
        for what in ("rematch", "add_bot", "remove_bot"):
            self.table.inc(what, 0.0)

    def gauge(self, name: str, help: str, read: Callable[[], Iterable[tuple[str, float]]]) -> None:
        """`read` yields (label pairs as text, value) when scraped; label text '' for none."""
        self.gauges.append((name, help, read))

    def render(self) -> str:
        lines = [
            "# HELP rajas_node_info this node",
            "# TYPE rajas_node_info gauge",
            f'rajas_node_info{{node="{self.node}",compiled="{str(self.compiled).lower()}"}} 1',
        ]
        for name, help, read in self.gauges:
            lines += [f"# HELP {name} {help}", f"# TYPE {name} gauge"]
            lines += [f"{name}{labels} {value:g}" for labels, value in read()]
        for c in (
            self.connections_total,
            self.messages,
            self.decisions,
            self.commits,
            self.undos,
            self.conflicts,
            self.errors,
            self.updates,
            self.update_bytes,
            self.dropped,
            self.takeovers,
            self.contributions,
            self.seat_changes,
            self.store_errors,
            self.store_reconnects,
            self.snapshots_shared,
            self.snapshot_sheets_skipped,
            self.stale_refusals_avoided,
            self.chat_lines,
            self.table,
            *self.extra,
        ):
            lines += c.render()
        lines += self.limit_refusals.render()
        lines += self.latency.render()
        lines += self.gc_pauses.render()
        lines += _process()
        return "\n".join(lines) + "\n"


def watch_gc(histogram: Histogram) -> Callable[[str, dict[str, int]], None]:
    """Times each cyclic-GC pass into `histogram` (call `gc.callbacks.append` with the result)."""
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            histogram.observe(time.perf_counter() - started[0])

    return callback


def _process() -> list[str]:
    """The standard process_* metrics, from /proc (Linux); nothing elsewhere."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / _CLK
        rss = int(fields[21]) * _PAGE
        fds = len(os.listdir("/proc/self/fd"))
    except (OSError, IndexError, ValueError):
        return []
    return [
        "# HELP process_cpu_seconds_total user and system CPU time",
        "# TYPE process_cpu_seconds_total counter",
        f"process_cpu_seconds_total {cpu:g}",
        "# HELP process_resident_memory_bytes resident memory",
        "# TYPE process_resident_memory_bytes gauge",
        f"process_resident_memory_bytes {rss}",
        "# HELP process_open_fds open file descriptors",
        "# TYPE process_open_fds gauge",
        f"process_open_fds {fds}",
    ]
