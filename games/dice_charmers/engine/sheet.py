"""The player sheet as typed data: the schema of a sheet file, its validation, and its compiled form.

A sheet file (JSON) describes one side of the playing pad: province grid, river, fame and money
tracks, market, palace, upgrade table, karma track, and the faces of the 8 dice. `load_sheet`
validates it (pydantic names the offending field) and compiles it into flat tuples the rules use.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .effects import (
    CHARACTERS,
    DIRECTION_BITS,
    DIRECTIONS,
    GOODS,
    OPPOSITE,
    SHAPE_FORK,
    SHAPE_INTERSECTION,
    SHAPES_BEND,
    SHAPES_ROAD_BONUS,
    SHAPES_STRAIGHT,
    Effect,
)
from .errors import SheetError
from .sheet_limits import (
    EDGE_BONUSES_MAX,
    KARMA_SPACES_MAX,
    NAME_MAX,
    NOTE_MAX,
    PALACE_AREAS_MAX,
    PALACE_USES_MAX,
    PRICE_MAX,
    PRICES_MAX,
    PROVINCE_MAX,
    PURPLE_FACE_MAX,
    SHEET_BYTES_MAX,
    TENTS_MAX,
    TRACK_BONUSES_MAX,
    TRACK_SPACES_MAX,
    TRACK_VALUE_MAX,
    UPGRADE_LEVEL_MAX,
    check_finite,
)

Good = Literal["tea", "silk", "spices"]
Character = Literal["great_mogul", "maharani", "trader", "raja_man_singh", "master_builder", "portuguese"]
Direction = Literal["N", "E", "S", "W"]
Colour = Literal["purple", "green", "blue", "orange"]
GreenFace = Literal["bend", "straight", "half_roads"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FameBonus(_Strict):
    kind: Literal["fame"]
    amount: int = Field(ge=1, le=20)


class MoneyBonus(_Strict):
    kind: Literal["money"]
    amount: int = Field(ge=1, le=20)


class KarmaBonus(_Strict):
    kind: Literal["karma"]
    amount: int = Field(default=1, ge=1, le=3)


class PalaceBonus(_Strict):
    """One named palace character: crossed out in the palace, then carried out."""

    kind: Literal["palace"]
    character: Character


class PalaceAnyBonus(_Strict):
    kind: Literal["palace_any"]


class UpgradeBonus(_Strict):
    kind: Literal["upgrade"]


class GoodsBonus(_Strict):
    """Fixed goods, circled at once."""

    kind: Literal["goods"]
    goods: list[Good] = Field(min_length=1, max_length=3)


class GoodsDieBonus(_Strict):
    """The two goods one of the purple dice shows now, wherever it lies."""

    kind: Literal["goods_die"]


class GoodsChoiceBonus(_Strict):
    """1, 2 or 3 different goods of the player's choice."""

    kind: Literal["goods_choice"]
    count: int = Field(ge=1, le=3)


class SellBonus(_Strict):
    """Sell goods of any kinds, of one kind, of different kinds, or one kind or different: exactly `count`
    goods (the printed 1, 2, 3), or 1 up to `max` goods (the printed 1-2 and 1-3)."""

    kind: Literal["sell"]
    mode: Literal["any", "same", "different", "same_or_different"]
    count: int | None = Field(default=None, ge=1, le=3)
    max: int | None = Field(default=None, ge=1, le=3)

    @model_validator(mode="after")
    def _count_or_max(self) -> SellBonus:
        if (self.count is None) == (self.max is None):
            raise ValueError("a sell bonus has one of count (exactly that many goods) or max (1 up to max goods)")
        return self


class HalfRoadBonus(_Strict):
    kind: Literal["half_road"]


class RoadBonus(_Strict):
    """The printed road shape on an empty province space, connected to the residence; `any` (the default,
    for sheets written before shapes were printed) lets the player choose a straight, fork or intersection."""

    kind: Literal["road"]
    shape: Literal["any", "straight", "fork", "intersection"] = "any"


class RiverForwardBonus(_Strict):
    kind: Literal["river_forward"]


class RiverBackBonus(_Strict):
    kind: Literal["river_back"]


class RiverBackChoiceBonus(_Strict):
    kind: Literal["river_back_choice"]


