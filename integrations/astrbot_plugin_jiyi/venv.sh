#!/usr/bin/env bash
# Build (once) and print the path of a Python >= 3.12 virtualenv with AstrBot from PyPI at the
# tested version, for the plugin's tests and the end-to-end test. It lives outside the clone
# (CI starts from a fresh clone each time): ~/.cache/jiyi/astrbot-<version>-venv.
# Usage: venv.sh   (env: ASTRBOT_VERSION, JIYI_ASTRBOT_VENV, PYTHON312)
set -euo pipefail
ASTRBOT_VERSION="${ASTRBOT_VERSION:-4.29.3}"
VENV="${JIYI_ASTRBOT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/jiyi/astrbot-$ASTRBOT_VERSION-venv}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

find_python() {
  for candidate in "${PYTHON312:-}" python3.12 python3.13 "$HOME/.pyenv/versions/3.12.1/bin/python3.12" \
                   /usr/local/bin/python3.12 /usr/bin/python3.12; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  if command -v pyenv >/dev/null 2>&1; then
    local found
    for found in "$(pyenv root)"/versions/3.1[2-9]*/bin/python3; do
      [ -x "$found" ] && { echo "$found"; return 0; }
    done
  fi
  return 1
}

# .complete is written last: a build that was interrupted is started again
if [ ! -f "$VENV/.complete" ] ||
   ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('astrbot') != '$ASTRBOT_VERSION')" 2>/dev/null; then
  PY="$(find_python)" || { echo "venv.sh: no Python >= 3.12 found (set PYTHON312=/path/to/python3.12; .ci/run installs one)" >&2; exit 1; }
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q "astrbot==$ASTRBOT_VERSION" pytest pytest-timeout >&2
  touch "$VENV/.complete"
fi
echo "$VENV"
