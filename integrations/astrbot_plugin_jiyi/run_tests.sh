#!/usr/bin/env bash
# Run the AstrBot plugin tests in a Python >= 3.12 virtualenv with AstrBot from PyPI (venv.sh
# builds it once under ~/.cache/jiyi/; the first build takes a few minutes) and jiyi from this
# repository, installed editable.
# Usage: integrations/astrbot_plugin_jiyi/run_tests.sh [pytest args...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VENV="$("$HERE/venv.sh")"
export PIP_DISABLE_PIP_VERSION_CHECK=1
# the venv is shared between clones (and the end-to-end test installs jiyi there non-editable):
# point it at this checkout, editable, whenever it imports jiyi from anywhere else
if ! "$VENV/bin/python" -c "import jiyi, pathlib, sys; sys.exit(not pathlib.Path(jiyi.__file__).resolve().is_relative_to(pathlib.Path('$REPO').resolve()))" 2>/dev/null; then
  "$VENV/bin/python" -m pip install -q -e "$REPO" >&2
fi
cd "$HERE"
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
