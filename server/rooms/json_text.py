"""The JSON text of the plain data the server sends (dicts, lists, tuples, str, int, float, bool, None): the
very text `to_json` (json.dumps with the server's separators) writes, but written by compiled code, without
json's set-up per call, which is most of the cost of the small objects an update is made of. Whatever is
not plain data here is handed to `to_json` whole, so the text never differs.
"""

from __future__ import annotations

import json
from typing import Any

from rajas.protocol import to_json

_quote = json.encoder.encode_basestring_ascii  # (json's own: its C function where there is one)
_strings: dict[str, str] = {}  # the text of short strings seen (keys, phases, event types), up to _STRINGS
_STRINGS = 4096
_SHORT = 40


class _NotPlain(Exception):
    """A dict key json would convert (a float, a bool, None): the whole object goes to json instead."""


def dumps(obj: Any) -> str:
    """`to_json(obj)`, the same text."""
    out: list[str] = []
    try:
        _write(obj, out)
    except _NotPlain:
        return to_json(obj)
    return "".join(out)


def string(s: str) -> str:
    got = _strings.get(s)
    if got is None:
        got = _quote(s)
        if len(s) <= _SHORT and len(_strings) < _STRINGS:  # (bounded: clients choose some strings)
            _strings[s] = got
    return got


def _key(k: Any) -> str:
    if type(k) is str:
        return string(k)
    if type(k) is int:
        return f'"{k!r}"'
    raise _NotPlain


def _write(obj: Any, out: list[str]) -> None:
    # (Typed locals: compiled, each then takes the native path for its type.)
    t = type(obj)
    if t is str:
        s: str = obj
        out.append(string(s))
    elif t is int:
        n: int = obj
        out.append(str(n))
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif t is dict:
        d: dict[Any, Any] = obj
        if not d:
            out.append("{}")
            return
        sep = "{"
        for k, v in d.items():
            out.append(sep)
            out.append(_key(k))
            out.append(":")
            _write(v, out)
            sep = ","
        out.append("}")
    elif t is list or t is tuple or isinstance(obj, tuple):  # (json writes a NamedTuple, Decision, as a list)
        items: list[Any] | tuple[Any, ...] = obj
        if not items:
            out.append("[]")
            return
        sep = "["
        for v in items:
            out.append(sep)
            _write(v, out)
            sep = ","
        out.append("]")
    elif t is float:
        x: float = obj
        # (json writes NaN and the infinities its own way; a finite float as its repr)
        out.append(repr(x) if x - x == 0.0 else to_json(x))
    else:
        out.append(to_json(obj))  # a subclass, anything else: json's text (or its TypeError)
