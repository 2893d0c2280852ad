"""The JSON text of the game state's head and of a player's sheet as clients see them (server/views.py's
`state_head` and `player_view` written with `to_json`), written straight from the engine's state: `apply`
replaces a part it changes and shares the others (a copied player keeps its tuples), so each part's text is kept
while its object is the same one (an int or a str while it is equal) and only the replaced parts are written.
tests/server/test_json_updates.py checks the text against `to_json` of the views at every step of games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rajas.games.dice_charmers.engine import GameState
from rajas.games.dice_charmers.engine.effects import CHARACTERS, GOODS
from rajas.games.dice_charmers.engine.state import PlayerState, bit_members, by_source, named
from rajas.games.dice_charmers.engine.tracks import overlap_float
from rajas.server.rooms.json_text import dumps, string

_NOTHING = object()  # (what no part is: the first call writes every part)


class Parts:
    """One slot's parts (a seat's sheet, a room's head): each the last object seen in its place and its text."""

    __slots__ = ("_kept",)

    def __init__(self, n: int) -> None:
        self._kept: list[tuple[object, str]] = [(_NOTHING, "")] * n

    def same(self, i: int, part: object, write: Callable[[Any], str]) -> str:
        """The text of `part` (`write(part)`), written again only when it is not the object last seen at `i`."""
        got = self._kept[i]
        if got[0] is part:
            return got[1]
        text = write(part)
        self._kept[i] = (part, text)
        return text

    def equal(self, i: int, part: Any, write: Callable[[Any], str]) -> str:
        """The same for an int (a new int object of the same value is common) or a tuple key, kept while it is
        equal and of the same type (a tuple compares its items by identity first: the same sheet object is not
        compared further)."""
        got = self._kept[i]
        if type(got[0]) is type(part) and got[0] == part:
            return got[1]
        text = write(part)
        self._kept[i] = (part, text)
        return text


def _goods(t: tuple[int, ...]) -> str:
    return dumps(named(GOODS, t))


def _characters(t: tuple[int, ...]) -> str:
    return dumps(named(CHARACTERS, t))


def _sources(t: tuple[int, ...]) -> str:
    return dumps(by_source(t))


def _bits(n: int) -> str:
    return dumps(bit_members(n))


SHEET_PARTS = 10  # fame_from, money_from, circled, sold, palace, levels, river, roads, edges_taken, overlap


def sheet_text(kept: Parts, state: GameState, p: PlayerState) -> str:
    """`to_json(player_view(state, p))`, with the parts kept in `kept` (one seat's, of SHEET_PARTS)."""
    fame, money = p.fame, p.money
    return "".join(
        ['{"fame":', str(fame), ',"money":', str(money),
         ',"fame_by_source":', kept.same(0, p.fame_from, _sources),
         ',"money_by_source":', kept.same(1, p.money_from, _sources),
         ',"karma_gained":', str(p.karma_gained), ',"karma_used":', str(p.karma_used),
         ',"circled":', kept.same(2, p.circled, _goods), ',"sold":', kept.same(3, p.sold, _goods),
         ',"palace":', kept.same(4, p.palace, _characters), ',"levels":', kept.same(5, p.levels, dumps),
         ',"river":', kept.equal(6, p.river, _bits), ',"roads":', kept.same(7, p.roads, dumps),
         ',"edges_taken":', kept.equal(8, p.edges_taken, _bits),
         ',"overlap":', _overlap(kept, state, fame, money), "}"]
    )  # fmt: skip


def _overlap(kept: Parts, state: GameState, fame: int, money: int) -> str:
    """The sheet's `overlap`, kept while the sheet, fame and money are the same."""
    return kept.equal(9, (state.sheet, fame, money), _overlap_text)


def _overlap_text(key: tuple[Any, ...]) -> str:
    return dumps(overlap_float(key[0], key[1], key[2]))


HEAD_PARTS = 8  # sheet, order, faces, where, reroll, stack, pool, result


def head_text(kept: Parts, state: GameState) -> str:
    """`to_json(state_head(state))` without its closing brace, with the parts kept in `kept` (of HEAD_PARTS)."""
    return "".join(
        [kept.same(0, state.sheet, _sheet), ',"round":', str(state.round), ',"start_player":', str(state.start_player),
         ',"order":', kept.same(1, state.order, dumps), ',"turn":', str(state.turn), ',"phase":', string(state.phase),
         ',"faces":', kept.same(2, state.faces, dumps), ',"where":', kept.same(3, state.where, dumps),
         ',"reroll":', kept.same(4, state.reroll, _reroll), ',"stack":', kept.same(5, state.stack, dumps),
         ',"pool":', kept.same(6, state.pool, dumps), ',"end_after":', str(state.end_after),
         ',"result":', kept.same(7, state.result, dumps), ',"step":', str(state.step)]
    )  # fmt: skip


def _sheet(sheet: Any) -> str:
    return '{"sheet":' + string(sheet.name) + ',"sheet_digest":' + string(sheet.digest)


def _reroll(reroll: tuple[int, int] | None) -> str:
    return dumps(reroll or None)  # (as state_head: an empty reroll is none)
