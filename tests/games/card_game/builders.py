"""Hand-made tables for the rules tests: a state with chosen hands, rows, offer and numbers, and card finders."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rajas.games.card_game.engine import Decision, Options, State, apply, catalogue, new_game
from rajas.games.card_game.engine.cards import BUILDINGS, COLOURS, GOODS
from rajas.games.card_game.engine.state import PHASE_ACT, Event

CAT = catalogue()


def ship(number: int) -> int:
    return CAT.ship_with_number(number)


def palace(action: int, nth: int = 0) -> int:
    return [c for c in range(144) if CAT.palace_action[c] == action][nth]


def goods_card(*goods: tuple[str, int], coin: int = 0, nth: int = 0) -> int:
    """The nth goods card showing exactly these (good, value) pairs."""
    want = tuple((GOODS.index(g), v) for g, v in goods)
    return [c for c in range(144) if CAT.kind[c] == "goods" and CAT.goods[c] == want and CAT.coin[c] == coin][nth]


def building(*types: str, colour: str | None = None, cost: int | None = None, goods: tuple[str, int] | None = None,
             nth: int = 0) -> int:
    want = tuple(BUILDINGS.index(t) for t in types)
    found = [
        c for c in range(144)
        if CAT.kind[c] == "building" and CAT.buildings[c] == want
        and (colour is None or CAT.cost_colour[c] == COLOURS.index(colour))
        and (cost is None or CAT.cost_value[c] == cost)
        and (goods is None or CAT.goods[c] == ((GOODS.index(goods[0]), goods[1]),))
        and (goods is not None or not CAT.goods[c])
    ]
    return found[nth]


def dice_cards(colour: str, count: int, avoid: set[int]) -> list[int]:
    """`count` cards whose dice side has this colour, none of `avoid` (their numbers get set by `table`)."""
    return [c for c in range(144) if CAT.colour[c] == COLOURS.index(colour) and c not in avoid][:count]


def with_numbers(numbers: tuple[int, ...], wanted: dict[int, int]) -> tuple[int, ...]:
    """The pairing with these cards' numbers set, each by a swap with a card of the same colour (so every colour
    keeps its six of each number); cards named in `wanted` are never swapped away."""
    out = list(numbers)
    for card, number in wanted.items():
        if out[card] == number:
            continue
        other = next(c for c in range(144) if CAT.colour[c] == CAT.colour[card] and out[c] == number
                     and c not in wanted)
        out[card], out[other] = number, out[card]
    return tuple(out)


def table(
    players: int = 2,
    *,
    current: int = 0,
    start_player: int = 0,
    turn: int | None = None,
    offer: list[int] | None = None,
    hands: dict[int, list[int]] | None = None,
    buildings: dict[int, list[int]] | None = None,
    goods: dict[int, list[int]] | None = None,
    ships: dict[int, list[int]] | None = None,
    draw: list[int] | None = None,
    discard: list[int] | None = None,
    numbers: dict[int, int] | None = None,
    seat: dict[int, dict[str, Any]] | None = None,
    **fields: Any,
) -> State:
    """A table with exactly these cards placed; every other card lies in the draw pile below `draw`, by id."""
    g, _ = new_game(players, "builder", options=Options(start_player=start_player))
    placed: list[int] = [*(offer or []), *(draw or []), *(discard or [])]
    rows = {"hand": hands or {}, "buildings": buildings or {}, "goods": goods or {}, "ships": ships or {}}
    for per_seat in rows.values():
        for cards in per_seat.values():
            placed += cards
    assert len(placed) == len(set(placed)), "a card placed twice"
    rest = [c for c in range(144) if c not in set(placed)]
    players_now = []
    for s, p in enumerate(g.players):
        changes: dict[str, Any] = {k: tuple(v.get(s, [])) for k, v in rows.items()}
        changes.update((seat or {}).get(s, {}))
        players_now.append(replace(p, **changes))
    return replace(
        g,
        numbers=with_numbers(g.numbers, numbers or {}),
        offer=tuple(offer or []),
        draw=tuple([*(draw or []), *rest]),
        discard=tuple(discard or []),
        players=tuple(players_now),
        current=current,
        turn=(current - start_player) % players if turn is None else turn,
        phase=PHASE_ACT,
        stack=(),
        **fields,
    )


def do(g: State, kind: str, *args: int) -> tuple[State, list[Event]]:
    return apply(g, Decision(kind, tuple(args)))


def kinds(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]
