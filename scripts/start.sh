#!/usr/bin/env bash
# Command 1: install everything, build, and start FabricTwin at http://localhost:8000
# on embedded defaults (SQLite file in .data/, a Redis broker this script starts, one local
# Celery worker, the built frontend served by the backend). Ctrl-C stops it all.
# A crashed worker or API process is restarted (scripts/run-embedded.sh; .data/supervisor.log).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh --app   # the simulator, not its test executables (scripts/test.sh builds those)
exec scripts/run-embedded.sh
