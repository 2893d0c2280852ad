"""A sheet file comes from anyone: every list and string has a bound, checking one is linear in its size, a
sheet whose tracks could never meet is refused, and whatever a sheet lets through, the engine ends the game
at its round limit."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import (
    GameOver,
    SheetError,
    apply,
    legal_decisions,
    load_sheet,
    new_game,
    parse_sheet,
)
from rajas.games.dice_charmers.engine.decisions import decision
from rajas.games.dice_charmers.engine.sheet_limits import (
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
    best_overlap,
    most_fame_and_money,
)
from rajas.games.dice_charmers.engine.state import PHASE_OVER, PHASE_PICK
from rajas.games.dice_charmers.engine.turns import ROUND_LIMIT, advance

from .sheets_made import FAME20, GOODS3, largest, never_ending, out_of_reach, stalling, sun

Sheet = dict[str, Any]
LONG = "x" * (NAME_MAX + 1)


def _track_values(d: Sheet) -> None:
    d["tracks"]["fame"]["values"] = list(range(TRACK_SPACES_MAX + 1))
    d["tracks"]["money"]["values"] = list(range(TRACK_SPACES_MAX + 1))


def _track_bonuses(d: Sheet) -> None:
    d["tracks"]["fame"]["bonuses"] = [{"at": 1, "bonus": FAME20}] * (TRACK_BONUSES_MAX + 1)


def _edge_bonuses(d: Sheet) -> None:
    d["province"]["edge_bonuses"] = [{"side": "N", "index": 0, "bonus": FAME20}] * (EDGE_BONUSES_MAX + 1)


def _set(path: str, value: Any) -> Callable[[Sheet], None]:
    """Sets one field, given as the path the refusal names ("river.spaces.0.symbol")."""

    def change(d: Sheet) -> None:
        *parents, last = path.split(".")
        node: Any = d
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value

    return change


# (what is too large, the change, the field the refusal names)
LIMITS: list[tuple[str, Callable[[Sheet], None], str]] = [
    ("a 20 MB free-text note", _set("reconstruction_note", "x" * 20_000_000), "reconstruction_note"),
    ("a note just over its limit", _set("reconstruction_note", "x" * (NOTE_MAX + 1)), "reconstruction_note"),
    ("a long title", _set("title", "x" * 61), "title"),
    ("a long river symbol", _set("river.spaces.0.symbol", LONG), "river.spaces.0.symbol"),
    ("too many river spaces", _set("river.spaces", [{"symbol": "lotus", "reward": [FAME20]}] * 41), "river.spaces"),
    ("too many rewards on a river space", _set("river.spaces.0.reward", [FAME20] * 4), "river.spaces.0.reward"),
    ("a long die face", _set("dice.2.faces.0", LONG), "dice.2.faces.0"),
    ("a long purple face", _set("dice.0.faces.0", ["tea"] * (PURPLE_FACE_MAX + 1)), "dice.0.faces.0"),
    ("too many track spaces", _track_values, "tracks.fame.values"),
    ("a track value a million", _set("tracks.fame.values.41", 1_000_000), "tracks.fame.values.41"),
    (
        "a track bonus past every value",
        _set("tracks.fame.bonuses.0.at", TRACK_VALUE_MAX + 1),
        "tracks.fame.bonuses.0.at",
    ),
    ("too many track bonuses", _track_bonuses, "tracks.fame.bonuses"),
    ("too many province rows", _set("province.cells", [["residence"] * 2] * (PROVINCE_MAX + 1)), "province.cells"),
    ("too many province columns", _set("province.cells.0", ["fort"] * (PROVINCE_MAX + 1)), "province.cells.0"),
    ("a long province space", _set("province.cells.0.0", LONG), "province.cells.0.0"),
    ("too many edge bonuses", _edge_bonuses, "province.edge_bonuses"),
    (
        "an edge bonus off any province",
        _set("province.edge_bonuses.0.index", PROVINCE_MAX),
        "province.edge_bonuses.0.index",
    ),
    ("too many prices", _set("market.prices", [1] * (PRICES_MAX + 1)), "market.prices"),
    ("a dear good", _set("market.prices.0", PRICE_MAX + 1), "market.prices.0"),
    (
        "too many tents",
        _set("market.rows.0.tents", [{"size": 1, "bonus": FAME20}] * (TENTS_MAX + 1)),
        "market.rows.0.tents",
    ),
    (
        "too many palace areas",
        _set("palace.areas", [{"characters": ["trader"], "column_bonuses": []}] * (PALACE_AREAS_MAX + 1)),
        "palace.areas",
    ),
    (
        "too many palace columns",
        _set("palace.areas.0.column_bonuses", [FAME20] * (PALACE_USES_MAX + 1)),
        "palace.areas.0.column_bonuses",
    ),
    ("a long building name", _set("upgrades.buildings.0", LONG), "upgrades.buildings.0"),
    (
        "too many upgrade columns",
        _set("upgrades.column_bonuses", [FAME20] * UPGRADE_LEVEL_MAX),
        "upgrades.column_bonuses",
    ),
    (
        "too many karma bonuses",
        _set("karma.bonuses", [{"at": 1, "bonus": FAME20}] * (KARMA_SPACES_MAX + 1)),
        "karma.bonuses",
    ),
    ("a karma start past any karma track", _set("karma.start", KARMA_SPACES_MAX + 1), "karma.start"),
]


@pytest.mark.parametrize(("what", "change", "field"), LIMITS, ids=[w for w, _, _ in LIMITS])
def test_each_limit_is_refused_naming_its_field(what: str, change: Callable[[Sheet], None], field: str) -> None:
    d = sun()
    change(d)
    with pytest.raises(SheetError) as err:
        parse_sheet(d)
    message = str(err.value)
    assert message.startswith(field) and message[len(field)] in ".:", message[:200]


def test_a_20_mb_note_is_refused_by_the_schema_at_once() -> None:
    d = sun()
    d["reconstruction_note"] = "x" * 20_000_000
    started = time.perf_counter()
    with pytest.raises(SheetError, match=r"^reconstruction_note: String should have at most 1000 characters"):
        parse_sheet(d)
    assert time.perf_counter() - started < 0.5


def test_a_sheet_file_larger_than_any_valid_sheet_is_refused_before_it_is_read(tmp_path: Path) -> None:
    d = sun()
    d["reconstruction_note"] = "x" * (SHEET_BYTES_MAX + 1)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(d))
    with pytest.raises(SheetError, match="larger than a sheet file may be"):
        load_sheet(str(path))
    with pytest.raises(SheetError, match="more than a sheet file may have"):
        parse_sheet(path.read_text())


@pytest.mark.parametrize("text", ["[" * 100_000, '{"name": 1' + "0" * 5000 + "}", b"\xff\xfe{}"])
def test_json_the_parser_cannot_take_is_a_sheet_error(text: str | bytes) -> None:
    with pytest.raises(SheetError, match=r"^sheet: not"):
        parse_sheet(text)


def test_the_largest_sheet_the_limits_allow_is_valid_and_checked_quickly() -> None:
    text = json.dumps(largest())
    assert len(text) < 64 * 1024  # it fits the server's body limit and the browser's
    parse_sheet(text)
    best = min(_seconds(lambda: parse_sheet(text)) for _ in range(5))
    assert best < 0.1, f"{best * 1000:.1f} ms"


def test_checking_grows_linearly_with_the_track_bonuses() -> None:
    """The attack's 2.5 MB sheet put thousands of bonuses on a track; each was looked up along the track."""
    d = largest()
    d["tracks"]["fame"]["bonuses"] = [{"at": 10, "bonus": GOODS3}] * 50_000
    started = time.perf_counter()
    with pytest.raises(SheetError, match=r"^tracks.fame.bonuses: List should have at most 100 items"):
        parse_sheet(d)
    assert time.perf_counter() - started < 0.5


