"""The protocol is the contract: its JSON Schema is generated from the models, the browser client's constants
agree with it, and the models refuse what the protocol does not describe."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from rajas.protocol import ERROR_CODES
from rajas.protocol.messages import CLIENT_TYPES
from rajas.protocol.schema import protocol_schema, render
from rajas.protocol.server_messages import SERVER_TYPES, check_server_message

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "protocol.schema.json"


def js_constants(path: Path) -> dict[str, Any]:
    """The literal `export const NAME = value;` of a client module (numbers, strings, arrays and objects,
    frozen or not); computed ones are left out."""
    out: dict[str, Any] = {}
    src = path.read_text()
    for m in re.finditer(r"^export const (\w+) = (.*?);[ \t]*(?://[^\n]*)?$", src, re.M | re.S):
        value = re.sub(r"//[^\n]*", "", m.group(2)).strip()
        value = re.sub(r"^Object\.freeze\((.*)\)$", r"\1", value, flags=re.S)
        value = re.sub(r"([{,]\s*)([A-Za-z_]\w*)\s*:", r'\1"\2":', value)
        value = re.sub(r",\s*([}\]])", r"\1", value)
        value = re.sub(r"^(\d+) \* (\d+)$", lambda n: str(int(n[1]) * int(n[2])), value)
        try:
            out[m.group(1)] = json.loads(value)
        except ValueError:
            continue
    return out


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text())


def _types(schema: dict[str, Any], union: str) -> list[str]:
    defs = schema["$defs"]
    return [defs[ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"] for ref in defs[union]["oneOf"]]


def _enum(prop: dict[str, Any]) -> list[Any]:
    return next(option["enum"] for option in prop.get("anyOf", [prop]) if "enum" in option)


def test_the_schema_in_docs_is_the_one_the_models_make() -> None:
    assert SCHEMA_FILE.read_text() == render(), "run: python -m rajas.protocol.schema > docs/protocol.schema.json"


def test_the_schema_covers_both_directions_and_every_message(schema: dict[str, Any]) -> None:
    assert _types(schema, "ClientMessage") == list(CLIENT_TYPES)
    assert _types(schema, "ServerMessage") == list(SERVER_TYPES)
    assert _enum(schema["$defs"]["Reply"]["properties"]["code"]) == list(ERROR_CODES)
    assert "Welcome" not in schema["$defs"]  # a message the server never sent is not in the contract


def test_the_browser_clients_constants_agree_with_the_schema(schema: dict[str, Any]) -> None:
    js = js_constants(ROOT / "client_web" / "protocol.js")
    defs = schema["$defs"]
    assert js["PROTOCOL_VERSION"] == schema["x-protocol-version"]
    assert js["MAX_FRAME"] == schema["x-max-frame-bytes"]
    assert js["CLIENT_TYPES"] == _types(schema, "ClientMessage")
    assert js["SERVER_TYPES"] == _types(schema, "ServerMessage")
    assert js["ERROR_CODES"] == _enum(defs["Reply"]["properties"]["code"])
    assert sorted(js["ROLES"].values()) == sorted(_enum(defs["Join"]["properties"]["role"]))
    assert sorted(js["STATUS"].values()) == sorted(_enum(defs["RoomView"]["properties"]["status"]))
    settings, limits = defs["RoomSettings"]["properties"], js["SETTINGS"]
    seats = settings["seats"]
    assert limits["seats"] == {"min": seats["minimum"], "max": seats["maximum"], "default": seats["default"]}
    clock = next(o for o in settings["turn_clock"]["anyOf"] if o.get("type") == "number")
    assert limits["turn_clock"] == {"min": clock["minimum"], "max": clock["maximum"]}
    grace = settings["grace"]
    assert limits["grace"] == {"min": grace["minimum"], "max": grace["maximum"], "default": grace["default"]}
    from rajas.games.dice_charmers.game import Options  # (the Dice Charmers' own setting, checked by the game)

    assert limits["sheets"] == _enum(Options.model_json_schema()["properties"]["sheet"])
    # the page's fallback menu (before a room view names the game's `bots`): kinds every game offers
    from rajas.games.registry import GAMES

    assert settings["bot"]["default"] in limits["bots"]
    assert all(set(limits["bots"]) <= set(g.bots) for g in GAMES.values())
    name = next(o for o in defs["Join"]["properties"]["name"]["anyOf"] if o.get("type") == "string")
    assert limits["name_max"] == name["maxLength"]


def test_a_custom_sheet_file_the_page_accepts_fits_in_one_frame(schema: dict[str, Any]) -> None:
    js = js_constants(ROOT / "games" / "dice_charmers" / "web" / "options.js")
    assert js["SHEET_FILE_MAX"] < schema["x-max-frame-bytes"]


def test_the_schema_would_notice_a_constant_out_of_step(tmp_path: Path) -> None:
    moved = tmp_path / "protocol.js"
    moved.write_text((ROOT / "client_web" / "protocol.js").read_text().replace('"rate_limited", ', ""))
    assert js_constants(moved)["ERROR_CODES"] != list(ERROR_CODES)


SEATS = [{"id": "s1", "name": "Ada", "connected": True, "bot": False, "contributed": True}]
ROOM = {
    "code": "abc-defg-hjkm", "status": "lobby", "settings": {"seats": 2}, "seats": SEATS, "host": "s1",
    "spectators": 0, "commitment": "ab" * 32, "seed": None, "deadline": None, "auto": None,
}  # fmt: skip


def test_the_server_messages_as_the_protocol_describes_them_are_accepted() -> None:
    frames: list[dict[str, Any]] = [
        {"type": "reply", "id": "a-1", "ok": True, "data": {"protocol": 1, "server": "rajas"}},
        {"type": "reply", "id": 7, "ok": True, "data": None},
        {"type": "reply", "id": None, "ok": False, "code": "malformed_frame", "message": "not msgpack"},
        {"type": "snapshot", "v": 0, "room": ROOM, "game": None, "sheet": None, "sheet_digest": "7bedcbd816b9743d"},
        {"type": "update", "v": 3, "time": 1.5, "events": [{"type": "seat_taken"}], "room": ROOM, "game": None},
        {"type": "presence", "connected": ["s1"], "spectators": 2},
        {"type": "notice", "code": "kicked", "message": "the host removed you from the room"},
    ]
    assert [check_server_message(f).type for f in frames] == [f["type"] for f in frames]


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "welcome", "protocol": 1, "server": "rajas"},  # never sent: not in the contract
        {"type": "reply", "id": "a-1", "ok": False, "message": "no code"},
        {"type": "reply", "id": "a-1", "ok": True, "code": "internal", "message": "accepted and refused"},
        {"type": "reply", "id": "a-1", "ok": False, "code": "no_such_code", "message": "?"},
        {"type": "presence", "connected": [], "spectators": 0, "extra": 1},  # a field the contract does not name
        {"type": "update", "v": 3, "events": [], "room": {**ROOM, "status": "paused"}, "game": None},
        {"type": "snapshot", "v": 1, "room": ROOM, "game": None, "sheet": None},  # no sheet_digest
    ],
)
def test_a_frame_the_protocol_does_not_describe_is_refused(frame: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        check_server_message(frame)


def test_the_schema_names_the_protocol_version() -> None:
    from rajas.protocol import PROTOCOL_VERSION

    assert protocol_schema()["x-protocol-version"] == PROTOCOL_VERSION


@pytest.mark.parametrize(
    "text",
    ['{"type":"decide","id":1,"decision":["die",[0],-1],"v":3}', ' {"a":1}', '{"a":1} ', '{"a":1}\n', '{"a":1}x',
     "{", "{}", "[1]", '"x"', '{"a":NaN}', '{"a":"\x01"}', '{"a":1e999}', "", "\ufeff{}", '{"a":1}{"b":2}'],
)  # fmt: skip
def test_a_text_frame_decodes_as_json_and_nothing_else(text: str) -> None:
    """What json.loads reads as JSON is read the same; what is not JSON (json.loads also takes NaN and an
    infinite number, which RFC 8259 does not) is a malformed frame."""
    from rajas.protocol.codec import ProtocolError, decode_obj

    try:
        want = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        if want != want or "1e999" in text:  # (an infinity is not JSON either)
            raise ValueError(text)
    except ValueError:
        with pytest.raises(ProtocolError):
            decode_obj(text)
        return
    assert repr(decode_obj(text)) == repr(want)
