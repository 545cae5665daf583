#!/usr/bin/env bash
# Benchmarks of the packet-level model (docs/benchmarks.md records the figures).
#   bench/run-bench.sh [A|B|big|all] [duration_us]
# Builds the fabricmodel library with the project's CMake, compiles simcore/examples/fabric-bench.cc
# against it, and prints one JSON line per reference.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
which="${1:-all}"
dur="${2:-10000}"
cmake -S "$root/simcore" -B "$root/simcore/build" -G Ninja >/dev/null
cmake --build "$root/simcore/build" -j2 --target fabricmodel >/dev/null
bin="$root/simcore/build/fabric-bench"
if [[ ! -x "$bin" || "$root/simcore/examples/fabric-bench.cc" -nt "$bin" ||
      "$root/simcore/build/libfabricmodel.a" -nt "$bin" ]]; then
  g++ -std=c++17 -O2 -DNDEBUG -I"$root/simcore" "$root/simcore/examples/fabric-bench.cc" \
    "$root/simcore/build/libfabricmodel.a" -lns3-core -lns3-network -o "$bin"
fi
run() { /usr/bin/time -f '{"maxrss_kb": %M}' "$bin" "$@"; }
case "$which" in
  A) run A "$dur" 0.3 ;;
  B) run B "$dur" ;;
  big) run big "$dur" 0.1 ;;
  all) run A "$dur" 0.3; run B "$dur" ;;
  *) echo "usage: $0 [A|B|big|all] [duration_us]" >&2; exit 2 ;;
esac
