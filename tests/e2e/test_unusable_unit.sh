#!/usr/bin/env bash
# (d) A file clang cannot parse at all (its compile command is rejected) is an
# error for that file only: exit 2, an `error:` line naming it, and the other
# files' findings still reported, in text and in JSON. A file whose include is
# missing still has its kernels analyzed.
. "$(dirname "$0")/lib.sh"
set -e

GOOD="$E2E_DIR/inputs/host_errors.cu"
AFTER_FATAL="$E2E_DIR/inputs/missing_header.cu"
LINE=$(line_of "$GOOD" E2E-BANK-CONFLICT)
FATAL_LINE=$(line_of "$AFTER_FATAL" E2E-AFTER-FATAL)
cd "$WORK"
cp "$GOOD" good.cu
printf '__global__ void k(float *p) { p[threadIdx.x] = 0.f; }\n' > bad.cu
# C11 is not a CUDA dialect: clang rejects the command itself.
cat > compile_commands.json <<JSON
[
  {"directory": "$WORK", "file": "$WORK/good.cu",
   "command": "/usr/local/cuda/bin/nvcc -std=c++17 -arch=sm_90 -c $WORK/good.cu -o good.o"},
  {"directory": "$WORK", "file": "$WORK/bad.cu",
   "command": "/usr/local/cuda/bin/nvcc -std=c11 -arch=sm_90 -c $WORK/bad.cu -o bad.o"}
]
JSON

STEP="text"
run_warplint check -p "$WORK"
expect_rc 2
grep -Eq "bad.cu: error: could not analyze this file" "$OUT" || fail "no error line for bad.cu"
expect_finding good.cu "$LINE" shared-bank-conflict

STEP="json"
run_warplint check -p "$WORK" --format json
expect_rc 2
python3 - "$OUT" <<'PY' || fail "JSON report does not hold the error and the finding"
import json, sys
doc = json.load(open(sys.argv[1]))
assert any(e["file"].endswith("bad.cu") for e in doc["errors"]), doc["errors"]
assert any(f["rule"] == "shared-bank-conflict" and f["file"].endswith("good.cu") for f in doc["findings"])
units = {u["file"].rsplit("/", 1)[-1]: u for u in doc["units"]}
assert units["bad.cu"]["parsed"] is False and units["good.cu"]["parsed"] is True, units
PY

STEP="missing include"
run_warplint check "$AFTER_FATAL"
expect_rc 1
expect_finding missing_header.cu "$FATAL_LINE" shared-bank-conflict
expect_output "this_header_does_not_exist.cuh"

echo "PASS"
