"""Turns and rounds: the five actions and the managers' uses a player may choose, carrying one out, and what
comes after - the next turn, the Startifant turned for the second series, a new round, the end."""

from __future__ import annotations

from .cards import catalogue
from .decisions import Decision
from .effects import (
    into_hand,
    options,
    pile_dice,
    place_building,
    place_goods,
    place_ship,
    push_all,
    run_stack,
    settle,
)
from .payment import JOKER, building_payment_karma, building_payments, exact_payments
from .piles import ensure_offer, refill_offer, shown, take_from_offer, to_discard
from .scoring import standings
from .state import PHASE_ACT, PHASE_END, PHASE_OVER, PHASE_PLAN, PHASE_RESOLVE, TRACK_CARDS, Work
from .threes import choices
from .track import gain_karma


def action_decisions(w: Work) -> list[Decision]:
    """The five actions (A-E) the player to move can take now, every legal payment spelt out."""
    cat = catalogue()
    p = w.me
    out: list[Decision] = []
    for card in sorted(w.offer):
        out.append(Decision("dice", (card,)))
        kind = cat.kind[card]
        if kind == "building":
            for pay in building_payments(cat, w.numbers, p.hand, p.karma, p.managers, card):
                out.append(Decision("building", (card, pay.jokers, *pay.dice)))
        elif kind == "ship":
            for die, _ in exact_payments(w.numbers, p.hand, p.karma, p.managers, cat.ship_cost[card]):
                out.append(Decision("ship", (card, die)))
        elif kind == "goods":
            out.append(Decision("goods", (card,)))
        else:
            for die, _ in exact_payments(w.numbers, p.hand, p.karma, p.managers, cat.palace_action[card]):
                out.append(Decision("palace", (card, die)))
    return out


def can_draw(w: Work) -> bool:
    return w.me.managers > 0 and bool(w.draw or w.discard)


def legal(w: Work) -> list[Decision]:
    """Every decision the player to move may take now (empty once the game is over)."""
    if w.phase == PHASE_OVER:
        return []
    if w.phase == PHASE_PLAN:
        placed = set(w.me.track)
        return [Decision("place", (r,)) for r in range(TRACK_CARDS) if r not in placed]
    if w.stack:
        return options(w, w.stack[-1])
    if w.phase == PHASE_ACT:
        out = action_decisions(w)
        if not out:
            out.append(Decision("pass"))
        if can_draw(w):
            out.append(Decision("draw"))
        return out
    if w.phase == PHASE_END:
        out = [Decision("end"), Decision("extra")]
        if can_draw(w):
            out.append(Decision("draw"))
        return out
    raise AssertionError(f"no decision is waited for in phase {w.phase}")


# ---- carrying out a decision ------------------------------------------------------------------------------


def pay_exact(w: Work, die: int, value: int, what: str) -> None:
    p = w.me
    if die == JOKER:
        p.managers -= 1
        w.managers_supply += 1
        w.emit({"type": "paid", "player": w.current, "for": what, "jokers": 1, "karma": 0, "cards": []})
        return
    karma = abs(w.numbers[die] - value)
    p.karma -= karma
    p.hand.remove(die)
    w.emit({"type": "paid", "player": w.current, "for": what, "jokers": 0, "karma": karma,
            "cards": shown(w, [die])})
    to_discard(w, [die], "payment", w.current)


