# Shared helpers for the end-to-end scripts; sourced, not run.
# Usage of every script: test_X.sh /path/to/warplint   (or WARPLINT=... test_X.sh)
# Exit codes: 0 pass, 1 fail, 77 skipped (ctest SKIP_RETURN_CODE).

set -u

WARPLINT=${1:-${WARPLINT:-}}
if [ -z "$WARPLINT" ] || [ ! -x "$WARPLINT" ]; then
  echo "usage: $0 /path/to/warplint (or set WARPLINT)" >&2
  exit 2
fi
WARPLINT=$(cd "$(dirname "$WARPLINT")" && pwd)/$(basename "$WARPLINT")
E2E_DIR=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/warplint-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/out.txt"
RC=0
STEP=""

skip() { echo "SKIP: $*"; exit 77; }

fail() {
  echo "FAIL${STEP:+ [$STEP]}: $*"
  if [ -f "$OUT" ]; then
    echo "--- warplint output (exit $RC):"
    cat "$OUT"
    echo "---"
  fi
  exit 1
}

# run_warplint ARGS...: runs warplint with stdout+stderr in $OUT, exit code in $RC.
run_warplint() {
  echo "+ warplint $*"
  set +e
  "$WARPLINT" "$@" >"$OUT" 2>&1
  RC=$?
  set -e
}

# line_of FILE MARKER: the line number of the first line holding MARKER.
line_of() { grep -n -- "$2" "$1" | head -n1 | cut -d: -f1; }

expect_rc() { [ "$RC" -eq "$1" ] || fail "expected exit code $1, got $RC"; }

# expect_finding FILE_BASENAME LINE RULE
expect_finding() {
  grep -Eq -- "$1:$2:[0-9]+: [a-z]+: .*\[$3\]" "$OUT" ||
    fail "no [$3] finding at $1:$2"
}

expect_output() { grep -Fq -- "$1" "$OUT" || fail "output lacks '$1'"; }
expect_no_output() { ! grep -Fq -- "$1" "$OUT" || fail "output unexpectedly has '$1'"; }

# A PATH without any directory holding nvcc.
path_without_nvcc() {
  local out="" dir
  local IFS=:
  for dir in $PATH; do
    [ -n "$dir" ] && [ ! -e "$dir/nvcc" ] && out="${out:+$out:}$dir"
  done
  echo "$out"
}
