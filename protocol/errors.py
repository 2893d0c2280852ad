"""Error codes of the protocol: every refused message is answered with exactly one of these."""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "malformed_frame",  # not msgpack/JSON, not a known message, a field of the wrong type, or too large
    "protocol_version",  # the hello named a protocol version this server does not speak
    "not_joined",  # a room action before joining a room (or after being kicked)
    "bad_token",  # a seat token or host token that does not belong to this room
    "room_not_found",
    "room_full",
    "name_taken",  # a player joining with a name already seated in the room (case and spaces aside)
    "spectators_not_allowed",
    "not_host",
    "wrong_phase",  # lobby action during play, decision in the lobby, ...
    "bad_settings",  # room settings (including a custom sheet) that cannot be played
    "not_a_player",  # a spectator tried to act
    "not_your_turn",
    "illegal_decision",
    "malformed_decision",
    "game_over",
    "stale_version",  # the decision named a room version that is no longer current
    "bad_commitment",  # a dice contribution made against another commitment than the room's (docs/fairness.md)
    "contribution_fixed",  # a seat that already contributed a dice value sent a different one
    "not_away",  # bot_now for a seat whose player is connected, or that the bot plays already
    "takeover_not_allowed",  # taking over a left seat where the room's `takeover` setting is off
    "seat_not_free",  # taking over a seat whose player has not left the game
    "not_a_bot",  # remove_bot named a seat a person holds (the host removes a person with kick)
    "rate_limited",  # over the connection's message rate (control frames count too: those are not answered), or an
    # address's history bytes or replays a minute: HTTP 429
    "too_large",  # an HTTP body (or request head) past its limit: HTTP 413 (431 for the head)
    "too_many_rooms",  # this client address (or its network) created its rooms for this minute, or holds its share
    # of rooms or of turn-based games at once: HTTP 429
    "too_many_listed",  # this client address (or its network) holds its share of public rooms at once: HTTP 429
    "server_full",  # this node holds all the rooms it may: HTTP 503
    "too_many_connections",  # this client address has all the websockets it may: the upgrade gets HTTP 429
    "request_timeout",  # a request head or body not complete in time: HTTP 408, connection closed
    "undo_off",  # an undo in a room whose host switched undo off
    "nothing_to_undo",  # an undo with no decision of this turn left to take back (none made, or the turn passed)
    "undo_after_roll",  # an undo after the dice were rolled this turn (a karma reroll): what came before is fixed
    "too_many_undos",  # the player took back 20 decisions this turn already (server/undo.py UNDOS_PER_TURN)
    "chat_closed",  # a spectator wrote in a chat the host closed for spectators
    "chat_rate_limited",  # over the seat's (a spectator's) chat lines per minute (RAJAS_CHAT_PER_MINUTE)
    "too_many_games",  # a rematch in a room that played RAJAS_GAMES_PER_ROOM games
    "too_many_emails",  # over a seat's (or address's) e-mail changes a day, or confirmation e-mails a day asked for
    "email_unavailable",  # e-mail notices: this server has no SMTP (RAJAS_SMTP_URL), or the room is not turn-based
    "bad_email",  # an e-mail address that is not one (or too long)
    "internal",
]

ERROR_CODES: tuple[str, ...] = ErrorCode.__args__  # type: ignore[attr-defined]


class ProtocolError(Exception):
    """A refused message. The server answers it with `code` and `message` and changes nothing."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message
