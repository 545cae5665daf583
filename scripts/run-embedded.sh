#!/usr/bin/env bash
# Runs the embedded stack (scripts/start.sh calls it after setup): Redis with an append-only file,
# migrations, one Celery worker, the worker of runs on several simulator threads (queue
# sim-parallel, concurrency 1; docs/operations.md, Parallel runs) and uvicorn, and supervises
# them: when a worker's main process, uvicorn or Redis dies, it is started again and the restart
# is logged (stdout and $FT_DATA_DIR/supervisor.log). Ctrl-C (or SIGTERM) stops everything.
# Settings: PORT (8000), FT_BROKER_PORT (6390), FT_WORKERS (1), FT_DATA_DIR (.data).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PORT="${PORT:-8000}"
BROKER_PORT="${FT_BROKER_PORT:-6390}"
DATA="${FT_DATA_DIR:-$ROOT/.data}"
mkdir -p "$DATA/redis" "$DATA/runs"
export DATABASE_URL="${DATABASE_URL:-sqlite:///$DATA/fabrictwin.db}"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-redis://127.0.0.1:$BROKER_PORT/0}"
export REDIS_URL="${REDIS_URL:-$CELERY_BROKER_URL}"
export RUNS_DIR="${RUNS_DIR:-$DATA/runs}"
export PYTHONPATH="$ROOT/backend:$ROOT${PYTHONPATH:+:$PYTHONPATH}"
SUPERVISOR_LOG="$DATA/supervisor.log"

say() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) supervisor: $*" | tee -a "$SUPERVISOR_LOG"; }

# Each child runs in its own process group (setsid) so that a restart also ends what the dead
# process left behind (Celery pool processes, a simulator).
declare -A pid=()
start_redis() {
    setsid redis-server --bind 127.0.0.1 --port "$BROKER_PORT" --dir "$DATA/redis" \
        --appendonly yes --appendfsync everysec --save '' \
        --logfile "$DATA/redis/redis.log" >/dev/null 2>&1 &
    pid[redis]=$!
    for _ in $(seq 100); do redis-cli -h 127.0.0.1 -p "$BROKER_PORT" ping >/dev/null 2>&1 && return; sleep 0.1; done
    say "redis did not answer on port $BROKER_PORT"
}
start_worker() {
    setsid .venv/bin/celery -A workers.celery_app worker -Q sim,sim-batch,celery \
        -c "${FT_WORKERS:-1}" --loglevel=INFO >>"$DATA/worker.log" 2>&1 &
    pid[worker]=$!
}
start_parallel() {
    setsid .venv/bin/celery -A workers.celery_app worker -Q sim-parallel -c 1 -n parallel@%h \
        --loglevel=INFO >>"$DATA/worker-parallel.log" 2>&1 &
    pid[parallel]=$!
}
start_api() {
    setsid .venv/bin/uvicorn app.main:app --host "${FT_HOST:-0.0.0.0}" --port "$PORT" \
        >>"$DATA/api.log" 2>&1 &
    pid[api]=$!
}

stopping=0
cleanup() {
    stopping=1
    trap - INT TERM EXIT
    for name in api worker parallel redis; do
        [ -n "${pid[$name]:-}" ] && kill -TERM -- "-${pid[$name]}" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    echo "FabricTwin stopped."
}
trap cleanup INT TERM EXIT

if redis-cli -h 127.0.0.1 -p "$BROKER_PORT" ping >/dev/null 2>&1; then
    say "using the Redis already answering on port $BROKER_PORT (not supervised)"
else
    start_redis
fi
backend/scripts/prestart.sh
start_worker
start_parallel
start_api
say "worker started (pid ${pid[worker]})"
say "parallel started (pid ${pid[parallel]}; the worker of runs on several threads)"
say "api started (pid ${pid[api]})"
echo "FabricTwin on http://localhost:$PORT  (API docs: /docs, logs: $DATA/{api,worker,worker-parallel,supervisor}.log; Ctrl-C stops)"

declare -A restarts=()
while [ "$stopping" = 0 ]; do
    wait -n "${pid[@]}" 2>/dev/null || true
    [ "$stopping" = 1 ] && break
    for name in "${!pid[@]}"; do
        p="${pid[$name]}"
        kill -0 "$p" 2>/dev/null && continue
        wait "$p" 2>/dev/null && rc=0 || rc=$?
        kill -KILL -- "-$p" 2>/dev/null || true  # leftovers of its process group
        restarts[$name]=$(( ${restarts[$name]:-0} + 1 ))
        # Crash loop: back off up to 30 s between restarts (a waiting pause, not synchronisation).
        delay=$(( restarts[$name] > 5 ? 30 : 0 ))
        say "$name (pid $p) exited with status $rc: restarting it after ${delay} s (restart ${restarts[$name]})"
        if [ "$delay" -gt 0 ]; then sleep "$delay"; fi
        "start_$name"
        say "$name restarted (pid ${pid[$name]})"
    done
done
