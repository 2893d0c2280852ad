"""The JSON Schema of the whole protocol, both directions, generated from the models:
`python -m rajas.protocol.schema > docs/protocol.schema.json` (a test checks the file is up to date)."""

from __future__ import annotations

import json
from typing import Any

from .codec import MAX_FRAME
from .messages import CLIENT_MESSAGE, PROTOCOL_VERSION
from .server_messages import SERVER_MESSAGE


def _part(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The union's own schema; its definitions go to `defs` (one name, one model in both directions)."""
    for name, definition in schema.pop("$defs", {}).items():
        if defs.setdefault(name, definition) != definition:
            raise ValueError(f"two different models are both called {name}")
    return schema


def protocol_schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    client = _part(CLIENT_MESSAGE.json_schema(), defs)
    server = _part(SERVER_MESSAGE.json_schema(), defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"The rajas wire protocol, version {PROTOCOL_VERSION}",
        "description": (
            "Every websocket frame is one message: msgpack in binary frames, JSON in text frames. A client sends "
            "a ClientMessage, the server a ServerMessage. Generated from protocol/messages.py and "
            "protocol/server_messages.py; described in docs/protocol.md."
        ),
        "x-protocol-version": PROTOCOL_VERSION,
        "x-max-frame-bytes": MAX_FRAME,
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": {"ClientMessage": client, "ServerMessage": server, **dict(sorted(defs.items()))},
    }


def render() -> str:
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(render(), end="")
