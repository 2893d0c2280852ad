"""The JSON text of a commit's update, for JSON text clients (the browser): the same text as the packed update
decoded and written as JSON, built from the commit's plain data instead. Every player whose sheet did not
change keeps its text from the update before; a changed sheet and the game state's head are written field by
field (server/json_text.py), each field's text kept while it stays the same; the room view's text is kept
while the packed view is the same object."""

from __future__ import annotations

from typing import Any

from rajas.engine import GameState, pending
from rajas.engine.state import PlayerState
from rajas.protocol import unpack

from .json_text import Fields, dumps
from .views import player_view, state_head


class UpdateText:
    """Makes one room's update texts; each keeps what it wrote for the next."""

    __slots__ = ("_head", "_room", "_sheets", "_texts")

    def __init__(self) -> None:
        self._texts: list[tuple[PlayerState, str]] = []  # each player of the last text made, with its text
        self._sheets: list[Fields] = []  # per seat: its sheet's fields' texts
        self._head = Fields()
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
        made: tuple[GameState, dict[str, Any], list[tuple[PlayerState, dict[str, Any]]]] | None,
    ) -> str:
        """The text of `update(v, now, events, room_view, game)` (server/encoding.py), where game is the view
        of `state` with `null` for each player who is the very same as in `base`. `made`: the last commit's
        state, its pending decisions and the sheets it converted, reused when they are this state's."""
        got = self._room
        if got is None or got[0] is not room_view:
            got = self._room = (room_view, dumps(unpack(room_view)))
        # (what json writes for an int and a float: their repr)
        return (
            f'{{"type":"update","v":{v!r},"time":{now!r},"events":{dumps(events)},'
            f'"room":{got[1]},"game":{self._game(state, base, undo, made)}}}'
        )

    def _game(
        self,
        state: GameState | None,
        base: GameState | None,
        undo: int,
        made: tuple[GameState, dict[str, Any], list[tuple[PlayerState, dict[str, Any]]]] | None,
    ) -> str:
        """The text of the game view ({pending, undo, state}) as the encoder's `commit` packs it."""
        if state is None:
            return "null"
        ours = made is not None and made[0] is state
        waiting = made[1] if made is not None and ours else pending(state)
        views = made[2] if made is not None and ours else []
        before = self._texts
        kept: list[tuple[PlayerState, str]] = []
        for i, p in enumerate(state.players):
            if i < len(before) and before[i][0] is p:
                kept.append(before[i])
                continue
            view: dict[str, Any] | None = None
            for q, d in views:
                if q is p:
                    view = d
            while len(self._sheets) <= i:
                self._sheets.append(Fields())
            kept.append((p, self._sheets[i].text(view if view is not None else player_view(state, p))))
        self._texts = kept
        was = base.players if base is not None else ()
        players = ",".join(["null" if i < len(was) and was[i] is p else t for i, (p, t) in enumerate(kept)])
        return (
            f'{{"pending":{dumps(waiting)},"undo":{undo!r},'
            f'"state":{self._head.text(state_head(state), close=False)},"players":[{players}]}}}}'
        )
