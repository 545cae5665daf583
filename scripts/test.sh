#!/usr/bin/env bash
# Command 2: runs every test: the generated contract files are current, formatting and lint (ruff, Prettier, clang-format), C++ (ctest), Python (pytest, against a real PostgreSQL, Redis and
# Celery workers), frontend unit (Vitest) and end-to-end (Playwright driving Debian's Chromium
# against the real backend and a real worker). Fails when any suite fails or runs no test.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh || { echo "setup failed" >&2; exit 1; }

REPORTS="$ROOT/.test-run/reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
services_env="$(scripts/services.sh start)" || { echo "could not start PostgreSQL/Redis" >&2; exit 1; }
eval "$services_env"
export PYTHONPATH="$ROOT/backend:$ROOT"
e2e_pids=()
cleanup() {
    for p in "${e2e_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    scripts/services.sh stop
}
trap cleanup EXIT

failed=()
suite() {
    local name="$1"; shift
    printf '\n\033[1m=== %s\033[0m\n' "$name"
    "$@" || failed+=("$name")
}

e2e() {
    local port="${FT_E2E_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
    local db="fabrictwin_e2e"
    local admin="${FT_PG_ADMIN_URL/+psycopg/}"
    psql "$admin" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null || return 1
    local work="$ROOT/.test-run/e2e"
    rm -rf "$work" && mkdir -p "$work/runs"
    local db_url="${DATABASE_URL%/*}/$db"
    # Migrate and seed before anything starts (synchronously: no sleep standing in for it).
    DATABASE_URL="$db_url" backend/scripts/prestart.sh >"$work/prestart.log" 2>&1 ||
        { cat "$work/prestart.log"; return 1; }
    (
        export DATABASE_URL="$db_url"
        export CELERY_BROKER_URL="${CELERY_BROKER_URL%/*}/1" REDIS_URL="${REDIS_URL%/*}/1"
        export RUNS_DIR="$work/runs"
        exec .venv/bin/celery -A workers.celery_app worker -Q sim,sim-batch,celery -c 2 --loglevel=INFO >"$work/worker.log" 2>&1
    ) &
    e2e_pids+=($!)
    (   # runs on several simulator threads (docs/operations.md, Parallel runs)
        export DATABASE_URL="$db_url"
        export CELERY_BROKER_URL="${CELERY_BROKER_URL%/*}/1" REDIS_URL="${REDIS_URL%/*}/1"
        export RUNS_DIR="$work/runs"
        exec .venv/bin/celery -A workers.celery_app worker -Q sim-parallel -c 1 -n parallel@%h --loglevel=INFO >"$work/worker-parallel.log" 2>&1
    ) &
    e2e_pids+=($!)
    (
        export DATABASE_URL="$db_url"
        export CELERY_BROKER_URL="${CELERY_BROKER_URL%/*}/1" REDIS_URL="${REDIS_URL%/*}/1"
        export RUNS_DIR="$work/runs"
        exec .venv/bin/uvicorn app.main:app --host 127.0.0.1 --port "$port" --timeout-keep-alive 900 >"$work/backend.log" 2>&1
    ) &
    e2e_pids+=($!)
    # e2e/sign-in.spec.ts: a second API on the same database, broker and runs that requires
    # sign-in against the local OIDC provider stand-in (backend/tests/oidc_provider.py; loopback)
    local free='import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    local oidc_port signed_port secret
    oidc_port="$(python3 -c "$free")" signed_port="$(python3 -c "$free")"
    secret="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
    .venv/bin/python -m tests.oidc_provider --port "$oidc_port" --client-secret "$secret" >"$work/oidc.log" 2>&1 &
    e2e_pids+=($!)
    (
        export DATABASE_URL="$db_url"
        export CELERY_BROKER_URL="${CELERY_BROKER_URL%/*}/1" REDIS_URL="${REDIS_URL%/*}/1"
        export RUNS_DIR="$work/runs" OIDC_ISSUER="http://127.0.0.1:$oidc_port" OIDC_CLIENT_ID=fabrictwin-test
        export OIDC_CLIENT_SECRET="$secret" SESSION_COOKIE_SECURE=false
        SESSION_SECRET="$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
        export SESSION_SECRET
        exec .venv/bin/uvicorn app.main:app --host 127.0.0.1 --port "$signed_port" --timeout-keep-alive 900 >"$work/backend-signed.log" 2>&1
    ) &
    e2e_pids+=($!)
    local ok=0
    for _ in $(seq 120); do
        curl -fsS "http://127.0.0.1:$port/api/v1/health" >/dev/null 2>&1 &&
            curl -fsS "http://127.0.0.1:$signed_port/api/v1/health" >/dev/null 2>&1 &&
            curl -fsS "http://127.0.0.1:$oidc_port/.well-known/openid-configuration" >/dev/null 2>&1 && { ok=1; break; }
        sleep 0.5
    done
    [ "$ok" = 1 ] || { echo "backend did not start"; tail -n 30 "$work"/*.log; return 1; }
    (cd frontend && E2E_BASE_URL="http://127.0.0.1:$port" E2E_OIDC_BASE_URL="http://127.0.0.1:$signed_port" \
        E2E_JUNIT="$REPORTS/e2e.xml" npm run -s e2e)
    local rc=$?
    [ $rc = 0 ] || tail -n 40 "$work/backend.log" "$work/backend-signed.log" "$work/oidc.log" "$work/worker.log"
    return $rc
}

# Every generated contract file (schema, TypeScript tables, C++ header, result types) is what its
# one source produces now (scripts/gen-contracts.sh --check; docs/scenario-format.md).
suite contracts scripts/gen-contracts.sh --check
# Python lint and formatting (ruff), frontend (Prettier) and simcore (clang-format) formatting
suite format scripts/check-format.sh
suite simcore ctest --test-dir simcore/build --output-on-failure --no-tests=error -j1 \
    --output-junit "$REPORTS/ctest.xml"
suite validation-quick scripts/validate.sh --quick
# docs/validation.md states what this build measures (every target, within 1 %)
suite validation-doc scripts/validate.sh --check
# docs/validation-flow.md's figures and backend/app/runs/flow-errors.json (the error a flow-level
# run carries) are what both engines give now (python -m validation.flow_vs_packet --check)
suite validation-flow-doc env PYTHONPATH="$ROOT/backend:$ROOT" .venv/bin/python -m validation.flow_vs_packet --check
suite backend .venv/bin/python -m pytest backend/tests -p no:cacheprovider --junitxml="$REPORTS/pytest.xml"
suite frontend-lint bash -c "cd frontend && npm run -s lint"
suite frontend-unit bash -c "cd frontend && npx vitest run --reporter=default --reporter=junit --outputFile.junit='$REPORTS/vitest.xml'"
suite frontend-e2e e2e

python3 scripts/summarize-tests.py "$REPORTS" || failed+=("summary")
if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED suites: ${failed[*]}"
    exit 1
fi
echo "All suites passed."
