"""The chat's messages in the contract (docs/protocol.md, Chat): what the server sends is described by the models,
and a client's chat message is a text of 1-200 characters or one of the quick reactions, never both, and never
names its writer."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from rajas.protocol import ProtocolError, parse_message
from rajas.protocol.messages import CHAT_MAX, Chat, ChatRules
from rajas.protocol.server_messages import check_server_message

from .test_contract import ROOM

LINE = {"id": "3f9c0a1b2c4d", "time": 1763767845.0, "name": "Anna", "seat": "s1", "text": "hi!", "reaction": None}


def test_the_chat_the_server_sends_is_in_the_contract() -> None:
    frames: list[dict[str, Any]] = [
        {"type": "chat", "line": LINE},
        {"type": "chat", "line": {**LINE, "seat": None, "name": "", "text": None, "reaction": "dice"}},
        {"type": "chat_rules", "spectators": False},
        {"type": "snapshot", "v": 3, "room": ROOM, "game": None, "sheet": None, "sheet_digest": "7bed",
         "chat": {"lines": [LINE], "spectators": True}},
    ]  # fmt: skip
    assert [check_server_message(f).type for f in frames] == ["chat", "chat", "chat_rules", "snapshot"]


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "chat", "line": {**LINE, "html": "<b>"}},
        {"type": "chat", "line": {**LINE, "reaction": "boo"}},
        {"type": "chat_rules", "spectators": []},
    ],
)
def test_a_chat_frame_the_protocol_does_not_describe_is_refused(frame: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        check_server_message(frame)


def test_a_chat_line_is_a_text_or_a_reaction() -> None:
    text = parse_message({"type": "chat", "id": 1, "text": "x" * CHAT_MAX})
    reaction = parse_message({"type": "chat", "id": 2, "reaction": "oops"})
    rules = parse_message({"type": "chat_rules", "id": 3, "spectators": False})
    assert isinstance(text, Chat) and text.text == "x" * CHAT_MAX and text.reaction is None
    assert isinstance(reaction, Chat) and reaction.reaction == "oops" and reaction.text is None
    assert isinstance(rules, ChatRules) and rules.spectators is False


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "chat", "id": 1},
        {"type": "chat", "id": 1, "text": "hi", "reaction": "oops"},
        {"type": "chat", "id": 1, "text": ""},
        {"type": "chat", "id": 1, "text": "x" * (CHAT_MAX + 1)},
        {"type": "chat", "id": 1, "text": "hi", "name": "Anna"},
        {"type": "chat", "id": 1, "text": "hi", "seat": "s1"},
        {"type": "chat", "id": 1, "text": 5},
        {"type": "chat_rules", "id": 1, "spectators": 0},
    ],
)
def test_a_chat_message_outside_the_contract_is_malformed(obj: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_message(obj)
    assert e.value.code == "malformed_frame"
