"""Sheet files: both built-in sheets load; a bad sheet is refused with a message naming the field."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import BUILTIN_SHEETS, SheetError, load_sheet, new_game, parse_sheet
from rajas.games.dice_charmers.engine.effects import CHARACTERS


@pytest.mark.parametrize("name", BUILTIN_SHEETS)
def test_builtin_sheet_loads_and_starts_a_game(name: str) -> None:
    s = load_sheet(name)
    assert s.name == name
    assert Counter(s.die_colour) == {"purple": 2, "green": 2, "blue": 2, "orange": 2}
    assert all(s.die_colour[s.die_twin[d]] == s.die_colour[d] and s.die_twin[d] != d for d in range(8))
    assert sorted(c for members, _ in s.areas for c in members) == list(range(len(CHARACTERS)))
    g, _ = new_game(3, 1, s)
    assert g.sheet is s


def test_both_sheets_are_listed() -> None:
    assert set(BUILTIN_SHEETS) == {"sun", "moon"}


@pytest.mark.parametrize("name", BUILTIN_SHEETS)
def test_every_river_symbol_appears_at_least_three_times(name: str) -> None:
    s = load_sheet(name)
    counts = Counter(s.river_symbol)
    assert set(counts) == set(range(len(s.symbols)))
    assert min(counts.values()) >= 3


@pytest.mark.parametrize("name", BUILTIN_SHEETS)
def test_a_sheet_round_trips_through_its_json(name: str) -> None:
    s = load_sheet(name)
    again = parse_sheet(json.dumps(s.to_json()))
    assert again.digest == s.digest


def test_a_custom_sheet_file_loads_by_path(tmp_path: Path) -> None:
    data = load_sheet("sun").to_json()
    data["name"] = "custom"
    path = tmp_path / "custom.json"
    path.write_text(json.dumps(data))
    assert load_sheet(str(path)).name == "custom"


def test_an_unknown_sheet_name_is_refused() -> None:
    with pytest.raises(SheetError):
        load_sheet("no-such-sheet-anywhere")


def test_a_sheet_that_is_not_json_is_refused() -> None:
    with pytest.raises(SheetError, match="JSON"):
        parse_sheet("{not json")


def _sun() -> dict[str, Any]:
    return copy.deepcopy(load_sheet("sun").to_json())


def _missing_river(d: dict[str, Any]) -> None:
    del d["river"]


def _missing_prices(d: dict[str, Any]) -> None:
    del d["market"]["prices"]


def _three_green_dice(d: dict[str, Any]) -> None:
    d["dice"][0] = copy.deepcopy(d["dice"][2])


def _rare_symbol(d: dict[str, Any]) -> None:
    spaces = d["river"]["spaces"]
    for sp in spaces:
        if sp["symbol"] == "fish":
            sp["symbol"] = "lotus"
            break
    fish = [sp for sp in spaces if sp["symbol"] == "fish"]
    for sp in fish[1:]:
        sp["symbol"] = "flag"


def _blue_face_off_the_river(d: dict[str, Any]) -> None:
    d["dice"][4]["faces"][0] = "whale"


def _two_residences(d: dict[str, Any]) -> None:
    d["province"]["cells"][0][0] = "residence"


def _no_residence(d: dict[str, Any]) -> None:
    for row in d["province"]["cells"]:
        for i, c in enumerate(row):
            if c == "residence":
                row[i] = "fort"


def _edge_bonus_off_the_edge(d: dict[str, Any]) -> None:
    d["province"]["edge_bonuses"].append({"side": "E", "index": 9, "bonus": {"kind": "karma"}})


def _tents_short_of_the_row(d: dict[str, Any]) -> None:
    d["market"]["rows"][0]["tents"][0]["size"] -= 1


def _palace_character_missing(d: dict[str, Any]) -> None:
    d["palace"]["areas"][0]["characters"].remove("trader")


def _unknown_bonus(d: dict[str, Any]) -> None:
    d["river"]["spaces"][0]["reward"] = [{"kind": "treasure"}]


def _falling_track(d: dict[str, Any]) -> None:
    d["tracks"]["money"]["values"][3] = 1


def _unknown_field(d: dict[str, Any]) -> None:
    d["province"]["colour"] = "red"


def _purple_face_one_good(d: dict[str, Any]) -> None:
    d["dice"][0]["faces"][0] = ["tea"]


@pytest.mark.parametrize(
    "mistake,field",
    [
        (_missing_river, "river"),
        (_missing_prices, "market.prices"),
        (_three_green_dice, "dice"),
        (_rare_symbol, "river.spaces"),
        (_blue_face_off_the_river, "dice[4]"),
        (_two_residences, "province.cells"),
        (_no_residence, "province.cells"),
        (_edge_bonus_off_the_edge, "province.edge_bonuses"),
        (_tents_short_of_the_row, "tents"),
        (_palace_character_missing, "palace"),
        (_unknown_bonus, "river.spaces"),
        (_falling_track, "money"),
        (_unknown_field, "province.colour"),
        (_purple_face_one_good, "dice[0]"),
    ],
)
def test_a_bad_sheet_is_refused_naming_the_field(mistake: Callable[[dict[str, Any]], None], field: str) -> None:
    d = _sun()
    mistake(d)

    with pytest.raises(SheetError) as err:
        parse_sheet(d)

    assert field in str(err.value), str(err.value)
    assert err.value.code == "bad_sheet"
