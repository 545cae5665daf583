#!/usr/bin/env bash
# Runs every validation target and rewrites docs/validation.md (python -m validation.run).
#   scripts/validate.sh           full run (about 5 minutes on 2 cores), rewrites the document
#   scripts/validate.sh --quick   the quick targets (scripts/test.sh runs these), writes nothing
#   scripts/validate.sh --check   every target, writes nothing: fails when docs/validation.md is not
#                                 what this build measures (scripts/test.sh runs it too)
# Needs the simulator built in simcore/build (scripts/setup.sh) and the venv (.venv).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ -x simcore/build/fabricsim ] || { echo "simcore/build/fabricsim missing: run scripts/setup.sh" >&2; exit 1; }
export PYTHONPATH="$ROOT/backend:$ROOT"
exec .venv/bin/python -m validation.run "$@"
