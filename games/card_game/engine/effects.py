"""Carrying out what cards give: rows laid, ship and palace rewards, score-track rewards, dice coming into the
hand under its limit, and the effect stack that holds what is still to be done and what must be chosen.

An effect is a tuple (kind, *args). Automatic effects are carried out as they come to the top of the stack;
an effect that needs a choice waits for a decision (`options`), and one whose choice is forced is taken at once.
"""

from __future__ import annotations

from itertools import combinations

from .cards import catalogue
from .decisions import Decision
from .piles import draw_top, ensure_offer, shown, take_from_offer, to_discard
from .state import Effect, Work
from .threes import choices
from .track import gain_coins, gain_fame, gain_karma, gain_manager

# Effects that need the player's choice; every other kind is carried out without asking.
CHOICES = frozenset({"discard", "take_die", "take_goods", "free_palace", "free_ship", "track_choice", "copy", "threes"})
FROM_OFFER = frozenset({"take_die", "take_goods", "free_palace", "free_ship", "track_choice"})


# ---- rows ---------------------------------------------------------------------------------------------------


def place_building(w: Work, card: int) -> None:
    """A building card into the row: one fame per building on it ("Voor elk gebouw op de kaart")."""
    w.me.buildings.append(card)
    w.emit({"type": "building_placed", "player": w.current, "card": card})
    gain_fame(w, len(catalogue().buildings[card]), "buildings")


def place_goods(w: Work, card: int) -> None:
    """A goods card into the row: a coin shown on it comes at once."""
    w.me.goods.append(card)
    w.emit({"type": "goods_placed", "player": w.current, "card": card})
    coin = catalogue().coin[card]
    if coin:
        gain_coins(w, coin, "goods_cards")


def place_ship(w: Work, card: int) -> None:
    """A ship at the end of the row; a lower number than the last ship's discards the row first. Then its
    reward."""
    cat = catalogue()
    p = w.me
    if p.ships and cat.ship_number[card] < cat.ship_number[p.ships[-1]]:
        old, p.ships = p.ships, []
        to_discard(w, old, "ship_row_reset", w.current)
    p.ships.append(card)
    w.emit({"type": "ship_placed", "player": w.current, "card": card, "ship": cat.ship_number[card]})
    w.stack.append(("ship_reward", card))


def goods_shown(w: Work) -> int:
    """Goods on the player's own cards, whatever kind of card shows them (palace action 4)."""
    cat = catalogue()
    p = w.me
    return sum(len(cat.goods[c]) for c in (*p.goods, *p.buildings, *p.ships))


# ---- rewards --------------------------------------------------------------------------------------------------


def push_all(w: Work, effects: list[Effect]) -> None:
    """Effects to carry out in the order given (the stack takes the last pushed first)."""
    w.stack.extend(reversed(effects))


def offer_dice(count: int) -> list[Effect]:
    """`count` cards from the offer into the hand (see `dice_in`)."""
    return [("dice_in", "offer", count)]


def pile_dice(count: int) -> list[Effect]:
    """`count` cards from the draw pile into the hand (a manager's two dice; see `dice_in`)."""
    return [("dice_in", "pile", count)]


def dice_in(w: Work, source: str, count: int) -> None:
    """Dice coming into the hand: the cards over the hand limit are discarded first ("eerst de overtollige
    kaarten op de aflegstapel leggen, voordat je nieuwe kaarten kunt trekken"), counted when the dice come
    (a reward that came in between may have filled the hand), and nothing else happens until they are in."""
    over = len(w.me.hand) + count - catalogue().hand_limit
    take: Effect = ("take_die",) if source == "offer" else ("pile_die",)
    push_all(w, ([("discard", over)] if over > 0 else []) + [take] * count)


