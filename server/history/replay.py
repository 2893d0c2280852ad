"""The replay viewer's server side: an archived game replayed with the engine, served a window of steps at a time.

The browser has no rules engine, so the server replays the log (the same way `rajas verify` does: every entry
goes through server/fairness.py's `LogStepper`) and serves the game at each step as the game shows a finished
game (`Game.replay_view`: everything, hands too, since the seed is revealed): step 0 is the game as it
started, step i the game after the log's i-th decision. Replays are kept in a bounded LRU, and only one
replay is computed at a time (off the event loop), so requests for many games cost waiting, never unbounded
work or memory. A step range is checked before anything is looked up.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import orjson
from rajas.games.interface import Components, Game, OptionsError, RulesError
from rajas.server.fairness import LogStepper, log_game
from rajas.server.storage.archive import HistoryError

MAX_INDEX = 10**6  # a step past this is refused at once (a game has a few hundred steps)


class Replay:
    """Every state of one archived game, with the log entry and events that led to it."""

    def __init__(
        self,
        gid: str,
        game: Game,
        components: Components,
        states: list[Any],
        entries: list[Any],
        events: list[list[Any]],
    ) -> None:
        self.gid = gid
        self.game = game
        self.components = components
        self.states = states
        self.entries = entries  # entries[i]: the decision that made states[i] (None for the start)
        self.events = events
        # Per step what the viewer steps by besides decisions (the Dice Charmers: [round, seat to decide]).
        self.marks = [game.replay_marks(s) for s in states]
        # Each step as JSON, made when first asked for: asking for the same steps again costs no work.
        self.encoded: list[bytes | None] = [None] * len(states)
        self._outline: bytes | None = None

    def __len__(self) -> int:
        return len(self.states)

    def step(self, i: int) -> dict[str, Any]:
        shown = self.game.replay_view(self.states[i])
        entry = self.entries[i]
        return {
            "step": i,
            "state": shown["state"],
            # What was to be decided (without the options: nothing in the viewer decides).
            "pending": {k: v for k, v in shown["pending"].items() if k != "options"},
            "decision": list(entry[:3]) if entry is not None else None,
            "events": self.events[i],
        }

    def outline(self) -> bytes:
        """What the viewer needs once, as JSON: the game, its components (the sheet file), each step's marks and
        the events that made it (the log beside the sheets), without the states."""
        if self._outline is None:
            self._outline = orjson.dumps(
                {"id": self.gid, "game": self.game.id, "total": len(self.states),
                 "sheet": self.components.to_json(), "events": self.events, "marks": self.marks}
            )  # fmt: skip
        return self._outline

    def ready(self, lo: int, hi: int) -> bool:
        """Whether steps lo..hi are encoded already (then `window` does no engine work)."""
        return all(e is not None for e in self.encoded[lo : hi + 1])

    def window(self, lo: int, hi: int) -> bytes:
        """Steps lo..hi (cut at the game's end) as the JSON answer of GET /api/games/ID/steps."""
        if lo >= len(self.states):
            raise HistoryError("bad_range", f"the game has steps 0 to {len(self.states) - 1}")
        hi = min(hi, len(self.states) - 1)
        parts = []
        for i in range(lo, hi + 1):
            got = self.encoded[i]
            if got is None:
                got = self.encoded[i] = orjson.dumps(self.step(i))
            parts.append(got)
        head = orjson.dumps({"id": self.gid, "total": len(self.states), "marks": self.marks})
        return head[:-1] + b',"steps":[' + b",".join(parts) + b"]}"


def replay_log(gid: str, log: dict[str, Any]) -> Replay:
    """Replays an archived log with its game's rules (synchronous: run it off the event loop)."""
    try:
        game, components = log_game(log)
        values = [c["value"] for c in log["contributions"]]
        state, events = game.setup(len(log["players"]), log["seed"], values, components)
        states, entries, evs = [state], [None], [list(events)]
        stepper = LogStepper(game, state)
        for entry in log["decisions"]:
            events = stepper.step(entry)
            states.append(stepper.state)
            entries.append(entry)
            evs.append(list(events))
    except (RulesError, OptionsError, KeyError, TypeError, ValueError, IndexError) as e:
        raise HistoryError("replay_failed", f"the archived game cannot be replayed: {e}") from None
    return Replay(gid, game, components, states, entries, evs)


class Replays:
    """Replayed games, the least recently used forgotten first; one replay computed at a time."""

    def __init__(self, size: int, max_steps: int) -> None:
        self.size = max(1, size)
        self.max_steps = max(1, max_steps)
        self.cache: OrderedDict[str, Replay] = OrderedDict()
        self.computed = 0
        self._one = asyncio.Lock()

    def __len__(self) -> int:
        return len(self.cache)

    def bounds(self, first: str | None, last: str | None) -> tuple[int, int]:
        """The step range asked for (from, to; both included), checked: numbers, in order, at most max_steps."""
        lo = self._index(first, 0)
        hi = self._index(last, lo + self.max_steps - 1)
        if hi < lo:
            raise HistoryError("bad_range", "`to` comes before `from`")
        if hi - lo + 1 > self.max_steps:
            raise HistoryError("bad_range", f"at most {self.max_steps} steps per request")
        return lo, hi

    @staticmethod
    def _index(text: str | None, default: int) -> int:
        if text is None or text == "":
            return default
        if len(text) > 7 or not text.isascii() or not text.isdigit() or int(text) > MAX_INDEX:
            raise HistoryError("bad_range", "a step is a whole number from 0")
        return int(text)

    def cached(self, gid: str) -> Replay | None:
        got = self.cache.get(gid)
        if got is not None:
            self.cache.move_to_end(gid)
        return got

    async def replay(self, gid: str, log: dict[str, Any]) -> Replay:
        async with self._one:
            got = self.cached(gid)  # (replayed while this request waited)
            if got is not None:
                return got
            got = await asyncio.to_thread(replay_log, gid, log)
            self.computed += 1
            self.cache[gid] = got
            while len(self.cache) > self.size:
                self.cache.popitem(last=False)
            return got
