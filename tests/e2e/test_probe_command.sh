#!/usr/bin/env bash
# `warplint probe`: --report prints a bundled or file profile as tables and
# rejects bad input with exit 2; anything else hands over to the warplint-probe
# binary beside warplint, or says that it was not built.
. "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"

STEP="report a bundled profile"
run_warplint probe --report h200 --probe tlb_reach,sm_clock
expect_rc 0
expect_output "device  NVIDIA H200"
expect_output "== tlb_reach: "
expect_output "derived rises_vmm_aliased_stride_512_mib"
expect_no_output "== dram_copy: "

STEP="report a profile file"
cp "$E2E_DIR/../../probes/profiles/h100.json" mine.json
run_warplint probe --report mine.json --probe shared_bank_conflicts
expect_rc 0
expect_output "NVIDIA H100 80GB HBM3"
expect_output "throughput_bytes_per_clk_per_sm"

STEP="malformed profile"
printf '{"schema": "warplint-hardware-profile", "schema_version": 1' > broken.json
run_warplint probe --report broken.json
expect_rc 2
expect_output "warplint: error: probe --report:"

STEP="wrong schema version"
sed 's/"schema_version": 1/"schema_version": 99/' mine.json > v99.json
run_warplint probe --report v99.json
expect_rc 2
expect_output "schema_version"

STEP="unknown name, missing value, stray option"
run_warplint probe --report h300
expect_rc 2
expect_output "bundled: h100, h200"
run_warplint probe --report
expect_rc 2
expect_output "--report needs a value"
run_warplint probe --report h100 --bogus
expect_rc 2
expect_output "unknown option '--bogus'"

STEP="the suite"
run_warplint probe --list
if [ -x "$(dirname "$WARPLINT")/warplint-probe" ]; then
  expect_rc 0
  expect_output "tlb_reach"
  if ! nvidia-smi >/dev/null 2>&1; then
    run_warplint probe --out suite.json
    expect_rc 2
    expect_output "no CUDA GPU available"
    [ ! -e suite.json ] || fail "a profile was written without a GPU"
  fi
else
  expect_rc 2
  expect_output "the probe suite was not built"
fi
echo PASS
