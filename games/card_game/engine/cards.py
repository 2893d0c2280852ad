"""The card list as typed data: the schema of `cards.json`, its validation at load, and the flat tables the rules read.

The list is a reconstruction (docs/card-game/cards.md): the rulebook fixes the kinds of cards, the ship numbers
and the rewards; counts, costs, values and colours are ours. A card's id is its action side; its dice side is
only a colour here, the number being paired with it by the game's own shuffle (deal.py).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

Colour = Literal["purple", "green", "blue", "orange"]
BuildingType = Literal["red", "yellow", "white"]
Good = Literal["silk", "tea", "spices"]
ShipReward = Literal[
    "karma2",
    "dice2",
    "coins3",
    "coins2_fame1",
    "goods_cards",
    "die_goods",
    "fame_goods",
    "karma_goods",
    "goods_card_die",
    "palace",
]
TrackReward = Literal["karma2", "coins2_or_palace", "fame_or_ship", "manager", "dice2", "extra_turn"]

COLOURS: tuple[str, ...] = ("purple", "green", "blue", "orange")
BUILDINGS: tuple[str, ...] = ("red", "yellow", "white")
GOODS: tuple[str, ...] = ("silk", "tea", "spices")
TRACK_REWARDS: tuple[str, ...] = ("karma2", "coins2_or_palace", "fame_or_ship", "manager", "dice2", "extra_turn")
# Ship rewards whose goods stay on the ship ("zolang het schip in jouw scheepsrij ligt").
SHIP_GOODS_REWARDS = frozenset({"die_goods", "fame_goods", "karma_goods"})

CARD_COUNT = 144
SHIP_NUMBERS = 28
PALACE_ACTIONS = (2, 3, 4, 5, 6)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GoodModel(_Strict):
    good: Good
    value: int = Field(ge=1, le=6)


class CostModel(_Strict):
    colour: Colour
    value: int = Field(ge=1, le=36)


class ShipCard(_Strict):
    id: int
    kind: Literal["ship"]
    colour: Colour
    number: int = Field(ge=1, le=SHIP_NUMBERS)
    cost: int = Field(ge=1, le=3)
    reward: ShipReward
    count: int = Field(default=0, ge=0, le=2)  # goods cards taken, for the goods_cards reward
    goods: tuple[GoodModel, ...] = ()

    @model_validator(mode="after")
    def _reward_fits(self) -> ShipCard:
        if (self.reward in SHIP_GOODS_REWARDS) != (len(self.goods) == 1):
            raise ValueError(f"ship {self.number}: one good exactly when its reward keeps goods on the ship")
        if (self.reward == "goods_cards") != (self.count > 0):
            raise ValueError(f"ship {self.number}: a count exactly for the goods_cards reward")
        return self


class PalaceCard(_Strict):
    id: int
    kind: Literal["palace"]
    colour: Colour
    action: int = Field(ge=2, le=6)


class GoodsCard(_Strict):
    id: int
    kind: Literal["goods"]
    colour: Colour
    goods: tuple[GoodModel, ...] = Field(min_length=1, max_length=2)
    coin: int = Field(default=0, ge=0, le=3)

    @model_validator(mode="after")
    def _different(self) -> GoodsCard:
        if len({g.good for g in self.goods}) != len(self.goods):
            raise ValueError("a goods card shows 1 or 2 different goods")
        return self


class BuildingCard(_Strict):
    id: int
    kind: Literal["building"]
    colour: Colour
    buildings: tuple[BuildingType, ...] = Field(min_length=1, max_length=2)
    cost: CostModel
    goods: tuple[GoodModel, ...] = Field(default=(), max_length=1)

    @model_validator(mode="after")
    def _different(self) -> BuildingCard:
        if len(set(self.buildings)) != len(self.buildings):
            raise ValueError("a card with two buildings shows two different ones")
        return self


CardModel = Annotated[ShipCard | PalaceCard | GoodsCard | BuildingCard, Field(discriminator="kind")]


class CardList(_Strict):
    reconstruction: str = Field(min_length=1)
    colours: tuple[Colour, ...]
    buildings: tuple[BuildingType, ...]
    goods: tuple[Good, ...]
    dice_per_colour_and_number: int = Field(ge=1)
    hand_limit: int = Field(ge=1)
    managers: int = Field(ge=1)
    offer_size: dict[str, int]
    score_track: tuple[TrackReward, ...]
    cards: tuple[CardModel, ...]

    @model_validator(mode="after")
    def _whole(self) -> CardList:
        if self.colours != COLOURS or self.buildings != BUILDINGS or self.goods != GOODS:
            raise ValueError("colours, buildings and goods are the engine's, in its order")
        if len(self.cards) != CARD_COUNT or [c.id for c in self.cards] != list(range(CARD_COUNT)):
            raise ValueError(f"{CARD_COUNT} cards with ids 0-{CARD_COUNT - 1} in order")
        ships = sorted(c.number for c in self.cards if isinstance(c, ShipCard))
        if ships != list(range(1, SHIP_NUMBERS + 1)):
            raise ValueError("every ship number 1-28 exactly once")
        if sorted(self.score_track) != sorted(TRACK_REWARDS):
            raise ValueError("the score track has each of the six rewards once")
        per_colour = Counter(str(c.colour) for c in self.cards)
        need = 6 * self.dice_per_colour_and_number
        if any(per_colour[col] != need for col in COLOURS):
            raise ValueError(f"each colour's dice side is on {need} cards (six numbers, each equally often)")
        if set(self.offer_size) != {"2", "3", "4"}:
            raise ValueError("an offer size for 2, 3 and 4 players")
        return self


@dataclass(frozen=True)
class Catalogue:
    """The card list compiled into tuples indexed by card id (what the rules read on every decision)."""

    kind: tuple[str, ...]
    colour: tuple[int, ...]  # index into COLOURS: the dice side's colour, printed in the action side's corner
    ship_number: tuple[int, ...]  # 0 for cards that are no ship
    ship_cost: tuple[int, ...]
    ship_reward: tuple[str, ...]
    ship_count: tuple[int, ...]
    palace_action: tuple[int, ...]
    buildings: tuple[tuple[int, ...], ...]  # building type indexes
    cost_colour: tuple[int, ...]
    cost_value: tuple[int, ...]
    goods: tuple[tuple[tuple[int, int], ...], ...]  # (good index, coin value) on the card, any kind of card
    coin: tuple[int, ...]
    hand_limit: int
    managers: int
    offer_size: dict[int, int]
    score_track: tuple[str, ...]
    dice_per_number: int
    models: tuple[ShipCard | PalaceCard | GoodsCard | BuildingCard, ...]

    def ship_with_number(self, number: int) -> int:
        return self.ship_number.index(number)


def parse_cards(text: str) -> Catalogue:
    """Validates a card list (JSON text) and compiles it; a bad list raises ValueError naming the field."""
    try:
        data = CardList.model_validate(json.loads(text))
    except (ValidationError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a valid card list: {exc}") from exc
    kind, colour, number, cost, reward, count, action = [], [], [], [], [], [], []
    buildings, cost_colour, cost_value, goods, coin = [], [], [], [], []
    for c in data.cards:
        kind.append(c.kind)
        colour.append(COLOURS.index(c.colour))
        number.append(c.number if isinstance(c, ShipCard) else 0)
        cost.append(c.cost if isinstance(c, ShipCard) else 0)
        reward.append(c.reward if isinstance(c, ShipCard) else "")
        count.append(c.count if isinstance(c, ShipCard) else 0)
        action.append(c.action if isinstance(c, PalaceCard) else 0)
        buildings.append(tuple(BUILDINGS.index(b) for b in c.buildings) if isinstance(c, BuildingCard) else ())
        cost_colour.append(COLOURS.index(c.cost.colour) if isinstance(c, BuildingCard) else -1)
        cost_value.append(c.cost.value if isinstance(c, BuildingCard) else 0)
        shown = c.goods if isinstance(c, ShipCard | GoodsCard | BuildingCard) else ()
        goods.append(tuple((GOODS.index(g.good), g.value) for g in shown))
        coin.append(c.coin if isinstance(c, GoodsCard) else 0)
    return Catalogue(
        kind=tuple(kind),
        colour=tuple(colour),
        ship_number=tuple(number),
        ship_cost=tuple(cost),
        ship_reward=tuple(reward),
        ship_count=tuple(count),
        palace_action=tuple(action),
        buildings=tuple(buildings),
        cost_colour=tuple(cost_colour),
        cost_value=tuple(cost_value),
        goods=tuple(goods),
        coin=tuple(coin),
        hand_limit=data.hand_limit,
        managers=data.managers,
        offer_size={int(k): v for k, v in data.offer_size.items()},
        score_track=tuple(data.score_track),
        dice_per_number=data.dice_per_colour_and_number,
        models=tuple(data.cards),
    )


@cache
def catalogue() -> Catalogue:
    """The game's card list (games/card_game/cards.json), validated once."""
    text = resources.files("rajas.games.card_game").joinpath("cards.json").read_text(encoding="utf-8")
    return parse_cards(text)


def card_data() -> list[dict[str, object]]:
    """The card list as plain data for clients (public: every action side, each dice side's colour)."""
    return [c.model_dump(mode="json", exclude_defaults=True) for c in catalogue().models]
