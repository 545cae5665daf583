#!/usr/bin/env bash
# Formatting and lint (issue 39 §4), a suite of scripts/test.sh; changes nothing.
#   Python (backend/, validation/, bench/): `ruff check` and `ruff format --check` (ruff.toml)
#   frontend: `prettier --check` (frontend/.prettierrc.json, frontend/.prettierignore)
# Files written before the formatters were adopted are listed as pending (ruff.toml
# [format] exclude, the second part of .prettierignore); the lists only shrink: a pending file
# that is formatted now, or that no longer exists, fails the check until it leaves its list.
# To format a file: .venv/bin/ruff format FILE, or (cd frontend && npx prettier --write FILE),
# then take it off its list.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUFF="${RUFF:-.venv/bin/ruff}"
PRETTIER="frontend/node_modules/.bin/prettier"
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

[ $status = 0 ] && echo "formatting: every checked file is formatted; $(grep -c . <<<"$py_pending") Python and $(grep -c . <<<"$fe_pending") frontend files pending"
exit $status
