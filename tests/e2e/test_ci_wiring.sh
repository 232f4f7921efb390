#!/usr/bin/env bash
# The CI wiring people copy (docs/ci.md): the composite action's "Run
# warplint" step, run as GitHub would run it (inputs substituted, outputs to
# $GITHUB_OUTPUT), writes a SARIF report and exits as its inputs say; the
# pre-commit hook's entry fails a commit that adds a finding and passes a
# clean one.
. "$(dirname "$0")/lib.sh"
set -e
ROOT=$(cd "$E2E_DIR/../.." && pwd)

# The step's script: the lines under `run: |` of the step named "Run warplint".
step_script() {
  awk '/- name: Run warplint/ {in_step=1; next}
       in_step && /^ *run: \|/ {in_run=1; next}
       in_run && /^        / {sub(/^        /, ""); print; next}
       in_run {exit}' "$ROOT/action.yml"
}
# run_step BUILD_DIR FILES FAIL_ON_FINDINGS: the step with those inputs.
run_step() {
  local script="$WORK/step.sh"
  step_script | sed -e "s|\${{ inputs.build-dir }}|$1|g" -e "s|\${{ inputs.files }}|$2|g" \
    -e "s|\${{ inputs.args }}|--no-cuda-toolkit|g" -e "s|\${{ inputs.sarif-file }}|$WORK/out.sarif|g" \
    -e "s|\${{ inputs.fail-on-findings }}|$3|g" \
    -e "s|\"\$RUNNER_TEMP/warplint-build/bin/warplint\"|\"$WARPLINT\"|" >"$script"
  grep -q '\${{' "$script" && fail "unsubstituted input in the action's step: $(grep '\${{' "$script")"
  rm -f "$WORK/out.sarif" "$WORK/gh_output"
  set +e
  GITHUB_OUTPUT="$WORK/gh_output" bash "$script" >"$OUT" 2>&1
  RC=$?
  set -e
}

BAD="$ROOT/examples/transpose.cu"
CLEAN="$WORK/clean.cu"
printf '__global__ void copy(const float *__restrict__ a, float *b) { b[threadIdx.x] = a[threadIdx.x]; }\n' >"$CLEAN"

STEP="action, findings, fail-on-findings false"
[ -n "$(step_script)" ] || fail "no 'Run warplint' step with a run script in action.yml"
run_step "" "$BAD" false
expect_rc 0
[ -s "$WORK/out.sarif" ] || fail "no SARIF written"
python3 - "$WORK/out.sarif" <<'PY' || fail "SARIF without results"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["tool"]["driver"]["name"] == "warplint"
assert any(r["ruleId"] == "shared-bank-conflict" for r in run["results"])
PY
grep -qx "exit-code=1" "$WORK/gh_output" || fail "step output exit-code is not 1: $(cat "$WORK/gh_output")"

STEP="action, findings, fail-on-findings true"
run_step "" "$BAD" true
expect_rc 1

STEP="action, clean file"
run_step "" "$CLEAN" true
expect_rc 0
grep -qx "exit-code=0" "$WORK/gh_output" || fail "step output exit-code is not 0"

STEP="action, compile database"
mkdir -p "$WORK/db"
cat >"$WORK/db/compile_commands.json" <<JSON
[{"directory": "$WORK", "file": "$BAD", "command": "nvcc -arch=sm_90 -c $BAD -o t.o"}]
JSON
run_step "$WORK/db" "" false
expect_rc 0
grep -qx "exit-code=1" "$WORK/gh_output" || fail "the database's file was not checked"

STEP="action, file that cannot be analyzed"
printf '__global__ void k(float *p) { p[threadIdx.x] = 0.f; }\n' >"$WORK/bad.cu"
cat >"$WORK/db/compile_commands.json" <<JSON
[{"directory": "$WORK", "file": "$WORK/bad.cu", "command": "nvcc -std=c11 -arch=sm_90 -c $WORK/bad.cu -o b.o"}]
JSON
run_step "$WORK/db" "" false
expect_rc 2

STEP="pre-commit hook"
entry=$(sed -n 's/^ *entry: //p' "$ROOT/.pre-commit-hooks.yaml")
[ "$entry" = "warplint check" ] || fail "unexpected hook entry '$entry'"
grep -q "^- id: warplint$" "$ROOT/.pre-commit-hooks.yaml" || fail "no hook with id warplint"
files_re=$(sed -n "s/^ *files: '\(.*\)'$/\1/p" "$ROOT/.pre-commit-hooks.yaml")
echo "kernel.cu" | grep -Eq "$files_re" || fail "hook does not match .cu files"
echo "host.cpp" | grep -Eq "$files_re" && fail "hook matches .cpp files"
run_warplint check --no-cuda-toolkit "$BAD"
expect_rc 1
run_warplint check --no-cuda-toolkit "$CLEAN"
expect_rc 0
echo PASS
