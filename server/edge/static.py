"""The web client's files for `rajas serve`: read and gzip-compressed once at start, cached by the browser, and
nothing else served from the client's folders.

`ClientFiles(directory, games)` is an ASGI app to mount at "/" (in place of Starlette's StaticFiles). It serves the
table (the client's folder, `client_web/`, with its sub-folders such as `vendor/` and `i18n/`) at "/", and each
game's drawing (`games/<id>/web/`, the id being the folder's name) at "/play/<id>/". Every asset link of a page and
every import of a JavaScript module written as a string ("./x.js", "../x.js", "/x.js") carries `?v=<version>`, the
digest of all the files served: a versioned request is cached for a year (`immutable`), anything else is revalidated
by its ETag (`no-cache`, 304 when unchanged). A page's `<head>` gets a `modulepreload` link for every module its
module scripts import statically, however deep, so that the browser asks for them all at once instead of one
level of imports per round trip, and the import graph of every module (`<script type="application/json" id="modules">`:
the files, and each one's static imports and the modules it may load by name), so that the page asks for all a module
needs at once when it loads one later (client_web/games.js, preload). Only the page's own kinds of files are served;
Python files, READMEs, the demo page and its fixtures are not (404), nor any path with a dot segment or over MAX_PATH
characters.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.types import Receive, Scope, Send

MAX_PATH = 200  # characters of a request path; longer ones are refused without a lookup
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}
NOT_SERVED = frozenset({"demo.html", "demo.js"})  # the drawing demo needs fixtures/, which stay unserved
NOT_SERVED_DIRS = frozenset({"fixtures", "node_modules", "__pycache__"})
PLAY = "/play/"  # where each game's drawing is served: /play/<id>/
YEAR = 365 * 24 * 3600
_MODULE = r"(?:\.{1,2}/|/)[\w./-]+\.m?js"
_HTML_LINK = re.compile(r'((?:href|src)=")(/[\w./-]+\.(?:m?js|css))(")')
_HTML_MODULE = re.compile(r'<script type="module" src="(/[\w./-]+\.m?js)"')
_JS_IMPORT = re.compile(rf"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])({_MODULE})(\2)""")
# a static import or re-export (not `import()`), its module named with or without its version
_VERSIONED = rf"({_MODULE})(?:\?v=\w+)?"
_JS_STATIC = re.compile(rf"""(?:^|[;\n}}])\s*(?:import|export)\b[^;'"()]*?(?:\bfrom\s*)?(["']){_VERSIONED}\1""")
_JS_DYNAMIC = re.compile(rf"""\bimport\(\s*(["']){_VERSIONED}\1\s*\)""")  # an `import()` of a module named by a string


@dataclass(frozen=True)
class File:
    body: bytes
    gzipped: bytes | None  # None when compressing would not save anything
    content_type: str
    etag: str


def _folder_files(directory: Path, prefix: str) -> dict[str, bytes]:
    """URL path -> bytes of the files of a served kind in `directory` and its sub-folders."""
    out: dict[str, bytes] = {}
    for p in sorted(directory.rglob("*")):
        rel = p.relative_to(directory)
        if any(part.startswith(".") or part in NOT_SERVED_DIRS for part in rel.parts) or p.name in NOT_SERVED:
            continue
        if p.is_file() and p.suffix in CONTENT_TYPES:
            out[prefix + rel.as_posix()] = p.read_bytes()
    return out


def _client_files(directory: Path, games: Path | None) -> dict[str, bytes]:
    """URL path -> bytes of the files the page uses: the table's, and each game's under /play/<id>/."""
    if not directory.is_dir():  # a package built without the client serves no page (as StaticFiles' check_dir=False)
        return {}
    out = _folder_files(directory, "/")
    for web in sorted(games.glob("*/web")) if games is not None and games.is_dir() else []:
        if web.is_dir() and not web.parent.name.startswith((".", "_")):
            out.update(_folder_files(web, f"{PLAY}{web.parent.name}/"))
    return out


def _resolve(base: str, spec: str) -> str:
    """The URL path of the module `spec` imported by the module at URL path `base`."""
    return posixpath.normpath(spec if spec.startswith("/") else posixpath.join(posixpath.dirname(base), spec))


def static_imports(path: str, files: dict[str, bytes]) -> list[str]:
    """Every module the module at `path` imports statically, however deep (not `import()`), in a stable order."""
    seen: dict[str, None] = {}
    todo = [path]
    while todo:
        at = todo.pop(0)
        source = files.get(at)
        if source is None:
            continue
        for m in _JS_STATIC.finditer(source.decode()):
            dep = _resolve(at, m[2])
            if dep not in seen and dep != path:
                seen[dep] = None
                todo.append(dep)
    return list(seen)


def import_graph(files: dict[str, bytes]) -> dict[str, list[Any]]:
    """Every module's direct imports, as indexes into `files`: those it loads statically and those it may load by a
    literal name (an `import("./x.js")`; modules named by a computed name are not seen)."""
    names = sorted(n for n in files if n.endswith((".js", ".mjs")))
    at = {n: i for i, n in enumerate(names)}

    def deps(name: str, pattern: re.Pattern[str]) -> list[int]:
        found = (_resolve(name, m[2]) for m in pattern.finditer(files[name].decode()))
        return sorted({at[d] for d in found if d in at})

    static = [deps(n, _JS_STATIC) for n in names]
    return {"files": names, "static": static, "dynamic": [deps(n, _JS_DYNAMIC) for n in names]}


class ClientFiles:
    def __init__(self, directory: Path, games: Path | None = None) -> None:
        if games is None:
            import rajas.games

            games = Path(rajas.games.__file__).parent
        raw = _client_files(directory, games)
        digest = hashlib.sha256()
        for name, data in raw.items():
            digest.update(name.encode() + b"\0" + data + b"\0")
        self.version = digest.hexdigest()[:12]
        self.files: dict[str, File] = {}
        for name, data in raw.items():
            suffix = Path(name).suffix
            if suffix == ".html":
                data = self._page(data.decode(), raw).encode()
            elif suffix in (".js", ".mjs"):
                data = _JS_IMPORT.sub(lambda m: f"{m[1]}{m[2]}{m[3]}?v={self.version}{m[4]}", data.decode()).encode()
            packed = gzip.compress(data, compresslevel=9, mtime=0) if suffix != ".png" else None
            etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
            smaller = packed if packed is not None and len(packed) < len(data) else None
            self.files[name] = File(data, smaller, CONTENT_TYPES[suffix], etag)

    def _page(self, html: str, raw: dict[str, bytes]) -> str:
        """A page with its links versioned, a modulepreload link for each module its module scripts import, and the
        import graph of all the modules."""
        preload: dict[str, None] = {}
        entries = _HTML_MODULE.findall(html)
        for entry in entries:
            preload.update(dict.fromkeys(static_imports(entry, raw)))
        links = "".join(f'<link rel="modulepreload" href="{m}?v={self.version}">\n' for m in preload if m in raw)
        if entries:
            graph = json.dumps(import_graph(raw), separators=(",", ":"))
            links += f'<script type="application/json" id="modules">{graph}</script>\n'
        html = _HTML_LINK.sub(lambda m: f"{m[1]}{m[2]}?v={self.version}{m[3]}", html)
        return html.replace("</head>", f"{links}</head>", 1) if links else html

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
