"""Wire protocol: pydantic message models shared by the server and its clients, encoded with msgpack."""

from .codec import MAX_FRAME, decode_obj, pack, parse_message, to_json, unpack
from .errors import ERROR_CODES, ErrorCode, ProtocolError
from .messages import PROTOCOL_VERSION, RoomSettings

__all__ = [
    "ERROR_CODES",
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "ErrorCode",
    "ProtocolError",
    "RoomSettings",
    "decode_obj",
    "pack",
    "parse_message",
    "to_json",
    "unpack",
]
