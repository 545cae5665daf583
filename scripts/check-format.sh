#!/usr/bin/env bash
# Formatting and lint (issue 39 §4), a suite of scripts/test.sh; changes nothing.
#   Python (backend/, validation/, bench/): `ruff check` and `ruff format --check` (ruff.toml)
#   frontend: `prettier --check` (frontend/.prettierrc.json, frontend/.prettierignore)
#   simcore: `clang-format --dry-run -Werror` (simcore/.clang-format, simcore/.clang-format-ignore)
# Files written before the formatters were checked are listed as pending (ruff.toml
# [format] exclude, the second part of each ignore file); the lists only shrink: a pending file
# that is formatted now, or that no longer exists, fails the check until it leaves its list.
# To format a file: .venv/bin/ruff format FILE, (cd frontend && npx prettier --write FILE) or
# (cd simcore && clang-format -i FILE), then take it off its list.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUFF="${RUFF:-.venv/bin/ruff}"
PRETTIER="frontend/node_modules/.bin/prettier"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
PY_DIRS=(backend validation bench)
FRONTEND_GLOBS=('src/**/*.{ts,tsx,css}' 'e2e/**/*.ts' 'bench/**/*.{ts,tsx,mjs}' '*.{ts,js}')
status=0
fail() { echo "$*" >&2; status=1; }

# A pending list must name existing files that are still unformatted. $1: what lists them;
# $2: the listed files (one a line); stdin: the files among them the formatter would change.
still_pending() {
    local where="$1" listed="$2" unformatted ok=0
    unformatted="$(cat)"
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        if [ ! -e "$f" ]; then
            fail "$f is listed in $where but does not exist: take it off the list"; ok=1
        elif ! grep -qxF "$f" <<<"$unformatted"; then
            fail "$f is formatted now: take it off the list in $where"; ok=1
        fi
    done <<<"$listed"
    return $ok
}

echo "ruff $("$RUFF" --version | cut -d' ' -f2): lint"
"$RUFF" check --no-cache "${PY_DIRS[@]}" || status=1
echo "ruff: format"
"$RUFF" format --no-cache --check "${PY_DIRS[@]}" || status=1
py_pending="$(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("ruff.toml", "rb"))["format"]["exclude"]))')"
existing=()
while IFS= read -r f; do [ -e "$f" ] && existing+=("$f"); done <<<"$py_pending"
# Files named on the command line are checked even when excluded: which would change?
unformatted="$([ ${#existing[@]} -eq 0 ] ||
    "$RUFF" format --no-cache --check --output-format concise "${existing[@]}" 2>/dev/null |
    grep -oE '^[^:]+\.py' | sort -u)"
still_pending "ruff.toml [format] exclude" "$py_pending" <<<"$unformatted" || status=1

echo "prettier $("$PRETTIER" --version)"
(cd frontend && "../$PRETTIER" --check --log-level warn "${FRONTEND_GLOBS[@]}") || status=1
fe_pending="$(sed -n '/^# Written before/,$p' frontend/.prettierignore | grep -v '^#' | grep -v '^$')"
unformatted="$(
    cd frontend
    existing=()
    while IFS= read -r f; do [ -e "$f" ] && existing+=("$f"); done <<<"$fe_pending"
    [ ${#existing[@]} -eq 0 ] || "../$PRETTIER" --list-different --ignore-path /dev/null "${existing[@]}"
)"
(cd frontend && still_pending "frontend/.prettierignore" "$fe_pending" <<<"$unformatted") || status=1

echo "$("$CLANG_FORMAT" --version)"
ignored="$(grep -v '^#' simcore/.clang-format-ignore | grep -v '^$')"
cc_pending="$(sed -n '/^# Written before/,$p' simcore/.clang-format-ignore | grep -v '^#' | grep -v '^$')"
unformatted="$(
    cd simcore
    git ls-files '*.cc' '*.h' | while IFS= read -r f; do
        if grep -qxF "$f" <<<"$ignored"; then
            # pending: still unformatted? (a generated file is not asked)
            grep -qxF "$f" <<<"$cc_pending" && ! "$CLANG_FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1 && echo "$f"
        elif ! "$CLANG_FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1; then
            echo "simcore/$f is not formatted: (cd simcore && $CLANG_FORMAT -i $f)" >&2
            echo "!unformatted"
        fi
    done
)"
grep -qxF '!unformatted' <<<"$unformatted" && status=1
(cd simcore && still_pending "simcore/.clang-format-ignore" "$cc_pending" <<<"$unformatted") || status=1

[ $status = 0 ] && echo "formatting: every checked file is formatted; pending: $(grep -c . <<<"$py_pending") Python, $(grep -c . <<<"$fe_pending") frontend, $(grep -c . <<<"$cc_pending") C++ files"
exit $status