Bonus = Annotated[
    FameBonus
    | MoneyBonus
    | KarmaBonus
    | PalaceBonus
    | PalaceAnyBonus
    | UpgradeBonus
    | GoodsBonus
    | GoodsDieBonus
    | GoodsChoiceBonus
    | SellBonus
    | HalfRoadBonus
    | RoadBonus
    | RiverForwardBonus
    | RiverBackBonus
    | RiverBackChoiceBonus,
    Field(discriminator="kind"),
]


# Every string and list a sheet file holds has a bound (sheet_limits.py): a sheet comes from anyone.
Name = Annotated[str, Field(max_length=NAME_MAX)]
Face = Name | Annotated[list[Good], Field(max_length=PURPLE_FACE_MAX)]


class DieSpec(_Strict):
    colour: Colour
    faces: list[Face] = Field(min_length=6, max_length=6)


class EdgeBonus(_Strict):
    side: Direction
    index: int = Field(ge=0, lt=PROVINCE_MAX)
    bonus: Bonus


class ProvinceSpec(_Strict):
    cells: list[Annotated[list[Name], Field(max_length=PROVINCE_MAX)]] = Field(min_length=2, max_length=PROVINCE_MAX)
    residence_roads: list[Direction] = Field(min_length=2, max_length=4)
    edge_bonuses: list[EdgeBonus] = Field(max_length=EDGE_BONUSES_MAX)


class RiverSpace(_Strict):
    symbol: str = Field(min_length=1, max_length=NAME_MAX)
    reward: list[Bonus] = Field(min_length=1, max_length=3)


class RiverSpec(_Strict):
    spaces: list[RiverSpace] = Field(min_length=6, max_length=40)


class TrackBonus(_Strict):
    at: int = Field(ge=1, le=TRACK_VALUE_MAX)
    bonus: Bonus


class TrackSpec(_Strict):
    values: list[Annotated[int, Field(ge=0, le=TRACK_VALUE_MAX)]] = Field(min_length=10, max_length=TRACK_SPACES_MAX)
    bonuses: list[TrackBonus] = Field(max_length=TRACK_BONUSES_MAX)

    @model_validator(mode="after")
    def _increasing(self) -> TrackSpec:
        if self.values[0] != 0:
            raise ValueError("values must start at 0")
        for a, b in zip(self.values, self.values[1:], strict=False):
            if b <= a:
                raise ValueError(f"values must rise strictly, but {b} follows {a}")
        spaces = set(self.values)  # a set: one look-up per bonus, not a walk along the track
        for tb in self.bonuses:
            if tb.at not in spaces:
                raise ValueError(f"bonus at {tb.at} is not on a space of the track")
        return self


class TracksSpec(_Strict):
    fame: TrackSpec
    money: TrackSpec

    @model_validator(mode="after")
    def _same_path(self) -> TracksSpec:
        if len(self.fame.values) != len(self.money.values):
            raise ValueError("fame and money run over the same spaces: values must have the same length")
        return self


class Tent(_Strict):
    size: int = Field(ge=1, le=8)
    bonus: Bonus


class MarketRow(_Strict):
    good: Good
    tents: list[Tent] = Field(min_length=1, max_length=TENTS_MAX)


class MarketSpec(_Strict):
    prices: list[Annotated[int, Field(le=PRICE_MAX)]] = Field(min_length=3, max_length=PRICES_MAX)
    rows: list[MarketRow] = Field(min_length=3, max_length=3)

    @model_validator(mode="after")
    def _rows(self) -> MarketSpec:
        if sorted(r.good for r in self.rows) != sorted(GOODS):
            raise ValueError("one row for each of tea, silk, spices")
        for r in self.rows:
            if sum(t.size for t in r.tents) != len(self.prices):
                raise ValueError(f"the tents of the {r.good} row must cover its {len(self.prices)} goods")
        if any(p < 1 for p in self.prices):
            raise ValueError("prices must be at least 1")
        return self


class PalaceArea(_Strict):
    characters: list[Character] = Field(min_length=1, max_length=6)
    column_bonuses: list[Bonus] = Field(max_length=PALACE_USES_MAX)


