#!/usr/bin/env bash
# Run the AstrBot plugin tests in a Python >= 3.12 virtualenv (AstrBot needs 3.12; jiyi itself supports 3.10+).
# Creates <repo>/.venv-astrbot on first use: `pip install astrbot` takes about a minute there.
# Usage: integrations/astrbot_plugin_jiyi/run_tests.sh [pytest args...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VENV="${JIYI_ASTRBOT_VENV:-$REPO/.venv-astrbot}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

find_python() {
  for candidate in "${PYTHON312:-}" python3.13 python3.12 "$HOME/.pyenv/versions/3.12.1/bin/python3.12"; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  if command -v pyenv >/dev/null 2>&1; then
    local found; found="$(pyenv root)/versions/$(pyenv versions --bare | grep -E '^3\.1[2-9]' | tail -1)/bin/python3"
    [ -x "$found" ] && { echo "$found"; return 0; }
  fi
  return 1
}

if [ ! -x "$VENV/bin/python" ]; then
  PY="$(find_python)" || { echo "run_tests.sh: no Python >= 3.12 found (set PYTHON312=/path/to/python3.12)" >&2; exit 1; }
  "$PY" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import astrbot, jiyi, pytest' 2>/dev/null; then
  "$VENV/bin/python" -m pip install -q astrbot pytest pytest-timeout
  "$VENV/bin/python" -m pip install -q -e "$REPO"
fi
# an editable install pinned to another checkout would test the wrong code: always point at this one
if ! "$VENV/bin/python" -c "import jiyi, pathlib, sys; sys.exit(not pathlib.Path(jiyi.__file__).resolve().is_relative_to(pathlib.Path('$REPO').resolve()))"; then
  "$VENV/bin/python" -m pip install -q -e "$REPO"
fi

cd "$HERE"
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
