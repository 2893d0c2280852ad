"""The web client's files (server/static.py): compressed, cached by version or revalidated by ETag, and nothing
but the page's own files served."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from rajas.server.edge.static import MAX_PATH, ClientFiles
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

CLIENT_DIR = Path(__file__).resolve().parents[2] / "client_web"


@pytest.fixture(scope="module")
def files() -> ClientFiles:
    return ClientFiles(CLIENT_DIR)


@pytest.fixture(scope="module")
def http(files: ClientFiles) -> TestClient:
    return TestClient(Starlette(routes=[Mount("/", files)]))


def test_the_page_links_its_files_by_version_and_is_itself_revalidated(http: TestClient, files: ClientFiles) -> None:
    r = http.get("/", headers={"accept-encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "no-cache" and r.headers["etag"]
    assert f'src="/app.js?v={files.version}"' in r.text and f'href="/styles.css?v={files.version}"' in r.text
    again = http.get("/", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_versioned_module_is_cached_for_a_year_and_imports_by_version(http: TestClient, files: ClientFiles) -> None:
    r = http.get(f"/app.js?v={files.version}", headers={"accept-encoding": "gzip, br"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.headers["content-type"].startswith("text/javascript")
    imports = re.findall(r'from "(\./[\w.-]+\.js[^"]*)"', r.text)
    assert imports and all(i.endswith(f"?v={files.version}") for i in imports)
    # an old version's URL is not trusted to be the same file: revalidated
    assert http.get("/app.js?v=000000000000").headers["cache-control"] == "no-cache"


def test_without_gzip_the_plain_file_is_sent(http: TestClient) -> None:
    r = http.get("/styles.css", headers={"accept-encoding": "identity"})
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert int(r.headers["content-length"]) == len(r.content) and b"--ink" in r.content


@pytest.mark.parametrize(
    "path",
    [
        "/__init__.py", "/README.md", "/fixtures/start.json", "/fixtures/", "/demo.html", "/../pyproject.toml",
        "/%2e%2e/pyproject.toml", "/app.js/", "/.hidden", "/" + "a" * (MAX_PATH + 10) + ".js", "/nothing.js",
    ],
)
def test_files_that_are_not_the_page_are_refused(http: TestClient, path: str) -> None:
    r = http.get(path)
    assert r.status_code == 404 and r.text == "not found"


def test_only_reading_is_allowed_and_the_app_keeps_serving(http: TestClient) -> None:
    for method in ("POST", "PUT", "DELETE"):
        r = http.request(method, "/app.js", content=b"x" * 1000)
        assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    head = http.head("/app.js", headers={"accept-encoding": "gzip"})
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 0
    assert http.get("/app.js").status_code == 200


def test_the_first_page_load_is_at_most_150_kb_compressed(files: ClientFiles) -> None:
    # everything the page can load at start: the page, its styles and every module
    total = sum(len(f.gzipped or f.body) for name, f in files.files.items() if name.endswith((".html", ".css", ".js")))
    assert total <= 150_000, total
    assert gzip.decompress(files.files["/app.js"].gzipped or b"") == files.files["/app.js"].body


def test_without_the_client_folder_nothing_is_served(tmp_path: Path) -> None:
    http = TestClient(Starlette(routes=[Mount("/", ClientFiles(tmp_path / "absent"))]))
    assert http.get("/").status_code == 404 and http.get("/app.js").status_code == 404
