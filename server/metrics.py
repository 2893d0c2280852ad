"""Prometheus metrics of one node, kept and rendered by prometheus-client.

One `Metrics` per app, each with a registry of its own, so two nodes in one test process keep their own figures.
Counters only grow; gauges that can be read off the hub (connections, rooms, timers) are computed when scraped.
`Counter` and `Histogram` here are thin handles over prometheus-client's, with the call shape the rest of the
server uses (`errors.inc(code)`, `latency.observe(seconds)`, `sent.value("failed")`).
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Iterable, Iterator

import prometheus_client
from prometheus_client import CollectorRegistry, ProcessCollector, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

# (a `_created` sample per counter doubles what a scrape reads)
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]

# Decision latency is sub-millisecond when healthy; the upper buckets catch a stalled store.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GC_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
# The limits a connection or a request meets before any budget of server/budget.py's Ledger (those add their own
# labels), as `rajas_limit_refusals_total{limit=...}` names them (docs/security.md, "Budgets").
LIMITS = (
    "body",  # an HTTP body past RAJAS_MAX_BODY (413 too_large)
    "head",  # a request line and headers past RAJAS_MAX_HEAD (431 too_large)
    "handshake_timeout",  # a request not whole within RAJAS_HANDSHAKE_TIMEOUT (408 request_timeout)
    "message_rate",  # a message over RAJAS_RATE/RAJAS_BURST (rate_limited)
    "control_rate",  # a ping or other control frame over the same rate (left unanswered)
    "strikes",  # connections closed (1008) after RAJAS_STRIKES refused messages
    "queue",  # slow clients dropped (4008) past RAJAS_QUEUE frames or RAJAS_QUEUE_BYTES bytes
    "after_close",  # frames a client sent after the node closed its connection (dropped unread)
    "games_per_room",  # a rematch past RAJAS_GAMES_PER_ROOM (too_many_games)
    "bot_rate",  # bot decisions that waited for RAJAS_BOT_RATE
    "mail_per_address",  # turn e-mails not sent: the address had RAJAS_MAIL_PER_ADDRESS_DAY today
    "mail_per_room",  # ... the room had sent RAJAS_MAIL_PER_ROOM_DAY today
    "confirmations_per_recipient",  # confirmation e-mails not sent: the address had RAJAS_CONFIRMATIONS_PER_DAY
    "mail_queue",  # e-mails dropped: the queue (RAJAS_MAIL_QUEUE) or the room's share of it was full
)


class Counter:
    """A counter, with one label or none; `inc(key, by)` adds to the sample of label value `key`."""

    def __init__(self, name: str, help: str, label: str | None = None) -> None:
        self.name, self.help, self.label = name, help, label
        self._metric = prometheus_client.Counter(name, help, [label] if label else [], registry=None)
        self._one = None if label else self._metric

    def inc(self, key: str = "", by: float = 1.0) -> None:
        one = self._one
        if one is not None:
            one.inc(by)
        else:
            self._metric.labels(key).inc(by)

    def value(self, key: str = "") -> float:
        for family in self._metric.collect():
            for sample in family.samples:
                if sample.name.endswith("_total") and (self.label is None or sample.labels.get(self.label) == key):
                    return float(sample.value)
        return 0.0

    def collect(self) -> Iterable[Metric]:
        return self._metric.collect()


class Histogram:
    def __init__(self, name: str, help: str, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.name, self.help = name, help
        self._metric = prometheus_client.Histogram(name, help, buckets=buckets, registry=None)

    def observe(self, seconds: float) -> None:
        self._metric.observe(seconds)

    @property
    def count(self) -> int:
        return int(next(s.value for s in next(iter(self._metric.collect())).samples if s.name.endswith("_count")))

    def collect(self) -> Iterable[Metric]:
        return self._metric.collect()


def compiled() -> bool:
    """Whether this process runs the server's modules compiled by mypyc (setup.py) or as pure Python: the
    same behaviour, but not the same CPU per decision, so /health, /metrics and `rajas bench` say which."""
    spec = importlib.util.find_spec("rajas.server.rooms.hub")
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")


Read = Callable[[], Iterable[tuple[str, float]]]


class _Node(Collector):
    """What a scrape reads of one node's Metrics: its info, its gauges (computed now), counters and histograms."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        info = GaugeMetricFamily("rajas_node_info", "this node", labels=["node", "compiled"])
        info.add_metric([m.node, str(m.compiled).lower()], 1)
        yield info
        for name, help, read in m.gauges:
            pairs = list(read())
            label = _label_name(pairs)
            family = GaugeMetricFamily(name, help, labels=[label] if label else None)
            for labels, value in pairs:
                family.add_metric([_label_value(labels)] if label else [], value)
            yield family
        for c in m.counters():
            yield from c.collect()


def _label_name(pairs: list[tuple[str, float]]) -> str | None:
    """The label of a gauge's samples, from their text `{kind="clock"}` (none when the text is empty)."""
    for labels, _ in pairs:
        if labels:
            return labels.strip("{}").split("=", 1)[0]
    return None


def _label_value(labels: str) -> str:
    return labels.strip("{}").split("=", 1)[1].strip('"')


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
        # ---- budgets (docs/security.md): one sample per limit, 0 until it refuses ----
        self.limit_refusals = Counter(
            "rajas_limit_refusals_total", "requests, connections, rooms, frames and mails refused by a budget", "limit"
        )
        for limit in LIMITS:
            self.limit_refusals.inc(limit, 0.0)
        self.rooms_ended = Counter(
            "rajas_rooms_ended_total",
            "rooms this node ended early: unjoined (expired), evicted (an idle lobby near the cap), idle (a turn-based "
            "game no person acted in), nobody (a game with no person seated)",
            "why",
        )
        for why in ("evicted", "idle", "nobody"):
            self.rooms_ended.inc(why, 0.0)
        # ----
        self.gauges: list[tuple[str, str, Read]] = []
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
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_Node(self))
        self.registry.register(ProcessCollector(registry=None))

    def gauge(self, name: str, help: str, read: Read) -> None:
        """`read` yields (label pair as text, e.g. '{kind="clock"}', value) when scraped; label text '' for none."""
        self.gauges.append((name, help, read))

    def counters(self) -> list[Counter | Histogram]:
        return [
            self.connections_total, self.messages, self.decisions, self.commits, self.undos, self.conflicts,
            self.errors, self.updates, self.update_bytes, self.dropped, self.takeovers, self.contributions,
            self.seat_changes, self.store_errors, self.store_reconnects, self.snapshots_shared,
            self.snapshot_sheets_skipped, self.stale_refusals_avoided, self.chat_lines, self.table, *self.extra,
            self.limit_refusals, self.rooms_ended, self.latency, self.gc_pauses,
        ]  # fmt: skip

    def render(self) -> str:
        return generate_latest(self.registry).decode()


def watch_gc(histogram: Histogram) -> Callable[[str, dict[str, int]], None]:
    """Times each cyclic-GC pass into `histogram` (call `gc.callbacks.append` with the result)."""
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            histogram.observe(time.perf_counter() - started[0])

    return callback