def ship_reward(w: Work, card: int) -> None:
    """What a ship gives the moment it is laid (or copied by palace action 5). Goods printed on a ship are
    owned while it lies in the owner's row, so a copy gives only the rest."""
    cat = catalogue()
    reward = cat.ship_reward[card]
    if reward == "karma2":
        gain_karma(w, 2)
    elif reward == "dice2":
        push_all(w, offer_dice(2))
    elif reward == "coins3":
        gain_coins(w, 3, "ships")
    elif reward == "coins2_fame1":
        gain_coins(w, 2, "ships")
        gain_fame(w, 1, "ships")
    elif reward == "goods_cards":
        push_all(w, [("take_goods",)] * cat.ship_count[card])
    elif reward == "die_goods":
        push_all(w, offer_dice(1))
    elif reward == "fame_goods":
        gain_fame(w, 1, "ships")
    elif reward == "karma_goods":
        gain_karma(w, 1)
    elif reward == "goods_card_die":
        push_all(w, [("take_goods",), *offer_dice(1)])
    elif reward == "palace":
        push_all(w, [("free_palace",)])


def palace_action(w: Work, action: int) -> None:
    """Palace actions 2-6 (the number is also the die that pays for it)."""
    if action == 2:
        push_all(w, offer_dice(2))
    elif action == 3:
        gain_karma(w, 2)
        push_all(w, offer_dice(1))
    elif action == 4:
        coins = goods_shown(w)
        if coins:
            gain_coins(w, coins, "palace")
    elif action == 5:
        gain_karma(w, 1)
        push_all(w, [("copy",)])
    elif action == 6:
        push_all(w, [("top_card",)])


def track_reward(w: Work, reward: str) -> None:
    """The reward on a score-track card's night side, the moment it is turned."""
    if reward == "karma2":
        gain_karma(w, 2)
    elif reward in ("coins2_or_palace", "fame_or_ship"):
        push_all(w, [("track_choice", reward)])
    elif reward == "manager":
        gain_manager(w, 1)
    elif reward == "dice2":
        push_all(w, offer_dice(2))
    elif reward == "extra_turn":
        w.extra_turns += 1
        w.emit({"type": "extra_turn_won", "player": w.current})


def carry_out_card(w: Work, card: int) -> None:
    """A card's action for free (palace action 6's top card): a building, ship or goods card into its row,
    a palace action carried out and then discarded."""
    kind = catalogue().kind[card]
    if kind == "building":
        place_building(w, card)
    elif kind == "goods":
        place_goods(w, card)
    elif kind == "ship":
        place_ship(w, card)
    else:
        w.in_play.append(card)
        push_all(w, [("palace_action", catalogue().palace_action[card]), ("finish", card)])


def into_hand(w: Work, card: int, source: str) -> None:
    w.me.hand.append(card)
    w.emit({"type": "took_die", "player": w.current, "card": card, "from": source})
    w.emit({"type": "dice_seen", "to": w.current, "cards": shown(w, [card])})


# ---- the stack ----------------------------------------------------------------------------------------------


def run_automatic(w: Work, effect: Effect) -> None:
    kind = effect[0]
    if kind == "reward":
        track_reward(w, effect[1])
    elif kind == "dice_in":
        dice_in(w, effect[1], effect[2])
    elif kind == "ship_reward":
        ship_reward(w, effect[1])
    elif kind == "palace_action":
        w.emit({"type": "palace_action", "player": w.current, "action": effect[1]})
        palace_action(w, effect[1])
    elif kind == "finish":
        w.in_play.remove(effect[1])
        to_discard(w, [effect[1]], "palace_done", w.current)
    elif kind == "hand_in":
        w.in_play.remove(effect[1])
        into_hand(w, effect[1], "offer")
    elif kind == "pile_die":
        card = draw_top(w)
        if card is not None:
            into_hand(w, card, "pile")
    elif kind == "top_card":
        card = draw_top(w)
        if card is not None:
            w.emit({"type": "top_card_taken", "player": w.current, "card": card})
            carry_out_card(w, card)
    else:
        raise AssertionError(f"unknown effect {kind}")