def _seconds(f: Callable[[], object]) -> float:
    started = time.perf_counter()
    f()
    return time.perf_counter() - started


# ---- finiteness ---------------------------------------------------------------------------------------------


def test_the_attack_sheet_with_values_a_million_apart_is_refused() -> None:
    with pytest.raises(SheetError, match=r"^tracks.fame.values.1: Input should be less than or equal to 1000"):
        parse_sheet(never_ending())


def test_tracks_that_all_the_sheets_fame_and_money_could_not_bring_together_are_refused() -> None:
    with pytest.raises(SheetError, match=r"^tracks: the fame and money tracks can never meet: all the sheet gives is"):
        parse_sheet(out_of_reach())


@pytest.mark.parametrize("name", ["sun", "moon"])
def test_the_built_in_sheets_tracks_are_well_within_reach(name: str) -> None:
    assert best_overlap(load_sheet(name).spec) > 40


def _tracks_meeting_at(d: Sheet, fame: int, money: int, fame_space: int) -> Sheet:
    """Tracks of 42 spaces, 1 apart, except that `fame` stands on space `fame_space` and `money` on the space
    from which the two entries meet exactly."""
    money_space = 41 - fame_space
    for track, total, at in (("fame", fame, fame_space), ("money", money, money_space)):
        values = list(range(at)) + [total + i for i in range(42 - at)]
        d["tracks"][track]["values"] = values
    return d


