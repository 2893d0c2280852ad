"""Structured logs: one JSON object per line (or plain text), the same for our loggers and uvicorn's.

Fields passed as `extra={...}` become keys of the object, so `log.info("game over", extra={"room": c})`
gives `{"ts": ..., "level": "info", "logger": "rajas.server", "msg": "game over", "room": "...", "node": ...}`.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message", "taskName"}


class JsonFormatter(logging.Formatter):
    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "node": self.node,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        extra = " ".join(
            f"{k}={v}" for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")
        )
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(record.created))
        line = f"{when} {record.levelname.lower():7} {self.node} {record.name}: {record.getMessage()}"
        line = f"{line} {extra}" if extra else line
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class Gate:
    """Lets one thing through per `every` seconds and counts the ones it held back (e.g. tracebacks)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last = -every
        self.held = 0

    def allow(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.every:
            self.held += 1
            return False
        self.last = now
        return True

    def take(self) -> int:
        """How many were held back since the last one let through (and starts counting again)."""
        held, self.held = self.held, 0
        return held


class RateFilter(logging.Filter):
    """A ceiling on log lines per second for the whole process (a token bucket): whatever a client manages to
    make the node log, the log grows by at most `rate` lines a second. Lines over it are counted, not written;
    the next line written says how many were dropped."""

    dropped_total = 0  # since start, for /metrics

    def __init__(self, rate: float = 50.0, burst: float = 500.0) -> None:
        super().__init__()
        self.rate, self.burst = rate, burst
        self.allowance = burst
        self.last = time.monotonic()
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now
        if self.allowance < 1:
            self.dropped += 1
            RateFilter.dropped_total += 1
            return False
        self.allowance -= 1
        if self.dropped:
            record.dropped_lines = self.dropped
            self.dropped = 0
        return True


def setup(level: str, fmt: str, node: str, rate: float = 50.0) -> None:
    """Routes our and uvicorn's loggers to one stderr handler in the chosen format, at most `rate` lines/s."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(node) if fmt == "json" else TextFormatter(node))
    handler.addFilter(RateFilter(rate, 10 * rate))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    quiet = max(logging.getLevelName(level.upper()), logging.WARNING)  # not a line per websocket opened
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
        lg.setLevel(quiet)
