#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis on loopback for tests and development.
#   eval "$(scripts/services.sh start)"   # prints export lines
#   scripts/services.sh stop
#   scripts/services.sh pg-stop|pg-start|redis-stop|redis-start   # outages for the chaos tests
#     (redis-stop is `shutdown nosave`: queued messages are lost, as in issue 13's defect 2)
# Ports: FT_PG_PORT and FT_REDIS_PORT, or free loopback ports chosen on the first start and
# remembered in .test-run/ports, so two checkouts on one machine do not collide.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="$ROOT/.test-run"
mkdir -p "$STATE"

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
if [ -f "$STATE/ports" ]; then
    read -r SAVED_PG SAVED_REDIS <"$STATE/ports"
fi
PG_PORT="${FT_PG_PORT:-${SAVED_PG:-$(free_port)}}"
REDIS_PORT="${FT_REDIS_PORT:-${SAVED_REDIS:-$(free_port)}}"
echo "$PG_PORT $REDIS_PORT" >"$STATE/ports"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
DB_NAME="fabrictwin_test"

as_pg() {
    # PostgreSQL refuses to run as root: use its system account when we are root.
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_pg() {
    [ -x "$PG_BIN/pg_ctl" ] || { echo "services.sh: PostgreSQL server not installed (run scripts/setup.sh)" >&2; exit 1; }
    local dir
    if [ -f "$STATE/pgdir" ] && [ -d "$(cat "$STATE/pgdir")" ]; then
        dir="$(cat "$STATE/pgdir")"
    else
        # Outside the checkout: the postgres account may not be able to enter it.
        dir="$(mktemp -d /tmp/fabrictwin-pg.XXXXXX)"
        chmod 755 "$dir"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
        as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$STATE/pg-initdb.log" 2>&1
        echo "$dir" >"$STATE/pgdir"
    fi
    if ! as_pg "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-p $PG_PORT -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
            start >/dev/null
    fi
    as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'" | grep -q 1 ||
        as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB_NAME"
}

start_redis() {
    command -v redis-server >/dev/null || { echo "services.sh: redis-server not installed (run scripts/setup.sh)" >&2; exit 1; }
    if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
        mkdir -p "$STATE/redis"
        redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
            --dir "$STATE/redis" --daemonize yes --pidfile "$STATE/redis/redis.pid" \
            --logfile "$STATE/redis/redis.log" >/dev/null
        for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
    fi
}

case "${1:-}" in
start)
    mkdir -p "$STATE"
    start_pg
    start_redis
    echo "export DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/$DB_NAME"
    echo "export CELERY_BROKER_URL=redis://127.0.0.1:$REDIS_PORT/0"
    echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
    echo "export FT_PG_ADMIN_URL=postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/postgres"
    ;;
stop)
    if [ -f "$STATE/pgdir" ]; then
        dir="$(cat "$STATE/pgdir")"
        as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$dir" "$STATE/pgdir"
    fi
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    ;;
pg-stop)
    dir="$(cat "$STATE/pgdir")"
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
pg-start)
    start_pg
    ;;
redis-stop)
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    for _ in $(seq 100); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 || break; sleep 0.1; done
    ;;
redis-start)
    start_redis
    ;;
*)
    echo "usage: $0 start|stop|pg-stop|pg-start|redis-stop|redis-start" >&2
    exit 2
    ;;
esac