class PalaceSpec(_Strict):
    uses: int = Field(ge=1, le=PALACE_USES_MAX)
    areas: list[PalaceArea] = Field(min_length=1, max_length=PALACE_AREAS_MAX)

    @model_validator(mode="after")
    def _characters(self) -> PalaceSpec:
        names = [c for a in self.areas for c in a.characters]
        if sorted(names) != sorted(CHARACTERS):
            raise ValueError("each of the six palace characters must appear in exactly one area")
        for a in self.areas:
            if len(a.column_bonuses) != self.uses:
                raise ValueError(f"an area needs one column bonus per use ({self.uses})")
        return self


class UpgradeSpec(_Strict):
    buildings: list[Name] = Field(min_length=2, max_length=6)
    max_level: int = Field(ge=2, le=UPGRADE_LEVEL_MAX)
    column_bonuses: list[Bonus] = Field(max_length=UPGRADE_LEVEL_MAX - 1)

    @model_validator(mode="after")
    def _columns(self) -> UpgradeSpec:
        if len(set(self.buildings)) != len(self.buildings):
            raise ValueError("building names must differ")
        if len(self.column_bonuses) != self.max_level - 1:
            raise ValueError("one column bonus per upgrade column (max_level - 1)")
        return self


class KarmaSpec(_Strict):
    spaces: int = Field(ge=3, le=KARMA_SPACES_MAX)
    start: int = Field(ge=0, le=KARMA_SPACES_MAX)
    bonuses: list[TrackBonus] = Field(max_length=KARMA_SPACES_MAX)


class SheetSpec(_Strict):
    name: str = Field(pattern=r"^[a-z0-9_-]{1,32}$")
    title: str = Field(min_length=1, max_length=60)
    reconstruction_note: str = Field(default="", max_length=NOTE_MAX)
    dice: list[DieSpec] = Field(min_length=8, max_length=8)
    province: ProvinceSpec
    river: RiverSpec
    tracks: TracksSpec
    market: MarketSpec
    palace: PalaceSpec
    upgrades: UpgradeSpec
    karma: KarmaSpec

    @model_validator(mode="after")
    def _consistent(self) -> SheetSpec:
        _check_dice(self)
        _check_province(self)
        _check_river(self)
        if self.karma.start > self.karma.spaces:
            raise ValueError("karma.start: more than the karma track holds")
        for kb in self.karma.bonuses:
            if kb.at > self.karma.spaces:
                raise ValueError(f"karma.bonuses: {kb.at} is past the karma track")
        check_finite(self)
        return self


def _check_dice(s: SheetSpec) -> None:
    colours = Counter(d.colour for d in s.dice)
    if any(colours[c] != 2 for c in ("purple", "green", "blue", "orange")):
        raise ValueError("dice: exactly two dice of each colour (purple, green, blue, orange)")
    symbols = {sp.symbol for sp in s.river.spaces}
    for i, d in enumerate(s.dice):
        for f in d.faces:
            where = f"dice[{i}] ({d.colour})"
            if d.colour == "purple":
                if not isinstance(f, list) or len(f) != 2:
                    raise ValueError(f"{where}: a purple face shows two goods")
            elif isinstance(f, list):
                raise ValueError(f"{where}: only purple faces show goods")
            elif d.colour == "green" and f not in ("bend", "straight", "half_roads"):
                raise ValueError(f"{where}: green faces are bend, straight or half_roads, not {f!r}")
            elif d.colour == "blue" and f not in symbols:
                raise ValueError(f"{where}: symbol {f!r} is not on the river")
            elif d.colour == "orange" and f not in CHARACTERS:
                raise ValueError(f"{where}: {f!r} is not a palace character")


