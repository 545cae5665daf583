#!/usr/bin/env bash
# Wait for the database, apply migrations, seed presets. Idempotent; run before the API starts.
set -euo pipefail
BACKEND="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$BACKEND/.." && pwd)"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY=python3
export PYTHONPATH="$BACKEND:$ROOT${PYTHONPATH:+:$PYTHONPATH}"
"$PY" "$BACKEND/scripts/wait_for_db.py"
(cd "$BACKEND" && "$PY" -m alembic -c "$BACKEND/alembic.ini" upgrade head)
"$PY" "$BACKEND/scripts/seed_presets.py"
