"""Game and player state: plain fields, cheap copies, lossless conversion to plain data.

A state the engine returns is read-only by construction: every sequence in it is a tuple, so an attempt to
change one in place raises `TypeError` instead of silently changing every room, clone and cache that shares
it. The engine changes only the fresh copy it is building, and replaces a sequence rather than editing it
(`replaced`, `pushed`, `popped`, `without`). Two private fields are memos derived from the rest (`_legal`,
`_frontier`): filling them in later changes nothing a reader can see."""

from __future__ import annotations

from typing import Any

from rajas.games.rng import state_from_wire, state_to_wire

from .effects import CHARACTERS, GOODS, SOURCES, Effect
from .sheet import Sheet

MIDDLE = -1
ELEPHANT = -2

PHASE_PICK = "pick"  # choose a die, spend karma, or pass
PHASE_REROLL = "reroll"  # after karma: keep one of the two rolled dice, or spend karma again
PHASE_RESOLVE = "resolve"  # carry out the die action and the bonuses it released
PHASE_OVER = "over"


class PlayerState:
    """One player's sheet, as the marks on it."""

    __slots__ = (
        "_frontier",
        "circled",
        "edges_taken",
        "fame",
        "fame_from",
        "karma_gained",
        "karma_used",
        "levels",
        "money",
        "money_from",
        "palace",
        "river",
        "roads",
        "sold",
    )

    fame: int
    money: int
    fame_from: tuple[int, ...]  # fame by source (tracks.SOURCES), for the end-of-game breakdown
    money_from: tuple[int, ...]  # money by source, likewise
    karma_gained: int  # karma circled, the starting one included
    karma_used: int  # karma crossed out
    circled: tuple[int, ...]  # per good: goods circled so far (left to right)
    sold: tuple[int, ...]  # per good: goods crossed out (sold) so far (left to right)
    palace: tuple[int, ...]  # per character: spaces crossed out
    levels: tuple[int, ...]  # per building type: its current fame value in the upgrade table
    river: int  # bit i set: river space i marked
    roads: tuple[int, ...]  # per province space: mask of road arms drawn there
    edges_taken: int  # bit i set: edge bonus slot i already received
    _frontier: dict[int, int] | None  # cache of province.frontier; valid until a road is drawn, never mutated

    @classmethod
    def new(cls, sheet: Sheet) -> PlayerState:
        p = cls()
        p.fame = 0
        p.money = 0
        p.fame_from = (0,) * len(SOURCES)
        p.money_from = (0,) * len(SOURCES)
        p.karma_gained = sheet.karma_start
        p.karma_used = 0
        p.circled = (0, 0, 0)
        p.sold = (0, 0, 0)
        p.palace = (0,) * len(CHARACTERS)
        p.levels = (1,) * len(sheet.buildings)
        p.river = 0
        p.roads = replaced((0,) * (sheet.rows * sheet.cols), sheet.residence, sheet.residence_arms)
        p.edges_taken = 0
        p._frontier = None
        return p

    def copy(self) -> PlayerState:
        """A copy whose fields the engine may replace (its tuples are shared: they are never changed)."""
        p = PlayerState.__new__(PlayerState)  # (skips __init__: every slot is set right after)
        p.fame = self.fame
        p.money = self.money
        p.fame_from = self.fame_from
        p.money_from = self.money_from
        p.karma_gained = self.karma_gained
        p.karma_used = self.karma_used
        p.circled = self.circled
        p.sold = self.sold
        p.palace = self.palace
        p.levels = self.levels
        p.river = self.river
        p.roads = self.roads
        p.edges_taken = self.edges_taken
        p._frontier = self._frontier
        return p

    @property
    def karma(self) -> int:
        """Karma available to spend."""
        return self.karma_gained - self.karma_used

    @property
    def river_position(self) -> int:
        """The rightmost marked river space; -1 before the first space."""
        return self.river.bit_length() - 1

    def owned(self, good: int) -> int:
        return self.circled[good] - self.sold[good]

    def to_dict(self) -> dict[str, Any]:
        # (The server converts the deciding player after every decision: zip and bit loops are kept out.)
        return {
            "fame": self.fame,
            "money": self.money,
            "fame_by_source": by_source(self.fame_from),
            "money_by_source": by_source(self.money_from),
            "karma_gained": self.karma_gained,
            "karma_used": self.karma_used,
            "circled": named(GOODS, self.circled),
            "sold": named(GOODS, self.sold),
            "palace": named(CHARACTERS, self.palace),
            "levels": list(self.levels),
            "river": list(bit_members(self.river)),
            "roads": list(self.roads),
            "edges_taken": list(bit_members(self.edges_taken)),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PlayerState:
        p = cls()
        p.fame = int(d["fame"])
        p.money = int(d["money"])
        # (A state saved before the breakdown existed has none: its sources are unknown, counted as `bonus`.)
        p.fame_from = _counts(SOURCES, d.get("fame_by_source"), p.fame)
        p.money_from = _counts(SOURCES, d.get("money_by_source"), p.money)
        p.karma_gained = int(d["karma_gained"])
        p.karma_used = int(d["karma_used"])
        p.circled = tuple([int(d["circled"][g]) for g in GOODS])
        p.sold = tuple([int(d["sold"][g]) for g in GOODS])
        p.palace = tuple([int(d["palace"][c]) for c in CHARACTERS])
        p.levels = tuple([int(x) for x in d["levels"]])
        p.river = sum(1 << int(i) for i in d["river"])
        p.roads = tuple([int(x) for x in d["roads"]])
        p.edges_taken = sum(1 << int(i) for i in d["edges_taken"])
        p._frontier = None
        return p


def named(names: tuple[str, ...], values: tuple[int, ...]) -> dict[str, int]:
    """Counts by position as names and counts (goods, characters), as clients see them."""
    # (Not dict(zip(..., strict=True)): compiled, that is a generic call and this loop is native; the server
    # converts the deciding player after every decision.)
    return {names[i]: values[i] for i in range(len(names))}


def by_source(counts: tuple[int, ...]) -> dict[str, int]:
    """A player's fame or money by source, as names and amounts; the sources that gave nothing left out."""
    return {SOURCES[i]: counts[i] for i in range(len(SOURCES)) if counts[i]}


def _counts(names: tuple[str, ...], d: Any, total: int) -> tuple[int, ...]:
    if d is None:
        return replaced((0,) * len(names), names.index("bonus"), total)
    return tuple([int(d.get(n, 0)) for n in names])


# ---- replacing a part of a tuple (a state's sequences are never changed in place) ------------------------


def replaced(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    """`t` with item `i` set to `v`."""
    return t[:i] + (v,) + t[i + 1 :]  # noqa: RUF005 (concatenation: the faster of the two here)


def pushed(t: tuple[Effect, ...], e: Effect) -> tuple[Effect, ...]:
    """`t` with `e` added at its end (the top of a stack)."""
    return (*t, e)


def without(t: tuple[Effect, ...], i: int) -> tuple[Effect, ...]:
    """`t` without item `i`."""
    return t[:i] + t[i + 1 :]


_bit_lists: dict[int, tuple[int, ...]] = {}  # a bit set (river spaces, edges taken) -> its members


def bit_members(n: int) -> tuple[int, ...]:
    """The members of a bit set (river spaces, edges taken), in order."""
    got = _bit_lists.get(n)
    if got is None:
        if len(_bit_lists) >= 1 << 16:
            _bit_lists.clear()
        got = _bit_lists[n] = tuple(i for i in range(n.bit_length()) if n >> i & 1)
    return got


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(v) for v in x) if isinstance(x, list | tuple) else x


def _listify(x: Any) -> Any:
    return [_listify(v) for v in x] if isinstance(x, list | tuple) else x


class GameState:
    """The whole game between two decisions. Read-only once returned by the engine (see the module's note)."""

    __slots__ = (
        "_legal",
        "current",
        "end_after",
        "faces",
        "n",
        "order",
        "phase",
        "players",
        "pool",
        "reroll",
        "result",
        "rng",
        "round",
        "sheet",
        "stack",
        "start_player",
        "step",
        "turn",
        "where",
    )

    sheet: Sheet
    n: int
    rng: int
    round: int  # 1-based
    start_player: int  # who holds the elephant this round
    order: tuple[int, ...]  # seats taking turns this round, in order
    turn: int  # index into order
    current: int  # order[turn]: the seat that must decide now (the last to play once the game is over)
    phase: str
    faces: tuple[int, ...]  # per die: face index
    where: tuple[int, ...]  # per die: MIDDLE, ELEPHANT, or the seat whose depot holds it
    reroll: tuple[int, int] | None  # (die from the elephant, die from the middle) while rerolling
    stack: tuple[Effect, ...]  # the action being carried out now; last is next
    pool: tuple[Effect, ...]  # bonuses released this turn, used after the action in the player's order
    end_after: int  # turn index of this round after which the game ends; -1 while not triggered
    players: tuple[PlayerState, ...]
    result: tuple[dict[str, Any], ...] | None  # the final standings, best first
    step: int  # decisions applied so far
    _legal: Any

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def copy(self) -> GameState:
        """A copy whose current player and turn fields may be changed freely."""
        g = GameState.__new__(GameState)  # (skips __init__; Class.__new__, not object.__new__: see setup.py)
        g.sheet = self.sheet
        g.n = self.n
        g.rng = self.rng
        g.round = self.round
        g.start_player = self.start_player
        g.order = self.order
        g.turn = self.turn
        g.current = self.current
        g.phase = self.phase
        g.faces = self.faces
        g.where = self.where
        g.reroll = self.reroll
        g.stack = self.stack
        g.pool = self.pool
        g.end_after = self.end_after
        cur = self.current
        players = list(self.players)
        players[cur] = players[cur].copy()
        g.players = tuple(players)
        g.result = self.result
        g.step = self.step
        g._legal = None
        return g

    def to_dict(self) -> dict[str, Any]:
        """The state as plain data (lists and dicts), from which `from_dict` makes the same state again."""
        return {
            "sheet": self.sheet.name,
            "sheet_digest": self.sheet.digest,
            "rng": state_to_wire(self.rng),
            "round": self.round,
            "start_player": self.start_player,
            "order": list(self.order),
            "turn": self.turn,
            "phase": self.phase,
            "faces": list(self.faces),
            "where": list(self.where),
            "reroll": list(self.reroll) if self.reroll else None,
            "stack": _listify(self.stack),
            "pool": _listify(self.pool),
            "end_after": self.end_after,
            "result": list(self.result) if self.result is not None else None,
            "step": self.step,
            "players": [p.to_dict() for p in self.players],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], sheet: Sheet) -> GameState:
        if d.get("sheet_digest") not in (None, sheet.digest):
            raise ValueError("this state was played on another sheet")
        g = cls()
        g.sheet = sheet
        g.players = tuple([PlayerState.from_dict(p) for p in d["players"]])
        g.n = len(g.players)
        g.rng = state_from_wire(d["rng"])
        g.round = int(d["round"])
        g.start_player = int(d["start_player"])
        g.order = tuple(int(x) for x in d["order"])
        g.turn = int(d["turn"])
        g.current = g.order[g.turn]
        g.phase = str(d["phase"])
        g.faces = tuple([int(x) for x in d["faces"]])
        g.where = tuple([int(x) for x in d["where"]])
        g.reroll = (int(d["reroll"][0]), int(d["reroll"][1])) if d["reroll"] else None
        g.stack = tuple([_tuplify(e) for e in d["stack"]])
        g.pool = tuple([_tuplify(e) for e in d["pool"]])
        g.end_after = int(d["end_after"])
        g.result = tuple(d["result"]) if d["result"] is not None else None
        g.step = int(d["step"])
        g._legal = None
        return g
