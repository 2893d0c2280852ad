"""A room's series of games (rematch): what each seat did in the room's finished games, the table clients see,
and which entries of the room's game log belong to its current game.

Plain data, no Room: the counts live in the seats themselves ("wins", and the game's own "sums"), so they stay with a
seat through every rematch and leave with it; the game's number lives in the room's `match` record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rajas.server.rooms.frozen import FrozenDict

GAME_MARK = "game"  # a game log entry ["game", n] marks where game n of the room begins


def number(game: Mapping[str, Any] | None) -> int:
    """The number of the room's current (or last) game: 1 for the first."""
    return int(game.get("number", 1)) if game is not None else 1


def record(
    seats: Sequence[Mapping[str, Any]],
    result: Iterable[Mapping[str, Any]],
    sums: Callable[[Mapping[str, Any]], Mapping[str, float]],
) -> tuple[FrozenDict, ...]:
    """The seats with a finished game's result added: a win for every winner (a shared win is a win for each
    of its winners: docs/rules-decisions.md), and what the game adds to a seat's sums (`Game.series`: the Dice
    Charmers' overlap and fame) added."""
    out = [dict(s) for s in seats]
    for row in result:
        s = out[int(row["seat"])]
        s["wins"] = int(s.get("wins", 0)) + (1 if row["winner"] else 0)
        totals = dict(s.get("sums") or {})
        for key, value in sums(row).items():
            totals[key] = round(totals.get(key, 0) + value, 6)
        s["sums"] = FrozenDict(totals)
    return tuple(FrozenDict(s) for s in out)


def view(seats: Sequence[Mapping[str, Any]], game: Mapping[str, Any] | None, over: bool) -> dict[str, Any]:
    """The series table as clients see it (protocol SeriesView)."""
    n = number(game)
    return {
        "game": n,
        "played": n if over else n - 1,
        "seats": [
            {
                "id": s["id"],
                "name": s["name"],
                "wins": int(s.get("wins", 0)),
                **(s.get("sums") or {}),
            }
            for s in seats
        ],
    }


def start_mark(game: Mapping[str, Any] | None) -> list[Any]:
    """The game log entry a start writes first: the room's log holds every game of its series."""
    return [GAME_MARK, number(game)]


def current_entries(entries: list[Any]) -> list[Any]:
    """The entries of the room's game log that belong to its newest game: those after the last ["game", n]
    mark (a log written before marks existed is one game's)."""
    for i in range(len(entries) - 1, -1, -1):
        e = entries[i]
        if isinstance(e, list | tuple) and len(e) == 2 and e[0] == GAME_MARK:
            return entries[i + 1 :]
    return entries
