#!/usr/bin/env bash
# Command 1: install everything, build, and start FabricTwin at http://localhost:8000
# on embedded defaults (SQLite file in .data/, a Redis broker this script starts, one local
# Celery worker, the built frontend served by the backend). Ctrl-C stops it all.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh

PORT="${PORT:-8000}"
BROKER_PORT="${FT_BROKER_PORT:-6390}"
mkdir -p .data/redis .data/runs
export DATABASE_URL="${DATABASE_URL:-sqlite:///$ROOT/.data/fabrictwin.db}"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-redis://127.0.0.1:$BROKER_PORT/0}"
export REDIS_URL="${REDIS_URL:-$CELERY_BROKER_URL}"
export RUNS_DIR="${RUNS_DIR:-$ROOT/.data/runs}"
export PYTHONPATH="$ROOT/backend:$ROOT${PYTHONPATH:+:$PYTHONPATH}"

pids=()
cleanup() {
    trap - INT TERM EXIT
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    redis-cli -h 127.0.0.1 -p "$BROKER_PORT" shutdown nosave >/dev/null 2>&1 || true
    echo "FabricTwin stopped."
}
trap cleanup INT TERM EXIT

if ! redis-cli -h 127.0.0.1 -p "$BROKER_PORT" ping >/dev/null 2>&1; then
    redis-server --bind 127.0.0.1 --port "$BROKER_PORT" --dir "$ROOT/.data/redis" --save '' \
        --appendonly no --daemonize yes --logfile "$ROOT/.data/redis/redis.log" >/dev/null
fi
for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$BROKER_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

backend/scripts/prestart.sh
.venv/bin/celery -A workers.celery_app worker -Q sim,celery -c "${FT_WORKERS:-1}" --loglevel=INFO \
    >"$ROOT/.data/worker.log" 2>&1 &
pids+=($!)
echo "FabricTwin on http://localhost:$PORT  (API docs: /docs, worker log: .data/worker.log; Ctrl-C stops)"
.venv/bin/uvicorn app.main:app --host 0.0.0.0 --port "$PORT" &
pids+=($!)
wait -n "${pids[@]}"
