"""Invite codes and tokens.

An invite code is read aloud, so its alphabet drops look-alikes (0/o, 1/l/i, u); 11 symbols of 30
carry 53.9 bits, more than the 40 the invitation needs to be unguessable.
"""

from __future__ import annotations

import hashlib
import math
import secrets

ALPHABET = "23456789abcdefghjkmnpqrstvwxyz"
CODE_LENGTH = 11
CODE_BITS = CODE_LENGTH * math.log2(len(ALPHABET))


def invite_code() -> str:
    """Like `k7p-xq4m-9rtz`: groups of 3, 4 and 4 symbols."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:3]}-{raw[3:7]}-{raw[7:]}"


def normalise(code: str) -> str:
    """What a person typed (spaces, capitals, missing dashes) back to the stored form."""
    raw = "".join(c for c in code.lower() if c.isalnum())
    if len(raw) != CODE_LENGTH:
        return code.strip().lower()
    return f"{raw[:3]}-{raw[3:7]}-{raw[7:]}"


def token() -> str:
    return secrets.token_urlsafe(18)


def seat_id() -> str:
    """A public seat id: not secret, only unique within a room."""
    return secrets.token_hex(4)


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The published hash of the dice seed; revealing the seed later proves the dice were fixed at the start."""
    return hashlib.sha256(seed.encode()).hexdigest()
