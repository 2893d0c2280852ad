"""Three of a kind: what three buildings, goods, ships of a player's rows set off, and how effects that need
the same building or good are told apart (one of them must be chosen)."""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from .cards import BUILDINGS, GOODS, Catalogue
from .state import PlayerWork

Item = tuple[str, int, int]  # ("b" building, "g" good, "s" ship; card; slot on the card)


class Effect(NamedTuple):
    """One three-of-a-kind effect: what it is, the items it uses, the cards it discards, what it gives."""

    kind: str  # buildings_same, buildings_different, goods_same, goods_different, ships
    what: str  # the building type or good for *_same; "" otherwise
    items: frozenset[Item]
    cards: tuple[int, ...]  # sorted
    coins: int
    managers: int

    def describe(self) -> dict[str, object]:
        return {"kind": self.kind, "what": self.what, "cards": list(self.cards), "coins": self.coins,
                "managers": self.managers}


def _buildings(cat: Catalogue, p: PlayerWork) -> list[list[Item]]:
    by_type: list[list[Item]] = [[] for _ in BUILDINGS]
    for card in p.buildings:
        for slot, t in enumerate(cat.buildings[card]):
            by_type[t].append(("b", card, slot))
    return by_type


def _goods(cat: Catalogue, p: PlayerWork) -> list[list[tuple[Item, int]]]:
    """Every good shown in the player's rows - goods, building and ship cards alike - with its coin value."""
    by_good: list[list[tuple[Item, int]]] = [[] for _ in GOODS]
    for card in (*p.goods, *p.buildings, *p.ships):
        for slot, (good, value) in enumerate(cat.goods[card]):
            by_good[good].append((("g", card, slot), value))
    return by_good


def effects(cat: Catalogue, p: PlayerWork) -> list[list[Effect]]:
    """The effects the player's rows set off now, in groups; the options of one group exclude each other."""
    groups: list[list[Effect]] = []
    by_type = _buildings(cat, p)
    for t, items in enumerate(by_type):
        if len(items) >= 3:
            cards = tuple(sorted({i[1] for i in items}))
            groups.append([Effect("buildings_same", BUILDINGS[t], frozenset(items), cards, 0, 1)])
    if all(by_type):
        seen: dict[tuple[int, ...], Effect] = {}
        for pick in product(*by_type):
            cards = tuple(sorted({i[1] for i in pick}))
            seen.setdefault(cards, Effect("buildings_different", "", frozenset(pick), cards, 0, 1))
        groups.append([seen[k] for k in sorted(seen)])
    by_good = _goods(cat, p)
    for good, valued in enumerate(by_good):
        if len(valued) >= 3:
            cards = tuple(sorted({i[1] for i, _ in valued}))
            coins = sum(v for _, v in valued)
            groups.append([Effect("goods_same", GOODS[good], frozenset(i for i, _ in valued), cards, coins, 0)])
    if all(by_good):
        best: dict[tuple[int, ...], Effect] = {}
        for trio in product(*by_good):
            cards = tuple(sorted({i[1] for i, _ in trio}))
            coins = sum(v for _, v in trio)
            if cards not in best or coins > best[cards].coins:
                best[cards] = Effect("goods_different", "", frozenset(i for i, _ in trio), cards, coins, 0)
        groups.append([best[k] for k in sorted(best)])
    if len(p.ships) >= 3:
        ships = frozenset(("s", c, 0) for c in p.ships)
        groups.append([Effect("ships", "", ships, tuple(sorted(p.ships)), 0, 1)])
    return groups


def choices(cat: Catalogue, p: PlayerWork) -> list[tuple[Effect, ...]]:
    """The sets of effects the player may carry out together: at most one option of each group, no building
    or good used twice, and none that could take one more effect. Empty: nothing is set off."""
    groups = effects(cat, p)
    if not groups:
        return []
    found: list[tuple[Effect, ...]] = []
    for pick in product(*[[None, *g] for g in groups]):
        chosen = tuple(e for e in pick if e is not None)
        if not chosen:
            continue
        used: set[Item] = set()
        clash = False
        for e in chosen:
            if used & e.items:
                clash = True
                break
            used |= e.items
        if not clash:
            found.append(chosen)
    return [c for c in found if not any(set(c) < set(other) for other in found)]
