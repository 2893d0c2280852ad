"""The reconstructed card list: validated at load, labelled a reconstruction, and holding what the rulebook fixes."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from rajas.games.card_game.engine import card_data, catalogue
from rajas.games.card_game.engine.cards import parse_cards

TEXT = resources.files("rajas.games.card_game").joinpath("cards.json").read_text()


def test_there_are_144_cards_each_with_an_action_side_and_a_dice_colour() -> None:
    cat = catalogue()
    assert len(cat.kind) == 144 and set(cat.kind) == {"building", "ship", "goods", "palace"}
    assert Counter(cat.colour) == {0: 36, 1: 36, 2: 36, 3: 36}


def test_the_list_says_it_is_a_reconstruction_and_so_does_its_document() -> None:
    assert "reconstruction" in json.loads(TEXT)["reconstruction"].lower()
    doc = Path(__file__).parents[3] / "docs" / "card-game" / "cards.md"
    assert "reconstruction" in doc.read_text().lower()


def test_what_the_rulebook_fixes() -> None:
    cat = catalogue()
    assert sorted(n for n in cat.ship_number if n) == list(range(1, 29))
    assert {cat.ship_cost[c] for c in range(144) if cat.kind[c] == "ship"} == {1, 2, 3}
    assert {cat.palace_action[c] for c in range(144) if cat.kind[c] == "palace"} == {2, 3, 4, 5, 6}
    assert {len(cat.buildings[c]) for c in range(144) if cat.kind[c] == "building"} == {1, 2}
    assert {len(cat.goods[c]) for c in range(144) if cat.kind[c] == "goods"} == {1, 2}
    assert len(set(cat.ship_reward) - {""}) == 10
    assert cat.managers == 12 and cat.hand_limit == 8 and cat.offer_size == {2: 12, 3: 16, 4: 20}
    assert sorted(cat.score_track) == sorted(["karma2", "coins2_or_palace", "fame_or_ship", "manager", "dice2",
                                              "extra_turn"])


def test_the_rulebooks_examples_have_their_cards() -> None:
    cat = catalogue()
    # Kara: a building needing blue 11; Anna: a red building with tea of 3; Julian: red and yellow on one card.
    assert any(cat.cost_colour[c] == 2 and cat.cost_value[c] == 11 for c in range(144))
    assert any(cat.buildings[c] == (0,) and cat.goods[c] == ((1, 3),) for c in range(144))
    assert sum(cat.buildings[c] == (0, 1) for c in range(144)) >= 3


@pytest.mark.parametrize(("path", "value", "complaint"), [
    (("cards", 0, "number"), 29, "number"),
    (("cards", 1, "number"), 1, "1-28 exactly once"),
    (("cards", 28, "action"), 7, "action"),
    (("cards", 0, "colour"), "red", "colour"),
    (("managers",), 0, "managers"),
    (("score_track",), ["karma2"] * 6, "six rewards"),
])
def test_a_bad_card_list_is_refused_naming_the_problem(path: tuple[object, ...], value: object, complaint: str) -> None:
    data = json.loads(TEXT)
    target = data
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    with pytest.raises(ValueError, match=complaint):
        parse_cards(json.dumps(data))


def test_the_card_data_for_clients_is_plain_and_complete() -> None:
    data = card_data()
    assert len(data) == 144 and json.loads(json.dumps(data)) == data