def test_a_sheet_is_refused_exactly_when_no_player_could_ever_cross() -> None:
    d = out_of_reach()  # no track bonuses: what the sheet gives does not depend on its tracks
    fame, money = most_fame_and_money(parse_sheet(sun()).spec)
    fame, money = fame - sum(_track_amounts(sun(), "fame")), money - sum(_track_amounts(sun(), "money"))
    exact = _tracks_meeting_at(d, fame, money, 20)
    assert best_overlap(parse_sheet(exact).spec) == 0  # every fame and money on the sheet: the tracks just meet
    with pytest.raises(SheetError, match="can never meet"):
        parse_sheet(_tracks_meeting_at(d, fame + 1, money, 20))  # one fame short of meeting


def _track_amounts(d: Sheet, kind: str) -> list[int]:
    return [
        b["bonus"]["amount"]
        for track in ("fame", "money")
        for b in d["tracks"][track]["bonuses"]
        if b["bonus"]["kind"] == kind
    ]


# ---- the round limit ----------------------------------------------------------------------------------------


def _exhausted(players: int) -> Any:
    """A game in which no player can use any die again: every good circled, the river, the palace and the
    province full, no karma left."""
    s = load_sheet("sun")
    g, _ = new_game(players, 1, s, start_player=0)
    for p in g.players:
        p.circled = (len(s.prices),) * 3
        p.river = (1 << len(s.river_symbol)) - 1
        p.palace = (s.palace_uses,) * 6
        p.roads = (15,) * (s.rows * s.cols)
        p.karma_used = p.karma_gained
        p._frontier = None
    g.turn, g.current, g.phase, g.stack, g.pool, g._legal = 0, g.order[0], PHASE_PICK, (), (), None
    return g


@pytest.mark.parametrize("players", [2, 5])
def test_when_nobody_can_act_the_engine_passes_turns_only_up_to_the_round_limit(players: int) -> None:
    g = _exhausted(players)
    events: list[dict[str, Any]] = []
    advance(g, events)
    assert g.phase == PHASE_OVER and g.round == ROUND_LIMIT
    over = events[-1]
    assert over["type"] == "game_over" and over["reason"] == "round_limit" and over["round"] == ROUND_LIMIT
    assert over["result"] == list(g.result) and g.result[0]["rank"] == 1
    assert not any(r["crossed"] for r in g.result)
    assert sum(1 for e in events if e["type"] == "round_started") == ROUND_LIMIT - 1
    with pytest.raises(GameOver):
        apply(g, decision("pass"))


def test_a_sheet_that_passes_validation_but_stalls_ends_at_the_round_limit() -> None:
    sheet = parse_sheet(stalling())
    endings = []
    for seed in range(3):
        g, events = new_game(3, seed, sheet)
        rng = random.Random(seed)
        while not g.is_over:
            g, events = apply(g, rng.choice(legal_decisions(g)))
        endings.append((g.round, events[-1]["reason"]))
        assert events[-1]["type"] == "game_over"
    assert (ROUND_LIMIT, "round_limit") in endings
    assert all(r <= ROUND_LIMIT for r, _ in endings)


def test_a_game_that_ends_by_the_tracks_says_so() -> None:
    g, events = new_game(2, 3, "sun")
    rng = random.Random(3)
    while not g.is_over:
        g, events = apply(g, rng.choice(legal_decisions(g)))
    assert events[-1]["reason"] == "tracks_crossed" and g.round < ROUND_LIMIT
    assert any(r["crossed"] for r in g.result or [])
