"""Frames: msgpack in binary frames, JSON in text frames. Decoding never raises anything but ProtocolError."""

from __future__ import annotations

import json
import json.scanner
import threading
from collections.abc import Callable, Iterable
from typing import Any, cast

import msgpack  # type: ignore[import-untyped]
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


# One encoder (json.dumps with any option builds a new one per call); what is sent is plain data built by the
# server, never circular, so the check for cycles is left out. Its C part is made once too, with the arguments
# JSONEncoder.encode passes it on every call (where CPython's json has no C part, the encoder itself is used).
_JSON = json.JSONEncoder(separators=(",", ":"), check_circular=False)
_make_c: Callable[..., Callable[[Any, int], Iterable[str]]] | None = getattr(json.encoder, "c_make_encoder", None)
_C_JSON = (
    None
    if _make_c is None
    else _make_c(None, _JSON.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
)


def to_json(obj: Any) -> str:
    """`json.dumps(obj, separators=(",", ":"))`, the same text, without building an encoder per call."""
    if _C_JSON is None or isinstance(obj, str):
        return _JSON.encode(obj)
    return "".join(_C_JSON(obj, 0))


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


# (What json.loads reads with: the scanner of a default decoder, its C one where there is one.)
_scan: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(cast(Any, json.JSONDecoder()))


def _loads(text: str) -> Any:
    """`json.loads(text)`: a message as clients write it (an object, nothing around it) read by json's scanner
    directly, without the Python layers of `loads` around it (most of the cost of a small message); anything
    else, and every error, by `json.loads` itself."""
    if text[:1] == "{":
        try:
            obj, end = _scan(text, 0)
        except StopIteration:
            return json.loads(text)
        if end == len(text):
            return obj
    return json.loads(text)


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
