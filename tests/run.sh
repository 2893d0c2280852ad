#!/usr/bin/env bash
# The project's one test command (README, .ci/run): installs what the tests need, then lints and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v nginx >/dev/null 2>&1 || need_apt+=(nginx-light)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc libc6-dev)  # the compiled engine (setup.py)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== installing from apt: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  # nginx from apt starts a system service we do not want; the tests start their own.
  $SUDO service nginx stop >/dev/null 2>&1 || true
fi

echo "== installing Python packages"
python3 -m pip install -q --disable-pip-version-check -e ".[test]" 2>&1 | grep -v "Running pip as the 'root' user" || true

echo "== installing the browser tests' npm packages (axe-core, tests only)"
if command -v npm >/dev/null 2>&1; then
  (cd tests/web && npm ci --no-audit --no-fund --silent) || echo "npm ci failed: the accessibility checks will be skipped"
fi

echo "== ruff"
python3 -m ruff check .
# The import names live under rajas.* (pyproject's package-dir), which mypy cannot follow from the folders:
# it checks a tree of links laid out as the installed package, strictly, with the project's settings.
echo "== mypy (strict, the whole package: rajas.games, .server, .protocol, .bench)"
typecheck=build/typecheck
rm -rf "$typecheck/rajas" && mkdir -p "$typecheck/rajas" && : > "$typecheck/rajas/__init__.py"
for folder in games server protocol bench client_web; do ln -s "../../../$folder" "$typecheck/rajas/$folder"; done
(cd "$typecheck" && python3 -m mypy --config-file ../../pyproject.toml -p rajas)
echo "== import contracts (pyproject.toml [tool.importlinter])"
(cd "$typecheck" && PYTHONPATH=. lint-imports --config ../../pyproject.toml --no-cache)
echo "== pytest"
python3 -m pytest "$@"

# The deployment image compiles the rules engine and the server's hot modules with mypyc (setup.py,
# deploy/Dockerfile): build it the same way in a scratch environment and run the engine, server and scale-out
# tests against the compiled modules (web and e2e test the browser client, which compiling does not touch).
echo "== rules engine and server compiled with mypyc"
compiled="$(mktemp -d)"
trap 'rm -rf "$compiled" build/mypyc-src' EXIT
python3 -m venv "$compiled/venv"
cpip() { "$compiled/venv/bin/pip" install -q --disable-pip-version-check "$@" 2>&1 | grep -v "Running pip as" || true; }
# mypy pinned: mypyc is part of it, and a new release may compile the same source differently (deploy/Dockerfile
# pins the same version). The package's dependencies too: mypy follows the compiled modules' imports into them.
cpip "mypy==2.4.1" setuptools wheel ".[test]"
RAJAS_COMPILE=1 cpip --no-build-isolation --no-deps --force-reinstall .
"$compiled/venv/bin/python" - <<'PY'
import sys
import rajas.games.dice_charmers.engine.turns
import rajas.server.rooms.hub

for module in (rajas.games.dice_charmers.engine.turns, rajas.server.rooms.hub):
    if not module.__file__.endswith(".so"):
        sys.exit(f"{module.__name__} was not compiled")
PY
PATH="$compiled/venv/bin:$PATH" "$compiled/venv/bin/python" -m pytest -q -p no:cacheprovider tests/engine tests/server tests/scale

# The transport (server/transport): the server's and the attack tests again on the standard transport
# (uvicorn's public ASGI interface only), then the server's tests on the newest Python found, in a scratch
# environment (3.12+ starts coroutines with asyncio's eager tasks where 3.11 steps them by hand).
echo "== server and security tests on the standard transport"
RAJAS_TRANSPORT=standard python3 -m pytest -q -p no:cacheprovider tests/server tests/security
newest="$(
  for py in python3.14 python3.13 python3.12 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do
    "$py" -c 'import sys; print("%d.%02d" % sys.version_info[:2], sys.executable)' 2>/dev/null || true
  done | sort | tail -1 | cut -d" " -f2
)"
if [ -n "$newest" ]; then
  echo "== server tests on $("$newest" --version) (fast and standard transport)"
  (
    newer="$(mktemp -d)"
    trap 'rm -rf "$newer"' EXIT
    "$newest" -m venv "$newer/venv"
    "$newer/venv/bin/pip" install -q --disable-pip-version-check ".[test]" 2>&1 | grep -v "Running pip as" || true
    "$newer/venv/bin/python" -m pytest -q -p no:cacheprovider tests/server tests/security/test_transport_contract.py
    RAJAS_TRANSPORT=standard "$newer/venv/bin/python" -m pytest -q -p no:cacheprovider tests/server
  )
else
  echo "== no Python newer than 3.11 found: the server tests ran on $(python3 --version) only"
fi
