#!/usr/bin/env bash
# Fuzzes the scenario reader (simcore/scenario/) with libFuzzer for a bounded time.
#
#   scripts/fuzz.sh [SECONDS]        (default 120)
#
# Installs clang from Debian when it is missing, builds simcore/fuzz/scenario-reader-fuzz.cc
# with AddressSanitizer and UndefinedBehaviorSanitizer into simcore/build-fuzz/, seeds the
# corpus with docs/examples/valid and docs/examples/invalid, and runs one fuzzing process.
# Any input that makes the reader do anything but load or throw ScenarioError is saved under
# simcore/build-fuzz/artifacts/ and makes the script exit 1. Results: docs/validation-fuzz.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SECONDS_TO_RUN="${1:-120}"
BUILD=simcore/build-fuzz
log() { printf '\033[1m[fuzz]\033[0m %s\n' "$*" >&2; }

can_fuzz() {
    command -v clang++ >/dev/null || return 1
    echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
        clang++ -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null
}

install_clang() {
    can_fuzz && return 0
    log "apt-get install clang libclang-rt-dev (libFuzzer)"
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    local version; version="$(apt-cache depends clang | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -1)"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        clang "libclang-rt-${version}-dev" >/dev/null
}

build() {
    mkdir -p "$BUILD"
    local sources=(simcore/scenario/*.cc simcore/fuzz/scenario-reader-fuzz.cc)
    local stamp; stamp="$(cat "${sources[@]}" simcore/scenario/*.h | sha256sum | cut -d' ' -f1)"
    if [ -x "$BUILD/scenario-reader-fuzz" ] && [ "$(cat "$BUILD/.sources.sha" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    log "building $BUILD/scenario-reader-fuzz"
    clang++ -std=c++17 -g -O1 -fno-omit-frame-pointer \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -DFABRICSIM_VERSION='"fuzz"' -Isimcore -I/usr/include \
        "${sources[@]}" -o "$BUILD/scenario-reader-fuzz" -lns3-core
    echo "$stamp" >"$BUILD/.sources.sha"
}

seed_corpus() {
    rm -rf "$BUILD/seeds"
    mkdir -p "$BUILD/seeds" "$BUILD/corpus" "$BUILD/artifacts"
    find docs/examples/valid docs/examples/invalid -name '*.json' ! -name expected.json \
        -exec cp {} "$BUILD/seeds/" \;
    # Dictionary: every key and string value of the examples, so mutations speak the format.
    python3 - "$BUILD/scenario.dict" docs/examples/valid/*.json <<'PY'
import json, sys
words = set()
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            words.add(k); walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
    elif isinstance(v, str) and len(v) < 40:
        words.add(v)
for path in sys.argv[2:]:
    walk(json.load(open(path)))
with open(sys.argv[1], "w") as out:
    for i, w in enumerate(sorted(words)):
        out.write(f'k{i}="\\"{w}\\""\n')
    for i, tok in enumerate(["{", "}", "[", "]", ":", ",", "true", "false", "null", "1e400", "-0",
                             "0.01", "65535", "1e-300", "4294967296", "9007199254740993"]):
        out.write(f't{i}="{tok}"\n')
PY
}

install_clang
build
seed_corpus
log "fuzzing for ${SECONDS_TO_RUN} s (corpus $BUILD/corpus, seeds $BUILD/seeds)"
set +e
ASAN_OPTIONS=detect_leaks=1 "$BUILD/scenario-reader-fuzz" -max_total_time="$SECONDS_TO_RUN" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -dict="$BUILD/scenario.dict" -artifact_prefix="$BUILD/artifacts/" \
    "$BUILD/corpus" "$BUILD/seeds" 2>&1 | tee "$BUILD/fuzz.log" | grep -E "INFO: seed|INITED|DONE|pulse|ERROR|SUMMARY|stat::" || true
set -e
findings="$(find "$BUILD/artifacts" -type f | wc -l)"
done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$BUILD/fuzz.log" | tail -1)"
log "result: ${done_line:-no DONE line} ; findings: $findings (in $BUILD/artifacts/)"
[ "$findings" -eq 0 ]
