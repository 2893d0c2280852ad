"""Whose turn e-mails may go where: an address gets turn e-mails only after its owner confirmed it from the link in
a first e-mail (which says who asked, and how to refuse all mail from this server), never after its owner refused
them, and at most RAJAS_MAIL_PER_ADDRESS_DAY a day (a room sends at most RAJAS_MAIL_PER_ROOM_DAY, and an address
gets at most RAJAS_CONFIRMATIONS_PER_DAY confirmation e-mails a day).

What is kept, in the rooms' store (Redis, so every node agrees; else memory):
- the address a seat gave, beside its room (`rajas:{CODE}:mail`, gone with the room), never in the room's record;
- per address, by the SHA-256 of its lower-cased form (no address in clear): confirmed or refused;
- daily counters; and one random secret, made by the first node, that signs the links: a confirmation link says
  which address and until when (seven days), an unsubscribe link which address (it never expires).
"""

from __future__ import annotations

import hashlib
import hmac
import time

from rajas.server.storage.store import Consent

CONFIRMED, REFUSED = "confirmed", "refused"
CONFIRM_DAYS = 7  # a confirmation link works this long


def address_id(address: str) -> str:
    """What an address is kept under: not the address itself."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()[:32]


class Links:
    """The signed tokens of the links in e-mails: `confirm` (an address and its expiry) and `unsubscribe`."""

    def __init__(self, consent: Consent) -> None:
        self.consent = consent

    async def _sign(self, text: str) -> str:
        return hmac.new(await self.consent.secret(), text.encode(), hashlib.sha256).hexdigest()[:32]

    async def confirm(self, aid: str) -> str:
        until = int(time.time()) + CONFIRM_DAYS * 86400
        return f"{aid}.{until}.{await self._sign(f'confirm:{aid}:{until}')}"

    async def unsubscribe(self, aid: str) -> str:
        return f"{aid}.{await self._sign(f'unsubscribe:{aid}')}"

    async def read(self, kind: str, token: str) -> str | None:
        """The address id a token of `kind` names, if it is ours and has not expired; else None."""
        parts = token.split(".")
        if kind == "confirm" and len(parts) == 3 and parts[1].isdigit():
            aid, until, mac = parts
            ok = int(until) >= time.time() and hmac.compare_digest(mac, await self._sign(f"confirm:{aid}:{until}"))
            return aid if ok else None
        if kind == "unsubscribe" and len(parts) == 2:
            aid, mac = parts
            return aid if hmac.compare_digest(mac, await self._sign(f"unsubscribe:{aid}")) else None
        return None

