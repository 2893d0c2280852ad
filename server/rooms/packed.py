"""Bytes packed now or when first asked for: what a room store is handed to write."""

from __future__ import annotations

from collections.abc import Callable


class Lazy:
    """Bytes packed only when first asked for. The in-process store keeps a room's record, log entries and
    recent updates like this: most are replaced before anyone reads them (the node has the room itself in
    its cache), so most are never packed. Redis, which needs them at once, asks at once."""

    __slots__ = ("_data", "_make")

    def __init__(self, make: Callable[[], bytes]) -> None:
        self._make: Callable[[], bytes] | None = make
        self._data: bytes | None = None

    @property
    def data(self) -> bytes:
        if self._data is None:
            assert self._make is not None
            self._data, self._make = self._make(), None
        return self._data


Packed = bytes | Lazy


def as_bytes(packed: Packed) -> bytes:
    return packed if isinstance(packed, bytes) else packed.data
