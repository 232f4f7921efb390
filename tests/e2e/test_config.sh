#!/usr/bin/env bash
# .warplint.yaml: found in the file's directory or the nearest parent (the
# nearest wins), or named with --config; enable/disable, exclude,
# warnings-as-errors, profile and rule options apply; command-line flags
# override the file; a bad file is an error with its line (exit 2).
. "$(dirname "$0")/lib.sh"
set -e
ROOT=$(cd "$E2E_DIR/../.." && pwd)
SRC="$ROOT/examples/transpose.cu" # a bank conflict and an uncoalesced write
mkdir -p "$WORK/proj/src/inner" "$WORK/proj/third_party"
cp "$SRC" "$WORK/proj/src/a.cu"
cp "$SRC" "$WORK/proj/src/inner/b.cu"
cp "$SRC" "$WORK/proj/third_party/c.cu"
cd "$WORK/proj"
cat >.warplint.yaml <<'YAML'
disable: [global-uncoalesced]
exclude: ["third_party/**"]
warnings-as-errors: [shared-bank-conflict]
YAML
printf 'enable: [global-uncoalesced]\n' >src/inner/.warplint.yaml

STEP="nearest config wins, exclude"
run_warplint check --no-cuda-toolkit src/a.cu src/inner/b.cu third_party/c.cu
expect_rc 1
expect_output "1 file excluded by .warplint.yaml"
expect_no_output "third_party/c.cu"
grep -q "src/a.cu:[0-9]*:[0-9]*: error: .*\[shared-bank-conflict\]" "$OUT" || fail "a.cu: bank conflict not an error"
grep -q "src/a.cu.*\[global-uncoalesced\]" "$OUT" && fail "a.cu: disabled rule reported"
grep -q "src/inner/b.cu.*\[global-uncoalesced\]" "$OUT" || fail "b.cu: its own config's rule missing"
grep -q "src/inner/b.cu.*\[shared-bank-conflict\]" "$OUT" && fail "b.cu: the parent's config leaked in"

STEP="flags override"
run_warplint check --no-cuda-toolkit src/a.cu --rules global-uncoalesced --warnings-as-errors all
grep -q "src/a.cu.*: error: .*\[global-uncoalesced\]" "$OUT" || fail "--rules/--warnings-as-errors did not override"

STEP="--config"
printf 'enable: [shared-bank-conflict]\n' >"$WORK/other.yaml"
run_warplint check --no-cuda-toolkit src/inner/b.cu third_party/c.cu --config "$WORK/other.yaml"
grep -q "third_party/c.cu.*: warning: .*\[shared-bank-conflict\]" "$OUT" || fail "--config not applied to every file"
grep -q "\[global-uncoalesced\]" "$OUT" && fail "--config did not replace the nearest files"

STEP="profile from the config"
printf 'profile: h200\n' >src/inner/.warplint.yaml
run_warplint check --no-cuda-toolkit src/inner/b.cu
expect_output "H200"
run_warplint check --no-cuda-toolkit src/inner/b.cu --profile h100
expect_output "H100"
expect_no_output "H200"

STEP="bad config"
printf 'enable: [shared-bank-conflict]\nseverity: high\n' >src/inner/.warplint.yaml
run_warplint check --no-cuda-toolkit src/inner/b.cu
expect_rc 2
expect_output "src/inner/.warplint.yaml:2:1: unknown key 'severity'"
run_warplint check --no-cuda-toolkit src/a.cu --config "$WORK/missing.yaml"
expect_rc 2
expect_output "cannot read config file"
echo PASS
