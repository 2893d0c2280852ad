"""Every change a room allows: the commands that ask for one (plain data), the outcome of each (a named
result), and `apply`, the reducer that takes a copy of the newest room and a command to an outcome.

Pure: no I/O, no clock (the time comes in the command). The hub calls `apply` on a clone inside the room's
lock and commits the clone when the outcome is a `Change`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rajas.games.interface import RulesError
from rajas.games.rng import bot_contribution
from rajas.protocol.errors import ProtocolError
from rajas.protocol.messages import AddBot, ChangeSettings, HandOver, Kick, Rematch, RemoveBot, Start
from rajas.server.rooms import lobby_changes, series
from rajas.server.rooms.errors import from_rules
from rajas.server.rooms.frozen import freeze
from rajas.server.rooms.lobby_changes import SeatReady, change_settings, hand_over, kick, leave, take_seat
from rajas.server.rooms.room import LOBBY, OVER, PLAYING, Event, Room, Turn, new_seed
from rajas.server.rooms.seat_moves import LeaveGame, SeatCommand, apply_seat
from rajas.server.rooms.turn_rules import TurnCommand, apply_turn, limit_seconds, turn_based
from rajas.server.rooms.undo import TakeBack, take_back, track

# ---- outcomes -------------------------------------------------------------------------------------------


class Change:
    """Commit the changed room: these events go to every client, `entry` (if any) to the game log, `reply`
    to the one who asked. Never changed once made. (A plain class, not a dataclass: compiled, its constructor
    is native code, and every decision makes one.)"""

    __slots__ = ("entry", "events", "reply")

    def __init__(
        self, events: list[Event], entry: list[Any] | None = None, reply: dict[str, Any] | None = None
    ) -> None:
        self.events = events
        self.entry = entry
        self.reply = reply


@dataclass(frozen=True)
class Unchanged:
    """Nothing to commit (a message applied before, a timer that lost its reason): `reply` answers as is."""

    reply: dict[str, Any] | None = None


@dataclass(frozen=True)
class Behind:
    """The command names a newer version than this node's copy (its update is still on its way through the
    store's channel): load the room afresh and apply the command again."""

    at: int


Outcome = Change | Unchanged | Behind
UNCHANGED = Unchanged()

# ---- commands -------------------------------------------------------------------------------------------


class Play:
    """A player's decision `wire`, message id `mid`, made seeing version `at` (None: whatever is newest). Never
    changed once made; a plain class for the reason Change is one."""

    __slots__ = ("at", "mid", "now", "token", "wire")

    def __init__(self, token: str | None, mid: str | int, wire: Any, at: int | None, now: float) -> None:
        self.token = token
        self.mid = mid
        self.wire = wire
        self.at = at
        self.now = now


@dataclass(frozen=True)
class BotPlay:
    """The server's move for `seat`, thought out on version `at` (dropped if the room moved on meanwhile)."""

    seat: int
    wire: Any
    at: int
    now: float


@dataclass(frozen=True)
class SetBot:
    """A bot takes the seat over (its owner stayed away through the grace period) or lets it go."""

    seat_id: str
    on: bool
    only_playing: bool = False  # a take-over happens only during play


@dataclass(frozen=True)
class ExpireClock:
    key: Turn | None


@dataclass(frozen=True)
class TakeSeat:
    name: str
    host_token: str | None


@dataclass(frozen=True)
class LeaveSeat:
    seat_id: str


@dataclass(frozen=True)
class Contribute:
    token: str | None
    commitment: str
    value: str


@dataclass(frozen=True)
class HostAction:
    host_token: str | None
    seat_token: str | None
    action: Kick | Start | HandOver | ChangeSettings | AddBot | RemoveBot | Rematch
    now: float


Command = (
    Play | BotPlay | SetBot | ExpireClock | TakeSeat | LeaveSeat | Contribute | HostAction | TakeBack | SeatCommand
    | SeatReady | TurnCommand
)


