"""Rounds and turns: rolling, taking dice, the elephant, karma rerolls, bonuses, end of round and game."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Final

from rajas.games.rng import roll, roll_many

from .decisions import Decision, decision
from .effects import ORDER_FREE
from .resolve import AUTOMATIC, apply_choice, iter_options, options, run_automatic, usable
from .state import (
    ELEPHANT,
    MIDDLE,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_REROLL,
    PHASE_RESOLVE,
    GameState,
    pushed,
    replaced,
    without,
)
from .tracks import Event, has_crossed, standings

FACES = 6
# The rulebook has no round limit; a server needs one so that no game, on any sheet, runs forever (a sheet
# whose tracks cannot meet, players who can no longer act). Random players' games on Sun and Moon end by
# round 36 at most (docs/rules-decisions.md), so no real game reaches it.
ROUND_LIMIT: Final = 100


def turn_order(n: int, start: int) -> tuple[int, ...]:
    """Clockwise from the start player; with two players each takes two dice, alternating."""
    if n == 2:
        return (start, 1 - start, start, 1 - start)
    return tuple((start + i) % n for i in range(n))


def start_round(g: GameState, start: int, events: list[Event]) -> None:
    g.round += 1
    g.start_player = start
    g.order = turn_order(g.n, start)
    g.turn = 0
    g.current = g.order[0]
    g.rng, faces = roll_many(g.rng, FACES, 8)
    g.faces = tuple(faces)
    g.where = (MIDDLE,) * 8
    events.append({"type": "round_started", "round": g.round, "start_player": start})
    events.append({"type": "dice_rolled", "player": start, "faces": list(faces)})
    begin_turn(g, events)


def begin_turn(g: GameState, events: list[Event]) -> None:
    g.phase = PHASE_PICK
    g.stack = ()
    g.pool = ()
    g.reroll = None
    events.append({"type": "turn_started", "player": g.current, "round": g.round, "turn": g.turn})


def may_use_karma(g: GameState) -> bool:
    """Karma only at the start of a turn, never on the start player's first pick (the elephant is still
    empty then), with a die on the elephant and one in the middle."""
    if g.turn == 0 or g.players[g.current].karma <= 0:
        return False
    return ELEPHANT in g.where and MIDDLE in g.where


def die_effect(g: GameState, die: int) -> tuple[object, ...]:
    return g.sheet.die_faces[die][g.faces[die]]


DIE = tuple(decision("die", (d,)) for d in range(8))
KARMA = tuple(decision("karma", (d,)) for d in range(8))
KEEP = tuple(decision("keep", (d,)) for d in range(8))
PASS = decision("pass")
REROLL = decision("reroll")


def pick_options(g: GameState) -> list[Decision]:
    out = []
    seen: dict[tuple[object, ...], bool] = {}  # twins often show the same face
    for d in range(8):
        if g.where[d] != MIDDLE:
            continue
        eff = die_effect(g, d)
        ok = seen.get(eff)
        if ok is None:
            ok = seen[eff] = usable(g, eff)
        if ok:
            out.append(DIE[d])
    if may_use_karma(g):
        if not out:
            out.append(PASS)  # with no usable die, karma is a choice, not a duty
        out.extend(KARMA[d] for d in range(8) if g.where[d] == MIDDLE)
    return out


def can_act(g: GameState) -> bool:
    """Whether the player taking a die now has anything to do (cheaper than listing every option)."""
    where, faces, table = g.where, g.faces, g.sheet.die_faces
    for d in range(8):
        if where[d] == MIDDLE and usable(g, table[d][faces[d]]):
            return True
    return may_use_karma(g)


def reroll_options(g: GameState) -> list[Decision]:
    assert g.reroll is not None
    out = [KEEP[d] for d in g.reroll if usable(g, die_effect(g, d))]
    if g.players[g.current].karma > 0:
        if not out:
            out.append(PASS)  # spending more karma is a choice, never a duty
        out.append(REROLL)
    return out


def pool_options(g: GameState) -> list[Decision]:
    """The player picks which released bonus to use next, and how, in one decision."""
    return list(iter_pool_options(g))


def iter_pool_options(g: GameState) -> Iterator[Decision]:
    seen = set()
    for i, eff in enumerate(g.pool):
        if eff in seen:
            continue
        seen.add(eff)
        if eff[0] in AUTOMATIC:
            if usable(g, eff):
                yield decision("use", (), i)
        else:
            for d in iter_options(g, eff):
                yield decision(d.kind, d.args, i)
    halves = [i for i, e in enumerate(g.pool) if e[0] == "half_road"]
    if len(halves) >= 2:
        # "If you manage on the same turn to release 2 half-roads as bonuses, you may also combine
        # these to form a straight or a bend."
        for d in iter_options(g, ("half_roads", 2)):
            if d.kind == "road":
                yield decision("road", d.args, halves[0])


def legal(g: GameState) -> list[Decision]:
    """Every legal decision now; computed once per state."""
    if g._legal is not None:
        return g._legal  # type: ignore[no-any-return]
    if g.phase == PHASE_PICK:
        out = pick_options(g)
    elif g.phase == PHASE_REROLL:
        out = reroll_options(g)
    elif g.phase == PHASE_RESOLVE:
        out = options(g, g.stack[-1]) if g.stack else pool_options(g)
    else:
        out = []
    g._legal = out
    return out


def advance(g: GameState, events: list[Event]) -> None:
    """Carries out everything that needs no decision, until the player must decide or the game ends."""
    while True:
        g._legal = None
        phase = g.phase
        if phase == PHASE_PICK:
            if can_act(g):
                return
            events.append({"type": "turn_passed", "player": g.current, "reason": "no usable die"})
            end_turn(g, events)
            continue
        if phase == PHASE_REROLL:
            if legal(g):
                return
            # Neither rolled die can be used and no karma is left: no action this turn.
            events.append({"type": "turn_passed", "player": g.current, "reason": "rerolled dice unusable"})
            g.reroll = None
            end_turn(g, events)
            continue
        if phase == PHASE_OVER:
            return
        # PHASE_RESOLVE
        if g.stack:
            eff = g.stack[-1]
            if eff[0] in AUTOMATIC:
                g.stack = g.stack[:-1]
                if usable(g, eff):
                    run_automatic(g, eff, events)
                else:
                    events.append({"type": "bonus_wasted", "player": g.current, "bonus": list(eff)})
                continue
            opts = list(islice(iter_options(g, eff), 2))
            if not opts:
                g.stack = g.stack[:-1]
                events.append({"type": "bonus_wasted", "player": g.current, "bonus": list(eff)})
                continue
            if len(opts) == 1:
                g.stack = g.stack[:-1]
                apply_choice(g, eff, opts[0], events)
                continue
            return
        if g.pool:
            free = next((i for i, e in enumerate(g.pool) if e[0] in ORDER_FREE), -1)
            if free >= 0:
                # Fame, money and karma bonuses need no choice and their order changes nothing.
                eff = g.pool[free]
                g.pool = without(g.pool, free)
                g.stack = pushed(g.stack, eff)
                events.append({"type": "bonus_used", "player": g.current, "bonus": list(eff)})
                continue
            opts = list(islice(iter_pool_options(g), 2))
            if not opts:
                for eff in g.pool:
                    events.append({"type": "bonus_wasted", "player": g.current, "bonus": list(eff)})
                g.pool = ()
                continue
            if len(opts) == 1:
                _use_bonus(g, opts[0], events)
                continue
            return
        end_turn(g, events)


def _use_bonus(g: GameState, d: Decision, events: list[Event]) -> None:
    eff = g.pool[d.bonus]
    g.pool = without(g.pool, d.bonus)
    events.append({"type": "bonus_used", "player": g.current, "bonus": list(eff)})
    if d.kind == "road" and eff[0] == "half_road":
        other = next(i for i, e in enumerate(g.pool) if e[0] == "half_road")
        events.append({"type": "bonus_used", "player": g.current, "bonus": list(g.pool[other])})
        g.pool = without(g.pool, other)
        apply_choice(g, ("half_roads", 2), d, events)
    elif d.kind == "use":
        g.stack = pushed(g.stack, eff)
    else:
        apply_choice(g, eff, d, events)


def end_turn(g: GameState, events: list[Event]) -> None:
    seat = g.current
    events.append({"type": "turn_ended", "player": seat})
    if g.end_after < 0 and has_crossed(g.sheet, g.players[seat]):
        # Two players: "If a player already fulfills the game-end condition with the 1st die, the game
        # ends after the current turn" -- once both have used their first die of the round.
        g.end_after = 1 if g.n == 2 and g.turn <= 1 else len(g.order) - 1
        events.append({"type": "game_end_triggered", "player": seat, "round": g.round, "after_turn": g.end_after})
    if g.end_after >= 0 and g.turn >= g.end_after:
        game_over(g, "tracks_crossed", events)
        return
    if g.turn + 1 < len(g.order):
        g.turn += 1
        g.current = g.order[g.turn]
        begin_turn(g, events)
        return
    events.append({"type": "round_ended", "round": g.round})
    if g.round >= ROUND_LIMIT:
        # Checked once a round, so advance() passing turns nobody can act on ends here too.
        game_over(g, "round_limit", events)
        return
    nxt = (g.start_player + 1) % g.n
    events.append({"type": "elephant_passed", "player": nxt})
    start_round(g, nxt, events)


def game_over(g: GameState, reason: str, events: list[Event]) -> None:
    """The game ends: the tracks crossed (the rulebook's end), or the server's round limit was reached;
    either way the standings are the rulebook's (greatest overlap first)."""
    g.phase = PHASE_OVER
    g.result = tuple(standings(g))
    events.append({"type": "game_over", "round": g.round, "reason": reason, "result": list(g.result)})


def apply_decision(g: GameState, d: Decision, events: list[Event]) -> None:
    """Applies a decision already known to be legal to `g` (a fresh copy)."""
    seat = g.current
    kind = d.kind
    if g.phase == PHASE_PICK:
        if kind == "die":
            die = d.args[0]
            g.where = replaced(g.where, die, seat)
            events.append({"type": "die_picked", "player": seat, "die": die, "face": g.faces[die]})
            if g.turn == 0:
                # The start player puts the other die of the same colour on the elephant.
                twin = g.sheet.die_twin[die]
                g.where = replaced(g.where, twin, ELEPHANT)
                events.append({"type": "elephant_loaded", "player": seat, "die": twin, "face": g.faces[twin]})
            g.stack = (die_effect(g, die),)
            g.phase = PHASE_RESOLVE
        elif kind == "karma":
            elephant = g.where.index(ELEPHANT)
            g.reroll = (elephant, d.args[0])
            _karma_roll(g, events)
            g.phase = PHASE_REROLL
        else:  # pass
            events.append({"type": "turn_passed", "player": seat, "reason": "declined"})
            end_turn(g, events)
    elif g.phase == PHASE_REROLL:
        assert g.reroll is not None
        if kind == "reroll":
            _karma_roll(g, events)
        elif kind == "pass":
            events.append({"type": "turn_passed", "player": seat, "reason": "declined"})
            g.reroll = None
            end_turn(g, events)
        else:
            die = d.args[0]
            other = g.reroll[0] if die == g.reroll[1] else g.reroll[1]
            g.where = replaced(replaced(g.where, die, seat), other, ELEPHANT)
            g.reroll = None
            events.append({"type": "die_kept", "player": seat, "die": die, "face": g.faces[die], "elephant": other})
            g.stack = (die_effect(g, die),)
            g.phase = PHASE_RESOLVE
    else:
        if g.stack:
            eff = g.stack[-1]
            g.stack = g.stack[:-1]
            apply_choice(g, eff, d, events)
        else:
            _use_bonus(g, d, events)


def _karma_roll(g: GameState, events: list[Event]) -> None:
    assert g.reroll is not None
    p = g.players[g.current]
    p.karma_used += 1
    rng = g.rng
    faces = g.faces
    for die in g.reroll:
        rng, face = roll(rng, FACES)
        faces = replaced(faces, die, face)
    g.faces = faces
    g.rng = rng
    events.append(
        {
            "type": "karma_rolled",
            "player": g.current,
            "dice": list(g.reroll),
            "faces": [g.faces[x] for x in g.reroll],
            "karma_left": p.karma,
        }
    )
