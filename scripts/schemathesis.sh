#!/usr/bin/env bash
# Long Schemathesis run against a running FabricTwin API: every operation, all phases
# (examples, coverage, fuzzing, stateful), check: no 5xx. Usage:
#   scripts/schemathesis.sh http://127.0.0.1:8000 [max-examples, default 200]
# The bounded version runs in the test suite (backend/tests/api/test_schemathesis.py).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE="${1:?usage: $0 BASE_URL [max-examples]}"
N="${2:-200}"
exec "$ROOT/.venv/bin/schemathesis" run "$BASE/api/v1/openapi.json" --url "$BASE" \
    --checks not_a_server_error --max-examples "$N" --exclude-path-regex '/events$' \
    --request-timeout 30 --workers 2 --no-color