def apply_action(w: Work, d: Decision) -> None:
    cat = catalogue()
    p = w.me
    card = d.args[0] if d.args else -1
    if d.kind == "draw":
        p.managers -= 1
        w.managers_supply += 1
        w.emit({"type": "manager_used", "player": w.current, "use": "draw"})
        push_all(w, pile_dice(2))
        return
    if d.kind == "extra":
        p.managers -= 1
        w.managers_supply += 1
        w.extra_turns += 1
        w.emit({"type": "manager_used", "player": w.current, "use": "extra_turn"})
        end_turn(w)
        return
    if d.kind == "end":
        end_turn(w)
        return
    w.phase = PHASE_RESOLVE
    w.emit({"type": "action", "player": w.current, "action": d.kind, "card": card})
    if d.kind == "pass":
        return
    if d.kind == "dice":
        take_from_offer(w, card)
        if len(p.hand) >= cat.hand_limit:
            w.in_play.append(card)
            push_all(w, [("discard", len(p.hand) + 1 - cat.hand_limit), ("hand_in", card)])
        else:
            into_hand(w, card, "offer")
    elif d.kind == "building":
        jokers, dice = d.args[1], d.args[2:]
        karma = building_payment_karma(cat, w.numbers, tuple(p.hand), p.karma, p.managers, card, dice, jokers)
        assert karma is not None  # (legal() listed it)
        p.karma -= karma
        p.managers -= jokers
        w.managers_supply += jokers
        for c in dice:
            p.hand.remove(c)
        w.emit({"type": "paid", "player": w.current, "for": "building", "jokers": jokers, "karma": karma,
                "cards": shown(w, list(dice))})
        to_discard(w, list(dice), "payment", w.current)
        take_from_offer(w, card)
        place_building(w, card)
    elif d.kind == "ship":
        pay_exact(w, d.args[1], cat.ship_cost[card], "ship")
        take_from_offer(w, card)
        place_ship(w, card)
    elif d.kind == "goods":
        take_from_offer(w, card)
        place_goods(w, card)
    elif d.kind == "palace":
        pay_exact(w, d.args[1], cat.palace_action[card], "palace")
        take_from_offer(w, card)
        w.in_play.append(card)
        push_all(w, [("palace_action", cat.palace_action[card]), ("finish", card)])


def apply_decision(w: Work, d: Decision) -> None:
    """Carries out a decision already known to be legal, then everything that follows without a choice."""
    if w.phase == PHASE_PLAN:
        place_track_card(w, d.args[0])
    elif w.stack:
        settle(w, w.stack.pop(), d)
    else:
        apply_action(w, d)
    advance(w)


def advance(w: Work) -> None:
    """Runs the game on until a decision is needed: effects, three of a kind, the turn's end, the next turn."""
    while w.phase not in (PHASE_OVER, PHASE_PLAN):
        if run_stack(w):
            return
        if w.phase == PHASE_ACT:
            if w.me.managers == 0 and not action_decisions(w):
                apply_action(w, Decision("pass"))  # (nothing can be done at all: no card left to take)
                continue
            return
        if w.phase == PHASE_RESOLVE:
            if choices(catalogue(), w.me):
                w.stack.append(("threes",))
                continue
            w.phase = PHASE_END
            continue
        if w.phase == PHASE_END:
            if w.me.managers > 0:
                return
            end_turn(w)


def begin_turn(w: Work, seat: int, extra: bool = False) -> None:
    w.current = seat
    w.turn_no += 1
    w.phase = PHASE_ACT
    ensure_offer(w)
    w.emit({"type": "turn_started", "player": seat, "round": w.round, "turn": w.turn, "extra": extra})


def end_turn(w: Work) -> None:
    """After a turn: an extra turn first; then the next player, or the next series, round or the end."""
    if w.extra_turns:
        w.extra_turns -= 1
        begin_turn(w, w.current, extra=True)
        return
    series_over = (w.turn + 1) % w.n == 0
    if series_over and w.end_triggered:
        finish(w)
        return
    w.turn += 1
    if w.turn == 2 * w.n:
        if w.round_limit and w.round >= w.round_limit:
            finish(w)
            return
        refill_offer(w)
        w.start_player = (w.start_player + 1) % w.n
        w.round += 1
        w.turn = 0
        w.emit({"type": "round_started", "round": w.round, "start_player": w.start_player})
        begin_turn(w, w.start_player)
        return
    begin_turn(w, (w.start_player + w.turn) % w.n)
    if w.turn == w.n:
        # "Voor de beurt wordt de Startifant omgedraaid en ontvangt de startspeler direct een karmafiche."
        w.emit({"type": "startifant_turned", "player": w.current})
        gain_karma(w, 1)


def finish(w: Work) -> None:
    w.phase = PHASE_OVER
    w.result = standings(w.freeze())
    w.emit({"type": "game_over", "standings": [s._asdict() for s in w.result]})


def place_track_card(w: Work, reward: int) -> None:
    """Planned-track variant: the next card of the player's score track, left to right, night side up."""
    w.me.track.append(reward)
    w.emit({"type": "track_card_placed", "player": w.current, "position": len(w.me.track) - 1,
            "reward": catalogue().score_track[reward]})
    if len(w.me.track) < TRACK_CARDS:
        return
    nxt = (w.current + 1) % w.n
    if nxt == w.start_player:
        begin_turn(w, w.start_player)
    else:
        w.current = nxt