def _check_province(s: SheetSpec) -> None:
    p = s.province
    cols = len(p.cells[0])
    if any(len(r) != cols for r in p.cells):
        raise ValueError("province.cells: every row must have the same number of spaces")
    kinds = set(s.upgrades.buildings) | {"residence", "market_same", "market_different"}
    flat = [c for r in p.cells for c in r]
    for c in flat:
        if c not in kinds:
            raise ValueError(f"province.cells: {c!r} is not a building, market or the residence")
    if flat.count("residence") != 1:
        raise ValueError("province.cells: exactly one residence")
    slots = set()
    for e in p.edge_bonuses:
        limit = cols if e.side in ("N", "S") else len(p.cells)
        if e.index >= limit:
            raise ValueError(f"province.edge_bonuses: {e.side}{e.index} is off the province edge")
        if (e.side, e.index) in slots:
            raise ValueError(f"province.edge_bonuses: two bonuses on {e.side}{e.index}")
        slots.add((e.side, e.index))
    row, col = divmod(flat.index("residence"), cols)
    for d in p.residence_roads:
        off = (d == "N" and row == 0) or (d == "S" and row == len(p.cells) - 1)
        off = off or (d == "W" and col == 0) or (d == "E" and col == cols - 1)
        idx = col if d in ("N", "S") else row
        if off and (d, idx) not in slots:
            raise ValueError("province.residence_roads: a road may leave the province only onto a bonus")


def _check_river(s: SheetSpec) -> None:
    counts = Counter(sp.symbol for sp in s.river.spaces)
    for sym, n in counts.items():
        if n < 3:
            raise ValueError(f"river.spaces: symbol {sym!r} appears {n} times; each appears at least 3 times")
    blue = {f for d in s.dice if d.colour == "blue" for f in d.faces if isinstance(f, str)}
    for sym in counts:
        if sym not in blue:
            raise ValueError(f"river.spaces: symbol {sym!r} is on no blue die")


# A road bonus's printed shape as the set of shapes the engine offers (in every rotation).
ROAD_BONUS_SHAPES = {
    "any": SHAPES_ROAD_BONUS,
    "straight": SHAPES_STRAIGHT,
    "fork": SHAPE_FORK,
    "intersection": SHAPE_INTERSECTION,
}


def bonus_effect(b: Any) -> Effect:
    """The effect a bonus of the sheet stands for, in the engine's tuple form (see effects.py)."""
    k = b.kind
    if k in ("fame", "money", "karma"):
        return (k, b.amount)
    if k == "palace":
        return ("palace", CHARACTERS.index(b.character))
    if k == "goods":
        return ("goods", tuple(b.goods.count(g) for g in GOODS))
    if k == "goods_choice":
        return ("goods_choice", b.count)
    if k == "sell":
        # (mode, most, least): an exact count sells exactly that many; `max` sells 1 up to max.
        return ("sell", b.mode, b.count, b.count) if b.count is not None else ("sell", b.mode, b.max, 1)
    if k == "road":
        return ("road", ROAD_BONUS_SHAPES[b.shape])
    return (k,)


@dataclass(frozen=True, slots=True)
class Sheet:
    """A validated sheet compiled to flat tuples. Cells are numbered row by row."""

    name: str
    title: str
    spec: SheetSpec
    digest: str
    # dice
    die_colour: tuple[str, ...]
    die_faces: tuple[tuple[Effect, ...], ...]
    die_twin: tuple[int, ...]
    purple_dice: tuple[int, ...]
    # province
    rows: int
    cols: int
    cell_kind: tuple[str, ...]  # "residence" | "building" | "market"
    cell_building: tuple[int, ...]  # building index, -1 elsewhere
    cell_market: tuple[str, ...]  # "same" | "different" | ""
    neighbour: tuple[tuple[int, ...], ...]  # [cell][dir] -> cell or -1
    edge_slot: tuple[tuple[int, ...], ...]  # [cell][dir] -> slot or -1
    edge_names: tuple[str, ...]  # slot -> "N3"
    edge_bonus: tuple[Effect | None, ...]  # slot -> effect
    allowed: tuple[int, ...]  # [cell] -> mask of directions a road may point to
    links: tuple[tuple[tuple[int, int, int], ...], ...]  # [cell] -> (arm, neighbour, neighbour's arm back)
    residence: int
    residence_arms: int
    # river
    symbols: tuple[str, ...]
    river_symbol: tuple[int, ...]
    river_reward: tuple[tuple[Effect, ...], ...]
    # tracks
    fame_values: tuple[int, ...]
    money_values: tuple[int, ...]
    fame_bonuses: tuple[tuple[int, Effect], ...]
    money_bonuses: tuple[tuple[int, Effect], ...]
    # market
    prices: tuple[int, ...]
    tents: tuple[tuple[tuple[int, Effect], ...], ...]  # [good] -> ((end, effect), ...)
    # palace
    palace_uses: int
    areas: tuple[tuple[tuple[int, ...], tuple[Effect, ...]], ...]
    character_area: tuple[int, ...]
    # upgrades
    buildings: tuple[str, ...]
    max_level: int
    upgrade_bonuses: tuple[Effect, ...]
    # karma
    karma_spaces: int
    karma_start: int
    karma_bonuses: tuple[tuple[int, Effect], ...]

    @property
    def track_length(self) -> int:
        return len(self.fame_values) - 1

    def to_json(self) -> dict[str, Any]:
        """The sheet file as plain data (what clients draw from)."""
        return self.spec.model_dump(mode="json")


