#!/usr/bin/env bash
# The whole test suite from a fresh clone: install with the dev extras, lint, build the
# documentation site (a broken link or a page missing from the nav fails), test.
# With CI=true the slow statistical tests run too (pytest --runslow).
set -euo pipefail
cd "$(dirname "$0")"
scripts/venv.sh dev
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# The site (mkdocs.yml, docs/) into build/site; --strict turns every warning into a failure.
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet
slow=()
if [ "${CI:-}" = "true" ]; then slow=(--runslow); fi
# One worker per core (pytest-xdist); each compiles or loads the kernel from the shared cache.
.venv/bin/python -m pytest -n auto "${slow[@]}" "$@"
