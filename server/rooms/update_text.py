"""The JSON text of a commit's update, for JSON text clients (the browser): the same text as the packed update
decoded and written as JSON, built from the commit's plain data instead. Every player whose sheet did not
change keeps its text from the update before; a changed sheet and the game state's head are written from the
engine's state part by part (server/state_text.py), each part's text kept while it is the same object; the room
view's text is kept while the packed view is the same object."""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import GameState, pending
from rajas.games.dice_charmers.engine.state import PlayerState
from rajas.protocol import unpack
from rajas.server.rooms.json_text import dumps
from rajas.server.rooms.state_text import HEAD_PARTS, SHEET_PARTS, Parts, head_text, sheet_text

Made = tuple[GameState, dict[str, Any]]  # a commit's state and its pending decisions


class UpdateText:
    """Makes one room's update texts; each keeps what it wrote for the next."""

    __slots__ = ("_head", "_room", "_sheets", "_texts")

    def __init__(self) -> None:
        self._texts: list[tuple[PlayerState, str]] = []  # each player of the last text made, with its text
        self._sheets: list[Parts] = []  # per seat: its sheet's parts' texts
        self._head = Parts(HEAD_PARTS)
        self._room: tuple[bytes, str] | None = None  # the last room view (packed), with its text

    def update(
        self,
        state: GameState | None,
        base: GameState | None,
        undo: int,
        v: int,
        now: float,
        events: list[Any],
        room_view: bytes,
        made: Made | None,
    ) -> str:
        """The text of `update(v, now, events, room_view, game)` (server/encoding.py), where game is the view
        of `state` with `null` for each player who is the very same as in `base`. `made`: the last commit's
        state and its pending decisions, reused when they are this state's."""
        got = self._room
        if got is None or got[0] is not room_view:
            got = self._room = (room_view, dumps(unpack(room_view)))
        # (json writes an int and a float as their repr; joined, not an f-string with !r, which compiled code
        # makes a str.format call that parses the template every time)
        game = self._game(state, base, undo, made)
        return "".join(
            ['{"type":"update","v":', str(v), ',"time":', repr(now), ',"events":', dumps(events), ',"room":', got[1],
             ',"game":', game, "}"]
        )  # fmt: skip

    def _game(self, state: GameState | None, base: GameState | None, undo: int, made: Made | None) -> str:
        """The text of the game view ({pending, undo, state}) as the encoder's `commit` packs it."""
        if state is None:
            return "null"
        waiting = made[1] if made is not None and made[0] is state else pending(state)
        before = self._texts
        kept: list[tuple[PlayerState, str]] = []
        for i, p in enumerate(state.players):
            if i < len(before) and before[i][0] is p:
                kept.append(before[i])
                continue
            while len(self._sheets) <= i:
                self._sheets.append(Parts(SHEET_PARTS))
            kept.append((p, sheet_text(self._sheets[i], state, p)))
        self._texts = kept
        was = base.players if base is not None else ()
        players = ",".join(["null" if i < len(was) and was[i] is p else t for i, (p, t) in enumerate(kept)])
        return "".join(
            ['{"pending":', dumps(waiting), ',"undo":', str(undo), ',"state":', head_text(self._head, state),
             ',"players":[', players, "]}}"]
        )  # fmt: skip
