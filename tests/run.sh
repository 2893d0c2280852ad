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

echo "== ruff"
python3 -m ruff check .
echo "== mypy (rules engine, protocol)"
python3 -m mypy engine protocol
echo "== pytest"
python3 -m pytest "$@"

# The deployment image compiles the rules engine with mypyc (setup.py, deploy/Dockerfile): build it the same
# way in a scratch environment and run the engine's tests against the compiled modules.
echo "== rules engine compiled with mypyc"
compiled="$(mktemp -d)"
trap 'rm -rf "$compiled" build/mypyc-src' EXIT
python3 -m venv "$compiled/venv"
"$compiled/venv/bin/pip" install -q --disable-pip-version-check mypy setuptools wheel "pydantic>=2.7" 2>&1 | grep -v "Running pip as" || true
RAJAS_COMPILE=1 "$compiled/venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation . \
  pytest pytest-asyncio hypothesis 2>&1 | grep -v "Running pip as" || true
"$compiled/venv/bin/python" -c "import rajas.engine.turns as t, sys; sys.exit(0 if t.__file__.endswith('.so') else 'the engine was not compiled')"
"$compiled/venv/bin/python" -m pytest -q -p no:cacheprovider tests/engine
