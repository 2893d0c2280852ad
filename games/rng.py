"""The game's own dice generator: SHA-256 in counter mode over a 256-bit key, kept as one integer in the state.

Global `random` is never used: a game must replay exactly from its seed (and the players' contributions) on
any machine, and a browser must be able to replay the same rolls (games/dice_charmers/web/dicecheck.js; the construction
is written out in docs/fairness.md and pinned by docs/dice-vectors.json).

The state is `key << 64 | counter`: its 40 big-endian bytes are exactly what is hashed for the next value, and
the next state is the state plus one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

MASK64 = (1 << 64) - 1
DICE_VERSION = "rajas-dice/2"  # names this construction in game logs and in the test vectors
_PREFIX = DICE_VERSION.encode() + b"\n"


def _raw(seed: int | str | bytes) -> bytes:
    if isinstance(seed, int):
        return seed.to_bytes((seed.bit_length() + 8) // 8 or 1, "big", signed=True)
    if isinstance(seed, str):
        return seed.encode()
    return seed


def dice_key(seed: int | str | bytes, contributions: Sequence[str] = ()) -> bytes:
    """SHA-256 of "rajas-dice/2\\n", the seed, and "\\n" + each contribution in seat order (UTF-8 text)."""
    data = _PREFIX + _raw(seed)
    for c in contributions:
        data += b"\n" + c.encode()
    return hashlib.sha256(data).digest()


def seed_to_state(seed: int | str | bytes, contributions: Sequence[str] = ()) -> int:
    """The generator's starting state (counter 0) for a seed and the players' contributions."""
    return int.from_bytes(dice_key(seed, contributions), "big") << 64


def next_u64(state: int) -> tuple[int, int]:
    """Returns (new_state, value): the first 8 bytes of SHA-256(key || counter), big-endian."""
    digest = hashlib.sha256(state.to_bytes(40, "big")).digest()
    return state + 1, int.from_bytes(digest[:8], "big")


def roll(state: int, sides: int) -> tuple[int, int]:
    """Returns (new_state, face index in 0..sides-1), unbiased by rejection."""
    limit = MASK64 - (MASK64 + 1) % sides
    while True:
        state, value = next_u64(state)
        if value <= limit:
            return state, value % sides


def roll_many(state: int, sides: int, count: int) -> tuple[int, list[int]]:
    """`count` rolls in a row; the same values as calling `roll` `count` times."""
    limit = MASK64 - (MASK64 + 1) % sides
    out: list[int] = []
    while len(out) < count:
        value = int.from_bytes(hashlib.sha256(state.to_bytes(40, "big")).digest()[:8], "big")
        state += 1
        if value <= limit:
            out.append(value % sides)
    return state, out


def state_to_wire(state: int) -> str:
    """The state as stored in a record: hex (msgpack's integers stop at 64 bits)."""
    return format(state, "080x")


def state_from_wire(value: int | str) -> int:
    """A stored state back (an integer from an older record is taken as it is)."""
    return int(value, 16) if isinstance(value, str) else int(value)


def bot_contribution(seed: str, seat: int) -> str:
    """The contribution of a seat whose player sent none: its bot's value, derived from the committed seed
    (SHA-256 of "rajas-bot-entropy/1\\n", the seed, "\\n" and the seat number, as hex)."""
    return hashlib.sha256(f"rajas-bot-entropy/1\n{seed}\n{seat}".encode()).hexdigest()
