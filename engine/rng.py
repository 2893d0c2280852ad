"""The game's own seeded dice generator (splitmix64), kept as one integer in the state.

Global `random` is never used: a game must replay exactly from its seed on any machine.
"""

from __future__ import annotations

import hashlib

MASK64 = (1 << 64) - 1


def seed_to_state(seed: int | str | bytes) -> int:
    """Derives the generator's 64-bit state from any seed (the fairness commitment hashes the same seed)."""
    if isinstance(seed, int):
        raw = seed.to_bytes((seed.bit_length() + 8) // 8 or 1, "big", signed=True)
    elif isinstance(seed, str):
        raw = seed.encode()
    else:
        raw = seed
    return int.from_bytes(hashlib.sha256(b"rajas-dice:" + raw).digest()[:8], "big")


def next_u64(state: int) -> tuple[int, int]:
    """Returns (new_state, value)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


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
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        if z <= limit:
            out.append(z % sides)
    return state, out
