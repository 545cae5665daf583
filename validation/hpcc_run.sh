#!/usr/bin/env bash
# The HPCC benchmark flow by flow (docs/validation-hpcc.md):
#   validation/hpcc_run.sh [OUT_DIR]     (default: .test-run/hpcc)
#   THREADS=N validation/hpcc_run.sh ...  runs the simulator with --threads N (same result bytes)
# Imports the reference simulator's topology, flows and configuration (validation/data/hpcc) into
# a scenario, runs `fabricsim run` on it (10 ms of traffic; ~1-6 min on the 2-core VM; wall time and
# peak RSS from /usr/bin/time), and compares flow by flow with the reference's FCTs. Writes
# scenario.json, result.json, time.txt, compare.json and compare.md to OUT_DIR; exit 1 when a
# target is missed (the comparison is still written).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.test-run/hpcc}"
data="$root/validation/data/hpcc"
py="${PYTHON:-$root/.venv/bin/python}"
bin="${FABRICSIM_BIN:-$root/simcore/build/fabricsim}"
mkdir -p "$out"
out="$(cd "$out" && pwd)" # the import runs from backend/: a relative OUT_DIR must not move
(cd "$root/backend" && "$py" -m app.scenarios.importers.hpcc --topology "$data/topology-fat.txt" \
  --flows "$data/flows-websearch30.txt" --config "$data/config-dcqcn.txt" \
  --name "HPCC DCQCN benchmark (WebSearch 30%)" -o "$out/scenario.json")
/usr/bin/time -f '{"wall_s": %e, "user_s": %U, "maxrss_kb": %M}' -o "$out/time.txt" \
  "$bin" run "$out/scenario.json" --out "$out/result.json" --threads "${THREADS:-1}"
cat "$out/time.txt"
"$py" "$root/validation/hpcc_compare.py" "$out/result.json" --data "$data" \
  --json "$out/compare.json" --markdown "$out/compare.md"
