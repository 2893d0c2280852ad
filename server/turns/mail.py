"""Turn e-mails: a bounded queue shared fairly by the rooms, and one sender task over SMTP (aiosmtplib). Sending
never holds up or fails a game: a full queue (or a room's full share of it) drops the mail, a send has a timeout,
and a failure (a bad address, an SMTP server away) is counted in /metrics and logged at most once per LOG_EVERY
seconds, never with the address. Each mail says when it was sent (`Date:`), carries a `Message-ID:`, and an
unsubscribe link in its body and in `List-Unsubscribe` (with one-click `List-Unsubscribe-Post`, RFC 8058)."""

from __future__ import annotations

import asyncio
import contextlib
import email.policy
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib
from rajas.server.config import ConfigError
from rajas.server.logs import Gate
from rajas.server.metrics import Counter

log = logging.getLogger("rajas.server")
QUEUE = 100  # e-mails waiting at most (RAJAS_MAIL_QUEUE); more are dropped (counted)
# Headers as they are, up to RFC 5322's 998 characters: a folded List-Unsubscribe would be sent as an encoded word,
# which mail programs do not read as a link.
HEADERS = email.policy.SMTP.clone(max_line_length=998)
TIMEOUT = 15.0  # seconds one send may take, connection included
LOG_EVERY = 30.0


@dataclass(frozen=True)
class Smtp:
    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool  # smtps://: TLS from the first byte
    start_tls: bool  # smtp://...?starttls=1: upgrade after connecting


def parse_smtp_url(url: str) -> Smtp:
    """`smtp://user:pass@host:587?starttls=1` or `smtps://user:pass@host:465` (user and password optional)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ConfigError(f"RAJAS_SMTP_URL: {parts.scheme or 'no'} scheme or no host; use smtp:// or smtps://")
    tls = parts.scheme == "smtps"
    query = parse_qs(parts.query)
    start_tls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes")
    try:
        port = parts.port or (465 if tls else 587 if start_tls else 25)
    except ValueError:
        raise ConfigError("RAJAS_SMTP_URL: the port is not a number") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return Smtp(parts.hostname, port, user, password, tls, start_tls and not tls)


class Mailer:
    """Offered (`enabled`) only with an SMTP server, a sender address and the public URL the links point at."""

    def __init__(
        self, url: str | None, sender: str | None, public_url: str | None, queue: int = QUEUE, timeout: float = TIMEOUT
    ) -> None:
        self.smtp = parse_smtp_url(url) if url else None
        self.sender = sender or ""
        self.public_url = (public_url or "").rstrip("/")
        self.enabled = self.smtp is not None and bool(self.sender) and bool(self.public_url)
        self.timeout = timeout
        self.limit = max(1, queue)
        self.share = max(1, self.limit // 10)
        # Waiting mails by room, served in turn (one of each room's in every round), so a room that sends many
        # cannot starve another's.
        self.waiting: OrderedDict[str, deque[EmailMessage]] = OrderedDict()
        self.size = 0
        self._ready = asyncio.Event()
        self.sent = Counter("rajas_emails_total", "e-mails by result: sent, failed, dropped (queue full), capped "
                            "(an address's or a room's daily budget), unconfirmed (an address not confirmed)",
                            "result")  # fmt: skip
        self.refused: Callable[[str], None] | None = None  # counts a budget's refusal (Metrics.limit_refusals.inc)
        self.gate = Gate(LOG_EVERY)
        self._task: asyncio.Task[None] | None = None
        domain = parseaddr(self.sender)[1].rpartition("@")[2]
        self.domain = domain or "rajas.invalid"

    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.create_task(self._worker())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def link(self, code: str, token: str) -> str:
        """Straight back to the seat: the room and the seat token (the page takes the seat and drops the token
        from its address). The token follows "#": browsers never send it to a server, so no access log holds it."""
        return f"{self.public_url}/?room={code}#resume={token}"

    def page(self, path: str, token: str) -> str:
        """A link to one of the node's e-mail pages (confirm, unsubscribe) with its token."""
        return f"{self.public_url}{path}?t={token}"

    def send(self, room: str, to: str, subject: str, body: str, unsubscribe: str) -> bool:
        """Queues one e-mail of room `room` (its share of the queue); False (counted as dropped) when the queue or
        the room's share is full, or e-mail is off. `unsubscribe` is the link that refuses all mail from here."""
        if not self.enabled:
            return False
        mine = self.waiting.get(room)
        if self.size >= self.limit or (mine is not None and len(mine) >= self.share):
            self.sent.inc("dropped")
            if self.refused is not None:
                self.refused("mail_queue")
            return False
        msg = EmailMessage(policy=HEADERS)
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid(domain=self.domain)
        msg["Auto-Submitted"] = "auto-generated"
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        msg.set_content(f"{body}\n--\nNo more e-mail from this server: {unsubscribe}\n")
        self.waiting.setdefault(room, deque()).append(msg)
        self.size += 1
        self._ready.set()
        self.start()
        return True

    def _next(self) -> EmailMessage | None:
        """The first waiting mail of the room whose turn it is; that room goes to the back of the line."""
        if not self.waiting:
            return None
        room, mails = next(iter(self.waiting.items()))
        msg = mails.popleft()
        self.size -= 1
        del self.waiting[room]
        if mails:
            self.waiting[room] = mails
        return msg

    async def _worker(self) -> None:
        smtp = self.smtp
        assert smtp is not None
        while True:
            msg = self._next()
            if msg is None:
                self._ready.clear()
                await self._ready.wait()
                continue
            try:
                # (flattened here: aiosmtplib's own flattening folds headers at 78 characters)
                await asyncio.wait_for(
                    aiosmtplib.send(
                        msg.as_bytes(policy=HEADERS),
                        sender=parseaddr(str(msg["From"]))[1],
                        recipients=[str(msg["To"])],
                        hostname=smtp.host,
                        port=smtp.port,
                        username=smtp.username,
                        password=smtp.password,
                        use_tls=smtp.use_tls,
                        start_tls=smtp.start_tls,
                        timeout=self.timeout,
                    ),
                    self.timeout,
                )
                self.sent.inc("sent")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a refused address, an SMTP server away: the game goes on
                self.sent.inc("failed")
                if self.gate.allow():
                    log.warning(
                        "turn e-mail not sent: %s", type(e).__name__,
                        extra={"event": "email_failed", "suppressed": self.gate.take()},
                    )  # fmt: skip
