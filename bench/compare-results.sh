#!/usr/bin/env bash
# Byte-for-byte regression check of the simulator's results across optimisations.
#   bench/compare-results.sh save  DIR   # write the reference results into DIR
#   bench/compare-results.sh check DIR   # run again and compare with DIR (exit 1 on any difference)
# Runs every docs/examples/valid/*.json and bench/scenarios/*.json with `fabricsim run` and keeps the
# result JSON without its "perf" block (the only non-deterministic part), plus the fabric-bench lines
# of Reference B (10 ms) and Reference A (first 500 us) without their wall-clock fields.
# Also records the checksums of the files other engineers change (DCQCN, scenario layer), so a
# difference caused by their edits rather than by the model is easy to tell apart.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-}"
dir="${2:-}"
if [[ "$mode" != save && "$mode" != check || -z "$dir" ]]; then
  echo "usage: $0 save|check DIR" >&2
  exit 2
fi
cmake -S "$root/simcore" -B "$root/simcore/build" -G Ninja >/dev/null
cmake --build "$root/simcore/build" -j2 >/dev/null
bin="$root/simcore/build/fabric-bench"
if [[ ! -x "$bin" || "$root/simcore/examples/fabric-bench.cc" -nt "$bin" ||
      "$root/simcore/build/libfabricmodel.a" -nt "$bin" ]]; then
  g++ -std=c++17 -O2 -DNDEBUG -I"$root/simcore" "$root/simcore/examples/fabric-bench.cc" \
    "$root/simcore/build/libfabricmodel.a" "$root/simcore/build/libfabricscenario.a" \
    -lns3-core -lns3-network -o "$bin"
fi

out="$dir"
if [[ "$mode" == check ]]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

for f in "$root"/docs/examples/valid/*.json "$root"/bench/scenarios/*.json; do
  name="$(basename "$(dirname "$f")")-$(basename "$f")"
  "$root/simcore/build/fabricsim" run "$f" --out "$out/$name.raw"
  # The result is one compact JSON line ending in ,"perf":{...}}: cut the perf block.
  sed -e 's/,"perf":{[^}]*}}$/}/' "$out/$name.raw" > "$out/$name"
  rm "$out/$name.raw"
done
strip_bench() {
  python3 -c '
import json, sys
d = json.loads(sys.stdin.read(), object_pairs_hook=dict)
for k in ("build_s", "wall_s", "packets_per_s", "events_per_s", "peak_rss_mb"):
    d.pop(k, None)
print(json.dumps(d))'
}
"$bin" B 10000 | strip_bench > "$out/bench-B-10000.json"
"$bin" A 500 0.3 | strip_bench > "$out/bench-A-500.json"
(cd "$root" && md5sum simcore/model/dcqcn.* simcore/model/congestion-ops.* simcore/scenario/*.cc \
  simcore/scenario/*.h simcore/helper/fabric-network.cc) > "$out/others.md5"

if [[ "$mode" == save ]]; then
  echo "saved $(ls "$dir" | wc -l) files in $dir"
  exit 0
fi
status=0
if ! cmp -s "$dir/others.md5" "$out/others.md5"; then
  echo "NOTE: files owned by other engineers changed since the reference was saved:"
  diff "$dir/others.md5" "$out/others.md5" || true
fi
for f in "$dir"/*.json; do
  name="$(basename "$f")"
  if cmp -s "$f" "$out/$name"; then
    echo "same      $name"
  else
    echo "DIFFERENT $name"
    status=1
  fi
done
exit $status
