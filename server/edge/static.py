"""The web client's files for `rajas serve`: read and gzip-compressed once at start, cached by the browser, and
nothing else served from the client's folder.

`ClientFiles(directory)` is an ASGI app to mount at "/" (in place of Starlette's StaticFiles). Every asset link of
index.html and every relative import of the JavaScript modules carries `?v=<version>`, the digest of all the
client's files: a versioned request is cached for a year (`immutable`), anything else is revalidated by its ETag
(`no-cache`, 304 when unchanged). Only the page's own kinds of files are served; the Python package file, the
README, the demo page and its fixtures are not (404), nor any path with a dot segment or over MAX_PATH characters.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.types import Receive, Scope, Send

MAX_PATH = 200  # characters of a request path; longer ones are refused without a lookup
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}
NOT_SERVED = frozenset({"demo.html", "demo.js"})  # the drawing demo needs fixtures/, which stay unserved
YEAR = 365 * 24 * 3600
_HTML_LINK = re.compile(r'((?:href|src)=")(/[\w.-]+\.(?:js|css))(")')
_JS_IMPORT = re.compile(r"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\./[\w.-]+\.js)(\2)""")


@dataclass(frozen=True)
class File:
    body: bytes
    gzipped: bytes | None  # None when compressing would not save anything
    content_type: str
    etag: str


def _client_files(directory: Path) -> dict[str, bytes]:
    """name -> bytes of the files the page uses: the top folder's files of a served kind (no sub-folders)."""
    out: dict[str, bytes] = {}
    if not directory.is_dir():  # a package built without the client serves no page (as StaticFiles' check_dir=False)
        return out
    for p in sorted(directory.iterdir()):
        if p.is_file() and p.suffix in CONTENT_TYPES and p.name not in NOT_SERVED and not p.name.startswith("."):
            out[p.name] = p.read_bytes()
    return out


class ClientFiles:
    def __init__(self, directory: Path) -> None:
        raw = _client_files(directory)
        digest = hashlib.sha256()
        for name, data in raw.items():
            digest.update(name.encode() + b"\0" + data + b"\0")
        self.version = digest.hexdigest()[:12]
        self.files: dict[str, File] = {}
        for name, data in raw.items():
            suffix = Path(name).suffix
            if suffix == ".html":
                data = _HTML_LINK.sub(lambda m: f"{m[1]}{m[2]}?v={self.version}{m[3]}", data.decode()).encode()
            elif suffix == ".js":
                data = _JS_IMPORT.sub(lambda m: f"{m[1]}{m[2]}{m[3]}?v={self.version}{m[4]}", data.decode()).encode()
            packed = gzip.compress(data, compresslevel=9, mtime=0) if suffix != ".png" else None
            etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
            smaller = packed if packed is not None and len(packed) < len(data) else None
            self.files["/" + name] = File(data, smaller, CONTENT_TYPES[suffix], etag)

    def lookup(self, path: str) -> File | None:
        if len(path) > MAX_PATH:
            return None
        if path in ("", "/"):
            path = "/index.html"
        return self.files.get(path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # not ours: refused at the handshake
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            return
        method = scope["method"]
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path: str = scope["path"]
        root: str = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        if method not in ("GET", "HEAD"):
            await _plain(send, 405, b"method not allowed", [(b"allow", b"GET, HEAD")])
            return
        f = self.lookup(path)
        if f is None:
            await _plain(send, 404, b"not found", [])
            return
        query = scope.get("query_string", b"").decode("latin-1")
        versioned = f"v={self.version}" in query.split("&")
        cache = f"public, max-age={YEAR}, immutable" if versioned else "no-cache"
        common = [
            (b"cache-control", cache.encode()),
            (b"etag", f.etag.encode()),
            (b"vary", b"Accept-Encoding"),
            (b"x-content-type-options", b"nosniff"),
        ]
        if headers.get("if-none-match") == f.etag:
            await send({"type": "http.response.start", "status": 304, "headers": common})
            await send({"type": "http.response.body", "body": b""})
            return
        gz = f.gzipped is not None and "gzip" in headers.get("accept-encoding", "")
        body = f.gzipped if gz and f.gzipped is not None else f.body
        out = [*common, (b"content-type", f.content_type.encode()), (b"content-length", str(len(body)).encode())]
        if gz:
            out.append((b"content-encoding", b"gzip"))
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})


async def _plain(send: Send, status: int, text: bytes, extra: list[tuple[bytes, bytes]]) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(text)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})