def compile_sheet(spec: SheetSpec) -> Sheet:
    p = spec.province
    rows, cols = len(p.cells), len(p.cells[0])
    flat = [c for r in p.cells for c in r]
    kinds = tuple(
        "residence" if c == "residence" else "market" if c.startswith("market_") else "building" for c in flat
    )
    buildings = tuple(spec.upgrades.buildings)
    cell_building = tuple(buildings.index(c) if k == "building" else -1 for c, k in zip(flat, kinds, strict=True))
    cell_market = tuple(c.removeprefix("market_") if k == "market" else "" for c, k in zip(flat, kinds, strict=True))

    slot_names: list[str] = []
    slot_bonus: list[Effect | None] = []
    by_slot: dict[tuple[str, int], Effect] = {(e.side, e.index): bonus_effect(e.bonus) for e in p.edge_bonuses}
    for side, count in (("N", cols), ("E", rows), ("S", cols), ("W", rows)):
        for i in range(count):
            slot_names.append(f"{side}{i}")
            slot_bonus.append(by_slot.get((side, i)))
    slot_index = {n: i for i, n in enumerate(slot_names)}

    neighbour: list[tuple[int, ...]] = []
    edge_slot: list[tuple[int, ...]] = []
    allowed: list[int] = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        nb: list[int] = []
        sl: list[int] = []
        mask = 0
        for bit, (dr, dc), side, idx in (
            (1, (-1, 0), "N", c),
            (2, (0, 1), "E", r),
            (4, (1, 0), "S", c),
            (8, (0, -1), "W", r),
        ):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                nb.append(rr * cols + cc)
                sl.append(-1)
                mask |= bit
            else:
                nb.append(-1)
                s = slot_index[f"{side}{idx}"]
                sl.append(s)
                if slot_bonus[s] is not None:
                    mask |= bit
        neighbour.append(tuple(nb))
        edge_slot.append(tuple(sl))
        allowed.append(mask)

    residence = flat.index("residence")
    residence_arms = 0
    for d in p.residence_roads:
        residence_arms |= DIRECTIONS[d]

    symbols = tuple(dict.fromkeys(sp.symbol for sp in spec.river.spaces))
    die_colour = tuple(d.colour for d in spec.dice)
    die_faces = tuple(tuple(_face_effect(d.colour, f, symbols) for f in d.faces) for d in spec.dice)
    die_twin = tuple(next(j for j in range(8) if j != i and die_colour[j] == die_colour[i]) for i in range(8))

    character_area = [0] * len(CHARACTERS)
    areas = []
    for ai, a in enumerate(spec.palace.areas):
        idxs = tuple(CHARACTERS.index(ch) for ch in a.characters)
        for ch in idxs:
            character_area[ch] = ai
        areas.append((idxs, tuple(bonus_effect(b) for b in a.column_bonuses)))

    tents = []
    for g in GOODS:
        row = next(r for r in spec.market.rows if r.good == g)
        end, out = 0, []
        for t in row.tents:
            end += t.size
            out.append((end, bonus_effect(t.bonus)))
        tents.append(tuple(out))

    def track_bonuses(t: TrackSpec) -> tuple[tuple[int, Effect], ...]:
        return tuple(sorted(((b.at, bonus_effect(b.bonus)) for b in t.bonuses), key=lambda x: x[0]))

    raw = json.dumps(spec.model_dump(mode="json"), sort_keys=True).encode()
    return Sheet(
        name=spec.name,
        title=spec.title,
        spec=spec,
        digest=hashlib.sha256(raw).hexdigest()[:16],
        die_colour=die_colour,
        die_faces=die_faces,
        die_twin=die_twin,
        purple_dice=tuple(i for i, c in enumerate(die_colour) if c == "purple"),
        rows=rows,
        cols=cols,
        cell_kind=kinds,
        cell_building=cell_building,
        cell_market=cell_market,
        neighbour=tuple(neighbour),
        edge_slot=tuple(edge_slot),
        edge_names=tuple(slot_names),
        edge_bonus=tuple(slot_bonus),
        allowed=tuple(allowed),
        links=tuple(
            tuple((bit, nb, OPPOSITE[bit]) for bit, nb in zip(DIRECTION_BITS, neighbour[cell], strict=True) if nb >= 0)
            for cell in range(rows * cols)
        ),
        residence=residence,
        residence_arms=residence_arms,
        symbols=symbols,
        river_symbol=tuple(symbols.index(sp.symbol) for sp in spec.river.spaces),
        river_reward=tuple(tuple(bonus_effect(b) for b in sp.reward) for sp in spec.river.spaces),
        fame_values=tuple(spec.tracks.fame.values),
        money_values=tuple(spec.tracks.money.values),
        fame_bonuses=track_bonuses(spec.tracks.fame),
        money_bonuses=track_bonuses(spec.tracks.money),
        prices=tuple(spec.market.prices),
        tents=tuple(tents),
        palace_uses=spec.palace.uses,
        areas=tuple(areas),
        character_area=tuple(character_area),
        buildings=buildings,
        max_level=spec.upgrades.max_level,
        upgrade_bonuses=tuple(bonus_effect(b) for b in spec.upgrades.column_bonuses),
        karma_spaces=spec.karma.spaces,
        karma_start=spec.karma.start,
        karma_bonuses=tuple(sorted(((b.at, bonus_effect(b.bonus)) for b in spec.karma.bonuses), key=lambda x: x[0])),
    )


