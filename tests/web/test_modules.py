"""The client's modules (client_web/ and each game's web/ folder): their imports form no cycle, every import names a
file that is there and an export it has, a game imports nothing of the table but the modules the game interface
allows (client_web/README.md), the table names no game but in its registry (games.js), each exported constant is
defined once, and every file opens with a comment saying what it is. Read from the files as `rajas serve` serves
them (server/edge/static.py)."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from web_helpers import CLIENT, GAMES

MODULE = r"(?:\.{1,2}/|/)[\w./-]+\.m?js"
IMPORT = re.compile(rf"""(?:^|[;\n}}])\s*(?:import|export)\b([^;'"()]*?)(?:\bfrom\s*)?(["'])({MODULE})\2""")
DYNAMIC = re.compile(r"""\bimport\(\s*(["'`])((?:\.{1,2}/|/)[^"'`]+)\1""")
EXPORT_NAMES = re.compile(r"^export (?:async )?(?:function|class|const|let) (\w+)", re.M)
REEXPORT = re.compile(r"^export \{([^}]*)\} from", re.M)
# what a game may import of the table: the rendering library, the words, the chrome, the protocol, steady boxes
PLATFORM = {"/ui.js", "/i18n.js", "/glyphs.js", "/protocol.js", "/steady.js"}


def served() -> dict[str, Path]:
    """URL path -> file, for every module the page can load (the vendored libraries left out: not ours)."""
    files = {f"/{p.relative_to(CLIENT).as_posix()}": p for p in CLIENT.rglob("*.js") if "vendor" not in p.parts}
    for web in GAMES.glob("*/web"):
        mine = (p for p in web.rglob("*.js") if "fixtures" not in p.parts)
        files.update({f"/play/{web.parent.name}/{p.relative_to(web).as_posix()}": p for p in mine})
    return files


def resolve(base: str, spec: str) -> str:
    spec = spec.split("?")[0]
    if spec.startswith("/"):
        return spec
    out: list[str] = []
    for part in (PurePosixPath(base).parent / spec).parts:
        if part == "..":
            out.pop()
        elif part != ".":
            out.append(part)
    return "/" + "/".join(out[1:])


def static_imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, imported names) of each static import of the file ("*" for a namespace, [] for none)."""
    out = []
    for m in IMPORT.finditer(path.read_text()):
        what = m[1]
        names = re.findall(r"(\w+)(?:\s+as\s+\w+)?", what[what.index("{") + 1 : what.index("}")]) if "{" in what else []
        out.append((m[3], ["*"] if "*" in what else names))
    return out


def exports(path: Path) -> set[str]:
    src = path.read_text()
    names = set(EXPORT_NAMES.findall(src))
    for group in REEXPORT.findall(src):
        names |= {n.split(" as ")[-1].strip() for n in group.split(",") if n.strip()}
    return names


def test_every_import_is_there_and_the_imports_form_no_cycle() -> None:
    files = served()
    graph: dict[str, list[str]] = {}
    for url, path in files.items():
        graph[url] = []
        for spec, names in static_imports(path):
            dep = resolve(url, spec)
            if "/vendor/" in dep:
                assert (CLIENT / dep.lstrip("/")).exists(), f"{url} imports {spec}"
                continue
            assert dep in files, f"{url} imports {spec}, which is not there"
            missing = set(names) - {"*"} - exports(files[dep])
            assert not missing, f"{url} imports {missing} from {spec}, which does not export them"
            graph[url].append(dep)
        for _, spec in DYNAMIC.findall(path.read_text()):
            if "${" not in spec:
                assert resolve(url, spec) in files or "/vendor/" in spec, f"{url} loads {spec}, which is not there"
    assert len(graph) > 30
    # depth-first search: a module met again while it is still open closes a cycle
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for dep in graph[node]:
            if state.get(dep) == "open":
                raise AssertionError("import cycle: " + " -> ".join([*path[path.index(dep) :], dep]))
            if dep not in state:
                visit(dep)
        path.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_a_cycle_is_noticed(tmp_path: Path) -> None:
    """The search can fail: two modules importing each other."""
    (tmp_path / "a.js").write_text('// a\nimport { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('// b\nimport { a } from "./a.js";\nexport const b = 2;\n')
    assert [s for s, _ in static_imports(tmp_path / "a.js")] == ["./b.js"]
    assert [s for s, _ in static_imports(tmp_path / "b.js")] == ["./a.js"]


def test_a_game_uses_the_table_only_through_the_platforms_modules_and_the_table_names_no_game() -> None:
    files = served()
    for url, path in files.items():
        deps = {resolve(url, spec) for spec, _ in static_imports(path)} | {
            resolve(url, spec) for _, spec in DYNAMIC.findall(path.read_text()) if "${" not in spec
        }
        if url.startswith("/play/"):
            game = "/".join(url.split("/")[:3]) + "/"
            outside = {d for d in deps if not d.startswith(game)}
            assert outside <= PLATFORM, f"{url} imports {outside - PLATFORM} of the table"
        else:
            assert not {d for d in deps if d.startswith("/play/")}, f"{url} imports a game's module"
            if url != "/games.js":
                for web in GAMES.glob("*/web"):
                    assert web.parent.name not in path.read_text(), f"{url} names a game: only games.js may"


def test_every_exported_constant_is_defined_once() -> None:
    seen: dict[str, str] = {}
    for url, path in served().items():
        for name in re.findall(r"^export const ([A-Z][A-Z0-9_]+) =", path.read_text(), re.M):
            assert name not in seen, f"{name} is defined in {seen[name]} and {url}"
            seen[name] = url
    assert "SEAT_COLOURS" in seen


def test_every_file_opens_with_a_comment_saying_what_it_is() -> None:
    pages = [*CLIENT.glob("*.css"), *GAMES.glob("*/web/*.css"), *CLIENT.glob("*.html"), *GAMES.glob("*/web/*.html")]
    files = [*served().values(), *pages]
    for path in files:
        head = path.read_text().removeprefix("<!doctype html>\n").lstrip()
        assert head.startswith(("//", "/*", "<!--")), f"{path} does not open with a comment"
