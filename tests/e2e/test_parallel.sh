#!/usr/bin/env bash
# -j N: the report (text, JSON, SARIF) is byte-identical for every N and in a
# stable order; the progress line appears on a terminal's stderr only, and
# never with --quiet.
. "$(dirname "$0")/lib.sh"
set -e
ROOT=$(cd "$E2E_DIR/../.." && pwd)
cd "$ROOT"
FILES=(examples/*.cu tests/lit/rules/*.cu)

for format in text json sarif; do
  STEP="-j 1 vs -j 3, $format"
  "$WARPLINT" check --no-cuda-toolkit "${FILES[@]}" --format $format -j 1 -o "$WORK/j1.$format" 2>"$WORK/j1.err" || true
  "$WARPLINT" check --no-cuda-toolkit "${FILES[@]}" --format $format -j 3 -o "$WORK/j3.$format" 2>"$WORK/j3.err" || true
  [ -s "$WORK/j1.$format" ] || fail "no $format report"
  cmp -s "$WORK/j1.$format" "$WORK/j3.$format" || fail "$format report differs between -j 1 and -j 3"
  cmp -s "$WORK/j1.err" "$WORK/j3.err" || fail "stderr differs between -j 1 and -j 3"
done

STEP="exit status"
run_warplint check --no-cuda-toolkit "${FILES[@]}" -j 2 --quiet
expect_rc 1
expect_no_output "findings in"

STEP="bad -j"
run_warplint check examples/transpose.cu -j 0
expect_rc 2
expect_output "invalid value '0' for -j"

STEP="no progress without a terminal"
run_warplint check --no-cuda-toolkit "${FILES[@]:0:3}" -j 2
expect_no_output "[1/3]"

if command -v script >/dev/null 2>&1; then
  STEP="progress on a terminal"
  script -qec "'$WARPLINT' check --no-cuda-toolkit ${FILES[*]:0:3} -j 2 >/dev/null" /dev/null >"$OUT" 2>&1 || true
  expect_output "[3/3] "
  STEP="--quiet on a terminal"
  script -qec "'$WARPLINT' check --no-cuda-toolkit ${FILES[*]:0:3} -j 2 --quiet >/dev/null" /dev/null >"$OUT" 2>&1 || true
  expect_no_output "[3/3]"
fi
echo PASS
