#!/usr/bin/env bash
# The project's one test command (README, .ci/run): installs what the tests need, then lints and tests.
#
# Phases, in this order: installs, ruff, mypy, pytest (the whole suite), then the extra runs (the compiled
# build, the standard transport, the newest Python), each limited to the tests that differ under it (the reason
# stands above each). Every heading says how many seconds into the command its phase began.
#
# pytest runs on both cores (pytest-xdist, 2 workers): the slow tests start first (tests/conftest.py), each
# worker has its own redis-server, servers and browser (see the conftests for which tests share them), and
# every test has a timeout (pyproject.toml). The tests that time the node against a latency bound (marked
# `alone`) run at the very end, one at a time, with nothing else of this command running.
#
# The two scratch environments (the compiled build's and the newest Python's) take minutes to install and
# compile, mostly on one core: they are made in the background from the start, at the lowest priority, while
# the phases before them run, and their output is shown (and their failure stops the command) where their
# phase comes.
set -euo pipefail
cd "$(dirname "$0")/.."
begun=$SECONDS
phase() { echo "== $* (at $((SECONDS - begun)) s)"; }
# Every pytest process and each of its workers imports the same modules: keep their bytecode even where the
# environment says not to write it (__pycache__ is ignored by git).
unset PYTHONDONTWRITEBYTECODE
# Warnings of this machine's package index that say nothing about us.
quiet() { grep -v -e "Running pip as" -e "^WARNING: Location 'file:" || true; }

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v nginx >/dev/null 2>&1 || need_apt+=(nginx-light)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc libc6-dev)  # the compiled engine (setup.py)
if [ ${#need_apt[@]} -gt 0 ]; then
  phase "installing from apt: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  # nginx from apt starts a system service we do not want; the tests start their own.
  $SUDO service nginx stop >/dev/null 2>&1 || true
fi

scratch="$(mktemp -d)"
jobs_started=()
kill_tree() { local child; for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$child"; done; kill "$1" 2>/dev/null || true; }
cleanup() {
  for pid in "${jobs_started[@]}"; do kill_tree "$pid"; done  # (a build still running when a phase failed)
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
# The scratch environments are made without pip (installing pip into each takes longer than what they need
# from it), and installed into with their interpreter's own pip: `spip PYTHON VENV ARGS` (quiet, but its
# failure is the step's failure; no bytecode compiled up front: what the tests import is written as it is).
spip() {
  local python=$1 venv=$2; shift 2
  "$python" -m pip --python "$venv/bin/python" install -q --disable-pip-version-check --no-compile "$@" 2>&1 | quiet
}
# The scratch environments install the package from a copy of this checkout's source (what deploy/Dockerfile
# copies), each its own: builds running at once in one tree would share its build/ and egg-info.
copy_source() { mkdir -p "$1" && cp -a pyproject.toml setup.py README.md games server protocol bench client_web "$1"; }
# ... and what the server, engine and scale tests import (the `test` extra less the linters and the browser),
# read from pyproject.toml, the one list; `scratch_deps all` adds the package's own dependencies.
scratch_deps() {
  python3 - "$@" <<'PY'
import re, sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
skip = {"ruff", "mypy", "playwright", "qrcode", "zxing-cpp"}  # lint, and the browser tests (tests/web, tests/e2e)
deps = [d for d in project["optional-dependencies"]["test"] if re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0] not in skip]
print("\n".join(project["dependencies"] + deps if sys.argv[1:] == ["all"] else deps))
PY
}
# In the background: `name` runs the rest of the line, its output in $scratch/name.log; `show name` waits for
# it, prints its output and stops the command if it failed. Background jobs run at the lowest priority (nice
# 19): they take the CPU the tests leave (the tests wait for browsers, sockets and timers much of the time),
# and never slow a test down.
background() {
  local name=$1; shift
  (renice -n 19 -p "$BASHPID" >/dev/null; "$@") >"$scratch/$name.log" 2>&1 &
  jobs_started+=($!)
  eval "job_$name=$!"
}
show() {
  local name=$1 pid status=0
  eval "pid=\$job_$name"
  wait "$pid" || status=$?
  cat "$scratch/$name.log"
  [ "$status" -eq 0 ] || { echo "== $name failed (exit $status)"; exit "$status"; }
}

# The deployment image compiles the pure, synchronous modules on the path of every decision with mypyc (setup.py,
# deploy/Dockerfile): built here the same way, from this checkout's source, in a scratch environment. mypy is
# pinned: mypyc is part of it, and a new release may compile the same source differently (deploy/Dockerfile
# pins the same version). The package's dependencies come first: mypy follows the compiled modules' imports
# into them (the Dockerfile has them from installing the pure package first; here they are installed by name,
# which saves building the package twice). The build runs on one core for minutes (mypy, then gcc at -O3 on
# one C file of 40 MB): it starts now.
build_compiled() {
  local venv="$scratch/compiled" deps
  mapfile -t deps < <(scratch_deps all)
  copy_source "$scratch/compiled-src"
  python3 -m venv --without-pip "$venv"
  spip python3 "$venv" "mypy==2.4.1" setuptools wheel "${deps[@]}"
  (cd "$scratch/compiled-src" && RAJAS_COMPILE=1 spip python3 "$venv" --no-build-isolation --no-deps --force-reinstall .)
  "$venv/bin/python" - <<'PY'
import sys
import rajas.games.dice_charmers.engine.turns
import rajas.server.rooms.changes

for module in (rajas.games.dice_charmers.engine.turns, rajas.server.rooms.changes):
    if not module.__file__.endswith(".so"):
        sys.exit(f"{module.__name__} was not compiled")
print("compiled:", rajas.games.dice_charmers.engine.turns.__file__)
PY
}
background compiled build_compiled

# The newest Python found (3.12+ starts coroutines with asyncio's eager tasks where 3.11 steps them by hand),
# in a scratch environment, also made now. (pyenv's shims are left out: they take seconds each to say what the
# versions folder says.)
newest="$(
  for py in $(command -v python3.14 python3.13 python3.12 | grep -v /shims/) \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do
    "$py" -c 'import sys; print("%d.%02d" % sys.version_info[:2], sys.executable)' 2>/dev/null || true
  done | sort | tail -1 | cut -d" " -f2
)"
install_newest() {
  local deps
  mapfile -t deps < <(scratch_deps)
  copy_source "$scratch/newest-src"
  "$newest" -m venv --without-pip "$scratch/newest"
  spip "$newest" "$scratch/newest" "$scratch/newest-src" "${deps[@]}"
}
[ -z "$newest" ] || background newest install_newest

phase "installing Python packages"
python3 -m pip install -q --disable-pip-version-check -e ".[test]" 2>&1 | quiet

phase "installing the browser tests' npm packages (axe-core, tests only)"
if command -v npm >/dev/null 2>&1; then
  (cd tests/web && npm ci --no-audit --no-fund --silent) || echo "npm ci failed: the accessibility checks will be skipped"
fi

phase "ruff"
python3 -m ruff check .
# The import names live under rajas.* (pyproject's package-dir), which mypy cannot follow from the folders:
# it checks a tree of links laid out as the installed package, strictly, with the project's settings.
phase "mypy (strict, the whole package: rajas.games, .server, .protocol, .bench)"
typecheck=build/typecheck
rm -rf "$typecheck/rajas" && mkdir -p "$typecheck/rajas" && : > "$typecheck/rajas/__init__.py"
for folder in games server protocol bench client_web; do ln -s "../../../$folder" "$typecheck/rajas/$folder"; done
(cd "$typecheck" && python3 -m mypy --config-file ../../pyproject.toml -p rajas)
phase "import contracts (pyproject.toml [tool.importlinter], function-level and TYPE_CHECKING imports included)"
(cd "$typecheck" && PYTHONPATH=. lint-imports --config ../../pyproject.toml --no-cache)

# pytest exits 5 when a selection has no test (e.g. `bash tests/run.sh tests/engine` has none marked alone).
alone_too() { "$@" || [ $? -eq 5 ]; }
# loadgroup: a module whose tests share a module-scoped server, topology or browser runs whole on one worker,
# and the end-to-end tests one at a time on one worker (tests/conftest.py); the order of the collection (slow
# first) is kept.
xdist=(-n 2 --dist loadgroup --no-loadscope-reorder)

phase "pytest (2 workers; the tests timed against a latency bound come last)"
python3 -m pytest "${xdist[@]}" -m "not alone" "$@"

# The compiled build against the tests that drive its modules (setup.py's COMPILED: the rules engine, the
# generator, the frames, the rooms' changes, undo and views, the protocol's codec; nothing asynchronous): the
# engine (tests/engine, tests/protocol: the compiled rules and codec, whose types mypyc enforces at run time);
# the rooms (changes, views, immutability, the room's state, seat moves, undo, turn-based rules, rematch, the
# lobby, whose first test checks that the node says it runs the compiled build); whole games over the wire
# (test_play.py; test_garbage.py: a game leaves no cycles of compiled objects; another game and the card game
# through the compiled rooms); and one whole-game scale test, three compiled nodes behind nginx on Redis. Not
# again: what is not compiled (the transport, the chat, history, e-mails, fairness, static files, the command
# line), the browser client (web, e2e) and the attack tests.
phase "rules engine and server compiled with mypyc"
show compiled
PATH="$scratch/compiled/bin:$PATH" "$scratch/compiled/bin/python" -m pytest -q -p no:cacheprovider "${xdist[@]}" \
  tests/engine tests/protocol tests/games \
  tests/server/test_changes.py tests/server/test_views.py tests/server/test_room_immutable.py \
  tests/server/test_room_state.py tests/server/test_seat_moves.py tests/server/test_undo.py \
  tests/server/test_turns.py tests/server/test_rematch.py tests/server/test_lobby.py \
  tests/server/test_play.py tests/server/test_garbage.py tests/server/test_second_game.py \
  tests/server/test_card_game.py \
  tests/scale/test_topology.py::test_games_through_the_balancer_use_every_node

# The standard transport (uvicorn's public ASGI interface only; server/edge/transport) in place of the fast
# one: what differs is the wire, so the transport's contract, the frames, keepalive, limits, the encoded
# frames a connection is sent (test_views.py) and a whole game over it (tests/server),
# and the attack tests on HTTP, connections and messages (tests/security), the timed ones at the end. The rest
# of the server sits behind the same Socket on either transport (the inbox's tests start no server at all).
standard=(tests/security/test_transport_contract.py tests/security/test_http_limits.py
  tests/security/test_connection_limits.py tests/security/test_messages.py
  tests/server/test_frames.py tests/server/test_keepalive.py tests/server/test_limits.py
  tests/server/test_views.py tests/server/test_play.py)
phase "the transport's tests on the standard transport (the timed ones come last)"
RAJAS_TRANSPORT=standard python3 -m pytest -q -p no:cacheprovider "${xdist[@]}" -m "not alone" "${standard[@]}"

# The newest Python: 3.12+ runs the connection's sends and the inbox's messages as eager tasks
# (server/edge/transport/base.py `start`) where 3.11 steps them by hand; the modules that change are the inbox
# and the connection, so their tests (the inbox's, then over a server on both transports: frames, keepalive,
# limits, and whole games with their races and resent messages, test_play.py) run there, with the transport's
# contract.
if [ -n "$newest" ]; then
  phase "the inbox's and connection's tests on $("$newest" --version) (fast and standard transport)"
  show newest
  eager=(tests/server/test_frames.py tests/server/test_keepalive.py tests/server/test_limits.py
    tests/server/test_play.py)
  "$scratch/newest/bin/python" -m pytest -q -p no:cacheprovider "${xdist[@]}" \
    tests/server/test_inbox.py "${eager[@]}" tests/security/test_transport_contract.py
  RAJAS_TRANSPORT=standard "$scratch/newest/bin/python" -m pytest -q -p no:cacheprovider "${xdist[@]}" "${eager[@]}"
else
  phase "no Python newer than 3.11 found: the server tests ran on $(python3 --version) only"
fi

# Last, with nothing else of this command running (the scratch builds are done by now): the tests that time
# the node against a latency bound (another room's decisions within 100 ms during an attack), one at a time,
# on the fast transport and then on the standard one (those of the files above).
phase "pytest: the tests timed against a latency bound, one at a time"
alone_too python3 -m pytest -p no:cacheprovider -m alone "$@"
phase "the timed tests on the standard transport, one at a time"
RAJAS_TRANSPORT=standard alone_too python3 -m pytest -q -p no:cacheprovider -m alone "${standard[@]}"
phase "done"