def apply(r: Room, cmd: Command) -> Outcome:
    """The outcome of `cmd` on `r`, a clone of the newest room, which it changes when the outcome is a Change.
    Refusals raise ProtocolError (nothing is committed)."""
    if isinstance(cmd, Play):  # (the most frequent: first)
        return play(r, cmd)
    if isinstance(cmd, BotPlay):
        if r.v != cmd.at:
            return UNCHANGED  # the room moved on while the bot thought; it thinks again
        events, entry = decide(r, cmd.seat, cmd.wire, "bot", cmd.now)
        return Change(events, entry, {"v": r.v + 1})
    if isinstance(cmd, SetBot):
        seat = r.seat_index(cmd.seat_id)
        if seat is None or r.seats[seat]["bot"] == cmd.on or (cmd.only_playing and r.status != PLAYING):
            return UNCHANGED
        return Change(set_bot(r, seat, cmd.on))
    if isinstance(cmd, ExpireClock):
        if r.status != PLAYING or r.clock_key != cmd.key or r.auto == cmd.key:
            return UNCHANGED
        return Change(clock_expired(r))
    if isinstance(cmd, TakeSeat):
        taken, events = take_seat(r, cmd.name, cmd.host_token)
        return Change(events, None, {"id": taken["id"], "token": taken["token"]})
    if isinstance(cmd, LeaveSeat):
        at = r.seat_index(cmd.seat_id)
        if at is None or r.status != LOBBY:  # during play the seat stays, left: the bot plays it (seat_moves.py)
            return seat_outcome(r, LeaveGame(cmd.seat_id))
        return Change(leave(r, at))
    if isinstance(cmd, Contribute):
        events = contribute(r, r.seat_for(cmd.token), cmd.commitment, cmd.value)
        return Change(events) if events else UNCHANGED  # (the same value again: a page reloaded)
    if isinstance(cmd, TakeBack):
        return play(r, cmd)
    if isinstance(cmd, SeatReady):
        events = lobby_changes.ready(r, cmd)
        return Change(events) if events else UNCHANGED
    if isinstance(cmd, HostAction):
        return host_action(r, cmd)
    if isinstance(cmd, TurnCommand):
        turn = apply_turn(r, cmd)  # (turn-based rooms: server/turn_rules.py)
        return Change(turn, None, {"done": True}) if turn is not None else UNCHANGED
    return seat_outcome(r, cmd)  # who holds a seat during play (server/seat_moves.py)


def seat_outcome(r: Room, cmd: SeatCommand) -> Outcome:
    moved = apply_seat(r, cmd)
    return Change(moved.events, None, moved.reply) if moved.events else Unchanged(moved.reply)


def play(r: Room, cmd: Play | TakeBack) -> Outcome:
    seat = r.seat_for(cmd.token)
    seat_id: str = r.seats[seat]["id"]
    if r.seen_before(seat_id, cmd.mid):
        return Unchanged({"duplicate": True, "v": r.v})  # sent again (after a reconnect): applied once
    if r.behind(cmd.at):
        return Behind(cmd.at or 0)  # (another node committed it; its update has not reached this node yet)
    # The owner acting on a bot-held seat takes it back.
    back = set_bot(r, seat, False) if r.status == PLAYING and r.seats[seat]["bot"] else []
    if isinstance(cmd, Play):
        events, entry = decide(r, seat, cmd.wire, "player", cmd.now)
    else:
        events, entry = take_back(r, seat, cmd.now)  # (server/undo.py)
    r.remember(seat_id, cmd.mid)
    return Change(back + events if back else events, entry, {"v": r.v + 1})


def host_action(r: Room, cmd: HostAction) -> Outcome:
    if not r.is_host(cmd.host_token, cmd.seat_token):
        raise ProtocolError("not_host", "only the host may do this")
    action = cmd.action
    if isinstance(action, Kick):
        return Change(kick(r, action.seat))
    if isinstance(action, ChangeSettings):
        return Change(change_settings(r, action.settings))
    if isinstance(action, Start):
        events = start(r, cmd.now)
        return Change(events, series.start_mark(r.match), {"commitment": r.match["commitment"] if r.match else None})
    if isinstance(action, AddBot | RemoveBot | Rematch):
        return Change(lobby_changes.host(r, action))
    return Change(hand_over(r, action.seat))


# ---- the changes (each on a clone) ---------------------------------------------------------------------


