#!/usr/bin/env bash
# Installs everything FabricTwin needs on a fresh Debian 12 machine and builds it.
# Idempotent and quick on a second run: each step is skipped when its inputs did not change.
#   scripts/setup.sh         everything, the simulator's test executables included (scripts/test.sh)
#   scripts/setup.sh --app   only what the app runs: the simulator itself, not its 50-odd tests
#                            (scripts/start.sh)
# Each step prints how long it took.
set -euo pipefail
SIMCORE_TARGETS=()
[ "${1:-}" = "--app" ] && SIMCORE_TARGETS=(--target fabricsim)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

APT_PACKAGES=(build-essential cmake ninja-build pkg-config libns3-dev nlohmann-json3-dev libssl-dev
    libgtest-dev googletest redis-server postgresql chromium python3 python3-venv python3-dev
    fonts-dejavu-core clang-format)

install_apt() {
    local missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "apt-get install ${missing[*]}"
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # The packaged PostgreSQL cluster and Redis service are not used: our scripts start their own.
}

stamp_ok() { [ -f "$2" ] && [ "$(cat "$2")" = "$1" ]; }

install_python() {
    [ -x .venv/bin/python ] || { log "creating .venv"; python3 -m venv .venv; }
    local sum; sum="$(sha256sum backend/requirements.txt | cut -d' ' -f1)"
    stamp_ok "$sum" .venv/.requirements.sha && return 0
    log "pip install -r backend/requirements.txt"
    .venv/bin/pip install -q --disable-pip-version-check -r backend/requirements.txt
    echo "$sum" >.venv/.requirements.sha
}

install_node() {
    [ -f frontend/package-lock.json ] || return 0
    local sum; sum="$(sha256sum frontend/package-lock.json | cut -d' ' -f1)"
    stamp_ok "$sum" frontend/node_modules/.lock.sha && return 0
    log "npm ci (frontend)"
    (cd frontend && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
    echo "$sum" >frontend/node_modules/.lock.sha
}

build_simcore() {
    log "building simcore"
    cmake -S simcore -B simcore/build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build simcore/build -j"$(nproc)" "${SIMCORE_TARGETS[@]}"
}

timed() {
    local started=$SECONDS
    "$@"
    log "$1: $((SECONDS - started)) s"
}

build_frontend() {
    [ -f frontend/package.json ] || return 0
    local sum
    sum="$(cd frontend && find src index.html package-lock.json vite.config.* tsconfig*.json -type f 2>/dev/null |
        sort | xargs sha256sum | sha256sum | cut -d' ' -f1)"
    [ -d frontend/dist ] && stamp_ok "$sum" frontend/dist/.sources.sha && return 0
    log "building frontend"
    (cd frontend && npm run -s build)
    echo "$sum" >frontend/dist/.sources.sha
}

setup_started=$SECONDS
timed install_apt
timed install_python
timed install_node
timed build_simcore
timed build_frontend
log "ready in $((SECONDS - setup_started)) s"
