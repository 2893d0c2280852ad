"""Frames: msgpack in binary frames, JSON in text frames. Decoding never raises anything but ProtocolError."""

from __future__ import annotations

import threading
from typing import Any

import msgpack  # type: ignore[import-untyped]
import orjson
from pydantic import ValidationError

from .errors import ProtocolError
from .messages import CLIENT_MESSAGE, ClientMessage, Decide

MAX_FRAME = 64 * 1024  # bytes; a custom sheet file is the largest thing a client sends (about 6 KiB)


_local = threading.local()  # a Packer per thread: reusing one halves the cost of packing a small message


def pack(obj: Any) -> bytes:
    try:
        packer = _local.packer
    except AttributeError:
        packer = _local.packer = msgpack.Packer(use_bin_type=True)
    try:
        data: bytes = packer.pack(obj)
    except BaseException:
        packer.reset()  # a failed pack may leave part of the object in the buffer
        raise
    return data


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def to_json(obj: Any) -> str:
    """The JSON text of plain data (tuples written as arrays), by orjson."""
    return orjson.dumps(obj).decode()


MAX_ID = 2**53  # integer ids are below this (JavaScript's exact integers); a larger one cannot be answered


def raw_id(obj: Any) -> str | int | None:
    """The client's id of a frame that failed validation, so the error can still name the message; None when
    the id is not a valid one (a reply can only name a valid id: 2**64 does not even fit in msgpack)."""
    if type(obj) is dict:
        mid = obj.get("id")
        if (type(mid) is str and 0 < len(mid) <= 64) or (type(mid) is int and 0 <= mid < MAX_ID):
            return mid
    return None


def check_size(frame: bytes | str) -> None:
    if len(frame) > MAX_FRAME:
        raise ProtocolError("malformed_frame", f"frame larger than {MAX_FRAME} bytes")


def decode_obj(frame: bytes | str) -> Any:
    """The frame as plain data. (The transport already cut frames past 4 x MAX_FRAME; the caller checks
    MAX_FRAME after reading the id, so that the refusal can name the message.)"""
    try:
        return _loads(frame) if isinstance(frame, str) else unpack(frame)
    except Exception:  # any decoder failure is the client's malformed frame
        raise ProtocolError("malformed_frame", "not a msgpack (binary) or JSON (text) frame") from None


def _loads(text: str) -> Any:
    """A text frame as JSON (RFC 8259, by orjson: NaN, Infinity and numbers past 64 bits are not JSON)."""
    return orjson.loads(text)


_DECIDE_KEYS = frozenset(("type", "id", "decision", "v"))


def plain_decide(obj: Any) -> tuple[str | int, Any, int | None] | None:
    """(id, decision, v) of the most frequent message, when it is plainly valid, without the general
    validator (a quarter of the cost of handling it): exactly the checks of `Decide`, for exact types only;
    anything else (a lax type pydantic would coerce, an error to word) is None, to go the general way."""
    if type(obj) is not dict or obj.get("type") != "decide" or not obj.keys() <= _DECIDE_KEYS:
        return None
    mid, v = obj.get("id"), obj.get("v")
    if "decision" not in obj or not (
        (type(mid) is str and 0 < len(mid) <= 64) or (type(mid) is int and 0 <= mid < MAX_ID)
    ):
        return None
    if v is not None and type(v) is not int:
        return None
    return mid, obj["decision"], v


def parse_message(obj: Any) -> ClientMessage:
    fast = plain_decide(obj)
    if fast is not None:
        mid, decision, v = fast
        return Decide.model_construct(type="decide", id=mid, decision=decision, v=v)
    try:
        return CLIENT_MESSAGE.validate_python(obj)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "message"
        raise ProtocolError("malformed_frame", f"{where}: {first['msg']}") from None
