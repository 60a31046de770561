#!/usr/bin/env bash
# Create .venv (Python >= 3.11) and install the project into it; reinstall only when
# pyproject.toml changes. Usage: scripts/venv.sh [extras], e.g. scripts/venv.sh dev
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
py=""
for cand in python3.13 python3.12 python3.11 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        py="$cand"; break
    fi
done
if [ -z "$py" ]; then
    echo "error: welcome-sim needs Python 3.11 or newer on PATH (found none)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    echo "creating .venv with $($py --version)" >&2
    "$py" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
stamp=".venv/.installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "installing welcome-sim${extras:+[$extras]} into .venv" >&2
    .venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
    touch "$stamp"
fi
