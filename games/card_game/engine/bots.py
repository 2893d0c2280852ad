"""Bots for the card game: random, and greedy (the option worth most at once, by a rough price list).

A bot decides from what its seat may know and nothing else: `choose` hands the deciding functions the seat's
view (views.view) and its pending options (views.pending), never the state, so the draw pile's order,
another hand's numbers and the generator are out of its reach by construction. Each bot draws from a
generator of its own (rng.py, seeded like the Dice Charmers' bots), so bot games replay exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rajas.games.rng import roll, seed_to_state

from .cards import Catalogue, catalogue
from .decisions import Decision
from .payment import JOKER
from .state import State
from .views import pending, view

Bot = Callable[[State], Decision]
Seen = dict[str, Any]  # a seat's view
T = TypeVar("T")
BOT_DRAW = "rajas-bot/1"  # kept apart from the game's draws: a bot seeded like a game never echoes them

# Rough worth of what a decision gives, in coins (three fame turn a card as six coins do: a fame is two).
FAME, COIN, KARMA, DIE, MANAGER = 2.0, 1.0, 0.9, 1.2, 3.0


class Draw:
    """A bot's own choices: the engine's generator, seeded once, advanced by every draw."""

    def __init__(self, seed: int | str) -> None:
        self.state = seed_to_state(seed, (BOT_DRAW,))

    def choice(self, options: Sequence[T]) -> T:
        self.state, i = roll(self.state, len(options))
        return options[i]


def what_the_seat_sees(g: State) -> tuple[Seen, dict[str, Any], list[Decision]]:
    """The only inputs a bot has: its seat's view, what is pending, and its options."""
    seat = g.current
    p = pending(g, seat)
    return view(g, seat), p, [Decision.from_wire(o) for o in p["options"]]


def random_bot(seed: int | str = 0) -> Bot:
    rng = Draw(seed)

    def choose(g: State) -> Decision:
        _, _, options = what_the_seat_sees(g)
        return rng.choice(options)

    return choose