def options(w: Work, effect: Effect) -> list[Decision]:
    """The decisions that settle a choice effect (empty: it cannot be carried out and lapses)."""
    cat = catalogue()
    kind = effect[0]
    p = w.me
    if kind == "discard":
        return [Decision("discard", c) for c in combinations(sorted(p.hand), min(effect[1], len(p.hand)))]
    if kind == "take_die":
        return [Decision("take", (c,)) for c in sorted(w.offer)]
    if kind in ("take_goods", "free_palace", "free_ship"):
        want = {"take_goods": "goods", "free_palace": "palace", "free_ship": "ship"}[kind]
        return [Decision("take", (c,)) for c in sorted(w.offer) if cat.kind[c] == want]
    if kind == "track_choice":
        want = "palace" if effect[1] == "coins2_or_palace" else "ship"
        alternative = any(cat.kind[c] == want for c in w.offer)
        return [Decision("choose", (0,))] + ([Decision("choose", (1,))] if alternative else [])
    if kind == "copy":
        return [Decision("copy", (s,)) for s in range(w.n) if w.players[s].ships]
    if kind == "threes":
        return [Decision("choose", (i,)) for i in range(len(choices(cat, p)))]
    raise AssertionError(f"unknown choice {kind}")


def settle(w: Work, effect: Effect, d: Decision) -> None:
    """Carries out a choice effect with the decision that settles it (one of `options`)."""
    cat = catalogue()
    kind = effect[0]
    if kind == "discard":
        for c in d.args:
            w.me.hand.remove(c)
        to_discard(w, list(d.args), "hand_limit", w.current)
    elif kind == "take_die":
        take_from_offer(w, d.args[0])
        into_hand(w, d.args[0], "offer")
    elif kind == "take_goods":
        take_from_offer(w, d.args[0])
        place_goods(w, d.args[0])
    elif kind == "free_ship":
        take_from_offer(w, d.args[0])
        place_ship(w, d.args[0])
    elif kind == "free_palace":
        card = d.args[0]
        take_from_offer(w, card)
        w.in_play.append(card)
        push_all(w, [("palace_action", cat.palace_action[card]), ("finish", card)])
    elif kind == "track_choice":
        if d.args[0] == 0:
            if effect[1] == "coins2_or_palace":
                gain_coins(w, 2, "track")
            else:
                gain_fame(w, 1, "track")
        else:
            push_all(w, [("free_palace",) if effect[1] == "coins2_or_palace" else ("free_ship",)])
    elif kind == "copy":
        ship = w.players[d.args[0]].ships[-1]
        w.emit({"type": "ship_copied", "player": w.current, "from": d.args[0], "card": ship})
        ship_reward(w, ship)
    elif kind == "threes":
        carry_out_threes(w, d.args[0])


def carry_out_threes(w: Work, index: int) -> None:
    """The chosen set of three-of-a-kind effects: its cards leave the rows for the discard pile, then each
    effect gives its coins or manager."""
    cat = catalogue()
    p = w.me
    chosen = choices(cat, p)[index]
    cards = sorted({c for e in chosen for c in e.cards})
    p.buildings = [c for c in p.buildings if c not in cards]
    p.goods = [c for c in p.goods if c not in cards]
    p.ships = [c for c in p.ships if c not in cards]
    w.emit({"type": "three_of_a_kind", "player": w.current, "effects": [e.describe() for e in chosen]})
    to_discard(w, cards, "three_of_a_kind", w.current)
    for e in chosen:
        if e.coins:
            gain_coins(w, e.coins, "sales")
        if e.managers:
            gain_manager(w, e.managers)


def run_stack(w: Work) -> bool:
    """Carries out effects until one needs a decision (True) or the stack is empty (False)."""
    while w.stack:
        effect = w.stack[-1]
        if effect[0] not in CHOICES:
            w.stack.pop()
            run_automatic(w, effect)
            continue
        if effect[0] in FROM_OFFER:
            ensure_offer(w)
        found = options(w, effect)
        if len(found) > 1:
            return True
        w.stack.pop()
        if found:
            settle(w, effect, found[0])
        else:
            w.emit({"type": "nothing_to_take", "player": w.current, "effect": effect[0]})
    return False