def _face_effect(colour: str, face: Any, symbols: tuple[str, ...]) -> Effect:
    if colour == "purple":
        assert isinstance(face, list)
        return ("goods", tuple(face.count(g) for g in GOODS))
    assert isinstance(face, str)
    if colour == "green":
        if face == "half_roads":
            return ("half_roads", 2)
        return ("road", SHAPES_BEND if face == "bend" else SHAPES_STRAIGHT)
    if colour == "blue":
        return ("river_symbol", symbols.index(face))
    return ("palace", CHARACTERS.index(face))


def parse_sheet(data: dict[str, Any] | str | bytes) -> Sheet:
    """Validates and compiles a sheet; raises SheetError naming the first bad field."""
    if isinstance(data, str | bytes) and len(data) > SHEET_BYTES_MAX:
        raise SheetError(f"sheet: {len(data)} bytes, more than a sheet file may have ({SHEET_BYTES_MAX})")
    try:
        if isinstance(data, str | bytes):
            data = json.loads(data)
        spec = SheetSpec.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        # Checks across fields already start with the field they name.
        raise SheetError(f"{where}: {message}" if where else message) from None
    except json.JSONDecodeError as e:
        raise SheetError(f"sheet: not JSON ({e.msg} at line {e.lineno})") from None
    except (ValueError, RecursionError) as e:
        # Bytes that are not UTF-8, an integer of thousands of digits, arrays nested thousands deep.
        raise SheetError(f"sheet: not a JSON sheet ({type(e).__name__})") from None
    return compile_sheet(spec)


BUILTIN_SHEETS = ("sun", "moon")
_cache: dict[str, Sheet] = {}


def load_sheet(name_or_path: str | Path) -> Sheet:
    """A built-in sheet by name ("sun", "moon") or a custom sheet file by path."""
    key = str(name_or_path)
    if key in _cache:
        return _cache[key]
    if key in BUILTIN_SHEETS:
        text = resources.files(__package__).joinpath("sheets", f"{key}.json").read_text()
    else:
        path = Path(key)
        if not path.is_file():
            raise SheetError(f"sheet: no built-in sheet or file named {key!r}")
        if path.stat().st_size > SHEET_BYTES_MAX:
            raise SheetError(f"sheet: {key!r} is larger than a sheet file may be ({SHEET_BYTES_MAX} bytes)")
        text = path.read_text()
    sheet = parse_sheet(text)
    _cache[key] = sheet
    return sheet