class Prices:
    """The greedy bot's price list, read off one view."""

    def __init__(self, seen: Seen, waiting: dict[str, Any]) -> None:
        self.cat: Catalogue = catalogue()
        self.seen = seen
        self.waiting = waiting
        me = seen["you"]
        self.me: dict[str, Any] = seen["seats"][me]
        self.number = {d["card"]: d["number"] for d in self.me["hand"]}
        self.wanted_colours = {self.cat.cost_colour[c] for c in seen["offer"] if self.cat.kind[c] == "building"}

    def die(self, card: int) -> float:
        return DIE + (0.3 if self.cat.colour[card] in self.wanted_colours else 0.0)

    def held(self, card: int) -> float:
        """A die in hand: higher numbers build more, 1-3 pay ships."""
        return self.die(card) + 0.05 * float(self.number.get(card, 3))

    def goods(self, card: int) -> float:
        cat = self.cat
        counts = [0, 0, 0]
        for c in (*self.me["goods"], *self.me["buildings"], *self.me["ships"]):
            for good, _ in cat.goods[c]:
                counts[good] += 1
        value = COIN * cat.coin[card]
        for good, price in cat.goods[card]:
            counts[good] += 1
            value += 0.5 * price + (price * 1.5 if counts[good] >= 3 else 0.0)
        if all(counts):
            value += 2.0
        return value

    def ship_reward(self, card: int, laid: bool) -> float:
        cat = self.cat
        reward = cat.ship_reward[card]
        goods_in_offer = sum(1 for c in self.seen["offer"] if cat.kind[c] == "goods")
        value = {
            "karma2": 2 * KARMA, "dice2": 2 * DIE, "coins3": 3 * COIN, "coins2_fame1": 2 * COIN + FAME,
            "goods_cards": 1.8 * min(cat.ship_count[card], goods_in_offer), "die_goods": DIE,
            "fame_goods": FAME, "karma_goods": KARMA, "goods_card_die": DIE + (1.8 if goods_in_offer else 0.0),
            "palace": 2.5,
        }[reward]
        if laid and cat.goods[card]:
            value += 1.0
        return value

    def ship(self, card: int) -> float:
        cat = self.cat
        row = self.me["ships"]
        value = self.ship_reward(card, True)
        if row and cat.ship_number[card] < cat.ship_number[row[-1]]:
            value -= 1.2 * len(row)
        elif len(row) == 2:
            value += MANAGER
        else:
            value += 0.8 - cat.ship_number[card] / 40
        return value

    def building(self, card: int) -> float:
        cat = self.cat
        counts = [0, 0, 0]
        for c in self.me["buildings"]:
            for t in cat.buildings[c]:
                counts[t] += 1
        value = FAME * len(cat.buildings[card])
        for t in cat.buildings[card]:
            counts[t] += 1
            value += MANAGER if counts[t] == 3 else 0.4
        if all(counts):
            value += 1.0
        return value

    def palace(self, action: int) -> float:
        cat = self.cat
        if action == 2:
            return 2 * DIE
        if action == 3:
            return 2 * KARMA + DIE
        if action == 4:
            return COIN * sum(len(cat.goods[c]) for c in (*self.me["goods"], *self.me["buildings"], *self.me["ships"]))
        if action == 5:
            lasts = [s["ships"][-1] for s in self.seen["seats"] if s["ships"]]
            return KARMA + max((self.ship_reward(c, False) for c in lasts), default=0.0)
        top = self.seen["draw"]["top"]
        return 1.0 if top is None else self.free(top)

    def free(self, card: int) -> float:
        """A card's action for nothing (palace action 6, a reward's free pick)."""
        kind = self.cat.kind[card]
        if kind == "building":
            return self.building(card)
        if kind == "ship":
            return self.ship(card)
        if kind == "goods":
            return self.goods(card)
        return 1.5

    def paid(self, dice: Sequence[int], jokers: int, target: int | None, total_cost: int | None) -> float:
        """What a payment costs: the dice given up, the karma moved, the managers used as jokers."""
        cost = sum(self.held(c) for c in dice) + 0.8 * MANAGER * jokers
        if target is not None and dice:
            cost += KARMA * abs(self.number[dice[0]] - target)
        if total_cost is not None:
            cost += KARMA * max(0, total_cost - sum(self.number[c] for c in dice) - 6 * jokers)
        return cost

    def worth(self, d: Decision) -> float:
        cat = self.cat
        kind, args = d.kind, d.args
        hand = len(self.me["hand"])
        if kind == "dice":
            return self.die(args[0]) - (DIE if hand >= cat.hand_limit else 0.0) - 0.3
        if kind == "building":
            card = args[0]
            return self.building(card) - self.paid(args[2:], args[1], None, cat.cost_value[card])
        if kind in ("ship", "palace"):
            card, die = args
            target = cat.ship_cost[card] if kind == "ship" else cat.palace_action[card]
            gain = self.ship(card) if kind == "ship" else self.palace(cat.palace_action[card])
            return gain - self.paid([] if die == JOKER else [die], 1 if die == JOKER else 0, target, None)
        if kind == "goods":
            return self.goods(args[0])
        if kind == "draw":
            return 2 * DIE - 0.7 * MANAGER if hand <= 4 else -1.0
        if kind == "extra":
            return 0.5
        if kind in ("end", "pass", "place"):
            return 0.0
        if kind == "discard":
            return -sum(self.held(c) for c in args)
        if kind == "take":
            what = self.waiting["kind"]
            card = args[0]
            if what == "take_die":
                return self.die(card)
            if what == "free_palace":
                return self.palace(cat.palace_action[card])
            return self.free(card)
        if kind == "copy":
            return self.ship_reward(self.seen["seats"][args[0]]["ships"][-1], False)
        if kind == "choose":
            if self.waiting["kind"] == "threes":
                chosen = self.waiting["threes"][args[0]]
                return float(sum(e["coins"] * COIN + e["managers"] * MANAGER - 0.3 * len(e["cards"]) for e in chosen))
            if args[0] == 0:
                return 2 * COIN if self.waiting.get("reward") == "coins2_or_palace" else FAME
            want = "palace" if self.waiting.get("reward") == "coins2_or_palace" else "ship"
            cards = [c for c in self.seen["offer"] if cat.kind[c] == want]
            if want == "palace":
                return max(self.palace(cat.palace_action[c]) for c in cards)
            return max(self.ship(c) for c in cards)
        return 0.0


def decide_greedy(seen: Seen, waiting: dict[str, Any], options: list[Decision], rng: Draw) -> Decision:
    """The option worth most by the price list (ties drawn by the bot's own generator)."""
    prices = Prices(seen, waiting)
    best: list[Decision] = []
    best_value = float("-inf")
    for d in options:
        v = prices.worth(d)
        if v > best_value + 1e-9:
            best, best_value = [d], v
        elif abs(v - best_value) <= 1e-9:
            best.append(d)
    return rng.choice(best)


def greedy_bot(seed: int | str = 0) -> Bot:
    rng = Draw(seed)

    def choose(g: State) -> Decision:
        seen, waiting, options = what_the_seat_sees(g)
        return decide_greedy(seen, waiting, options, rng)

    return choose


BOTS: dict[str, Callable[[int | str], Bot]] = {"random": random_bot, "greedy": greedy_bot}
