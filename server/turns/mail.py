"""Turn e-mails: a bounded queue and one sender task over SMTP (aiosmtplib). Sending never holds up or fails a
game: a full queue drops the mail, a send has a timeout, and a failure (a bad address, an SMTP server away) is
counted in /metrics and logged at most once per LOG_EVERY seconds, never with the address."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib
from rajas.server.config import ConfigError
from rajas.server.logs import Gate
from rajas.server.metrics import Counter

log = logging.getLogger("rajas.server")
QUEUE = 100  # e-mails waiting at most; more are dropped (counted)
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
        self.queue: asyncio.Queue[EmailMessage] = asyncio.Queue(maxsize=queue)
        self.sent = Counter("rajas_emails_total", "turn e-mails by result: sent, failed, dropped (queue full)",
                            "result")  # fmt: skip
        self.gate = Gate(LOG_EVERY)
        self._task: asyncio.Task[None] | None = None

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

    def send(self, to: str, subject: str, body: str) -> bool:
        """Queues one e-mail; False (counted as dropped) when the queue is full or e-mail is off."""
        if not self.enabled:
            return False
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg.set_content(body)
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.sent.inc("dropped")
            return False
        self.start()
        return True

    async def _worker(self) -> None:
        smtp = self.smtp
        assert smtp is not None
        while True:
            msg = await self.queue.get()
            try:
                await asyncio.wait_for(
                    aiosmtplib.send(
                        msg,
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
