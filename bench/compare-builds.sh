#!/usr/bin/env bash
# Per-core speed of two commits side by side on Reference A (issue 19, section 3).
#   bench/compare-builds.sh OLD NEW [DURATION_US] [REPEATS]
# OLD and NEW are commits (or anything `git rev-parse` takes; NEW may be "WORKTREE" for this
# checkout's uncommitted state). Each is checked out in a temporary `git worktree`, its fabric
# model built with its own CMake (Release) and simcore/examples/fabric-bench.cc compiled against
# it, as bench/run-bench.sh does. Then, for DURATION_US of Reference A (default 1000):
#   - CPU seconds (user + system, /usr/bin/time) of REPEATS runs of each (default 3), OLD and NEW
#     alternating, the minimum kept: CPU time, not wall time, so a loaded machine bends it least;
#   - instructions executed (valgrind --tool=callgrind, exact and repeatable): one run of each.
# Prints one JSON line per build and a last line with the ratios (OLD / NEW: > 1 = NEW faster),
# and whether both simulated the same frames (packets_tx, flows completed, FCTs). Set
# COMPARE_BUILDS_NO_CALLGRIND=1 to skip callgrind; COMPARE_BUILDS_KEEP=DIR keeps the worktrees,
# builds and callgrind files in DIR (a later run with the same DIR reuses the builds).
# On the shared machine run it under `heavy`: it builds twice and runs for minutes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OLD NEW [DURATION_US] [REPEATS]" >&2
  exit 2
fi
old="$1"
new="$2"
dur="${3:-1000}"
reps="${4:-3}"
if [[ -n "${COMPARE_BUILDS_KEEP:-}" ]]; then
  work="$COMPARE_BUILDS_KEEP"
  mkdir -p "$work"
else
  work="$(mktemp -d /tmp/compare-builds-XXXXXX)"
fi
cleanup() {
  if [[ -z "${COMPARE_BUILDS_KEEP:-}" ]]; then
    for d in "$work"/src-*; do
      [[ -d "$d" ]] && git -C "$root" worktree remove --force "$d" >/dev/null 2>&1 || true
    done
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# build LABEL REV: prints the path of its fabric-bench
build() {
  local label="$1" rev="$2" src sha
  if [[ "$rev" == WORKTREE ]]; then
    src="$root"
    sha="worktree"
  else
    sha="$(git -C "$root" rev-parse --short=12 "$rev^{commit}")"
    src="$work/src-$sha"
    if [[ ! -d "$src" ]]; then
      git -C "$root" worktree add --detach "$src" "$sha" >/dev/null 2>&1
    fi
  fi
  local bdir="$work/build-$label-$sha"
  cmake -S "$src/simcore" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$bdir" -j2 --target fabricmodel fabricscenario >/dev/null
  if [[ ! -x "$bdir/fabric-bench" || "$bdir/libfabricmodel.a" -nt "$bdir/fabric-bench" ||
        "$bdir/libfabricscenario.a" -nt "$bdir/fabric-bench" ]]; then
    g++ -std=c++17 -O2 -DNDEBUG -I"$src/simcore" "$src/simcore/examples/fabric-bench.cc" \
      "$bdir/libfabricmodel.a" "$bdir/libfabricscenario.a" -lns3-core -lns3-network \
      -lcrypto -o "$bdir/fabric-bench"
  fi
  echo "$bdir/fabric-bench $sha"
}

read -r old_bin old_sha < <(build old "$old")
read -r new_bin new_sha < <(build new "$new")

# cpu BIN: user+system seconds of one Reference A run; its JSON line goes to $work/last.json
cpu() {
  /usr/bin/time -f '%U %S' -o "$work/time" "$1" A "$dur" 0.3 > "$work/last.json"
  awk '{printf "%.3f\n", $1 + $2}' "$work/time"
}
old_best=""
new_best=""
for ((i = 0; i < reps; i++)); do
  t="$(cpu "$old_bin")"; cp "$work/last.json" "$work/old.json"
  old_best="$(python3 -c "import sys; a=sys.argv[1]; print(min(float(a), float(sys.argv[2])) if a else sys.argv[2])" "$old_best" "$t")"
  t="$(cpu "$new_bin")"; cp "$work/last.json" "$work/new.json"
  new_best="$(python3 -c "import sys; a=sys.argv[1]; print(min(float(a), float(sys.argv[2])) if a else sys.argv[2])" "$new_best" "$t")"
done

instr() {
  if [[ -n "${COMPARE_BUILDS_NO_CALLGRIND:-}" ]]; then
    echo null
    return
  fi
  local out="$work/callgrind.$2.out"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$1" A "$dur" 0.3 >/dev/null 2>&1
  awk '/^(summary|totals):/ {print $2; exit}' "$out"
}
old_ir="$(instr "$old_bin" "old-$old_sha")"
new_ir="$(instr "$new_bin" "new-$new_sha")"

python3 - "$work/old.json" "$work/new.json" "$old" "$old_sha" "$new" "$new_sha" "$dur" "$reps" \
  "$old_best" "$new_best" "$old_ir" "$new_ir" "$(uptime)" <<'PY'
import json, sys
(oj, nj, old, osha, new, nsha, dur, reps, ocpu, ncpu, oir, nir, up) = sys.argv[1:]
o, n = json.load(open(oj)), json.load(open(nj))
same_keys = ("packets_tx", "flows_completed", "fct_us", "slowdown", "throughput_gbps")
same = all(o.get(k) == n.get(k) for k in same_keys)
def line(label, rev, sha, d, cpu, ir):
    return {"build": label, "rev": rev, "commit": sha, "reference": "A", "sim_us": float(dur),
            "cpu_s_min": float(cpu), "repeats": int(reps),
            "instructions": None if ir == "null" else int(ir),
            "packets_tx": d.get("packets_tx"), "events": d.get("events"),
            "peak_rss_mb": d.get("peak_rss_mb")}
print(json.dumps(line("old", old, osha, o, ocpu, oir)))
print(json.dumps(line("new", new, nsha, n, ncpu, nir)))
ratio = {"cpu_old_over_new": round(float(ocpu) / float(ncpu), 3)}
if oir != "null":
    ratio["instructions_old_over_new"] = round(int(oir) / int(nir), 3)
ratio["same_frames"] = same
ratio["uptime"] = up.strip()
print(json.dumps(ratio))
PY