def contribute(r: Room, seat: int, commitment: str, value: str) -> list[Event]:
    """A seated player's random value for the game's draws, made seeing the room's `commitment`
    (docs/fairness.md)."""
    r.require_lobby()
    if r.match is None or commitment != r.match["commitment"]:
        raise ProtocolError("bad_commitment", "this is not the commitment of this room's dice seed")
    had = r.seats[seat].get("entropy")
    if had == value:
        return []
    if had is not None:
        raise ProtocolError("contribution_fixed", "this seat has already contributed another value")
    r.replace_seat(seat, entropy=value)
    return [{"type": "contributed", "player": seat, "id": r.seats[seat]["id"]}]


def start(r: Room, now: float) -> list[Event]:
    r.require_lobby()
    game = r.game
    if len(r.seats) < game.min_players:
        raise ProtocolError("wrong_phase", f"at least {game.min_players} seated players are needed to start")
    lobby_changes.starting(r)
    match = r.match if r.match is not None else new_seed()
    seed = match["seed"]
    # A seat whose browser sent nothing gets the value its bot derives from the committed seed: fixed before
    # anyone joined, so the server cannot choose it either.
    contributions = [
        {"value": s["entropy"], "by": "player"} if "entropy" in s else {"value": bot_contribution(seed, i), "by": "bot"}
        for i, s in enumerate(r.seats)
    ]
    values = [c["value"] for c in contributions]
    state, events = game.setup(len(r.seats), seed, values, r.components)
    r.status = PLAYING
    r.match = freeze(
        {
            "seed": seed,
            "commitment": match["commitment"],
            "number": series.number(match),
            "start_player": game.start_player(state),
            "players": len(r.seats),
            "dice": game.generator,
            "contributions": contributions,
            "rolls": game.announced(events),  # what the start drew for everyone to see
        }
    )
    r.state = state
    r.undo = None
    head: Event = {
        "type": "game_starting",
        "commitment": match["commitment"],
        "players": len(r.seats),
        "contributions": contributions,
    }
    return [head, *events, *_after_game_change(r, now)]


def decide(r: Room, seat: int, wire: Any, by: str, now: float) -> tuple[list[Event], list[Any]]:
    """Applies a decision for `seat`. Returns the events and the game log entry."""
    if r.status == LOBBY:
        raise ProtocolError("wrong_phase", "the game has not started")
    game = r.game
    try:
        decision = game.decision(wire)
        state, events = game.apply(r.state, decision, seat)
    except RulesError as e:
        raise from_rules(e) from None
    r.undo = track(r, r.state, decision, state, by)
    r.state = state
    wire = game.wire(decision)
    entry = [seat, wire, by, game.announced(events)]
    head: Event = {"type": "decided", "player": seat, "decision": wire, "by": by}
    return [head, *events, *_after_game_change(r, now)], entry


def set_bot(r: Room, seat: int, on: bool) -> list[Event]:
    r.replace_seat(seat, bot=on, bot_at=None, left=False)  # (no longer away, nor left: server/seat_moves.py)
    kind = "bot_took_over" if on else "bot_released"
    return [{"type": kind, "player": seat, "id": r.seats[seat]["id"]}]


def clock_expired(r: Room) -> list[Event]:
    r.auto = r.clock_key
    assert r.auto is not None
    return [{"type": "clock_expired", "player": r.auto[1], "turn": r.auto[0]}]


def _after_game_change(r: Room, now: float) -> list[Event]:
    """Game over: reveal the seed. Otherwise restart the turn clock when a new turn begins."""
    assert r.state is not None and r.match is not None
    r.updated = now
    game = r.game
    if game.is_over(r.state):
        r.status = OVER
        r.deadline = r.clock_key = r.auto = r.began = None
        r.seats = series.record(r.seats, game.result(r.state), game.series)
        return [{"type": "seed_revealed", "seed": r.match["seed"], "commitment": r.match["commitment"]}]
    key = game.turn(r.state)
    if key != r.clock_key:
        r.clock_key = key
        r.auto = None
        # (the commit makes this version; shown by turn-based rooms only, so a live room's view stays as it was)
        r.began = (now, r.v + 1) if turn_based(r.settings) else None
        limit = limit_seconds(r.settings)
        r.deadline = now + limit if limit else None
    return []
