#!/usr/bin/env bash
# (c) Host code using what CUDA 12/13 removed (texture references,
# cudaThreadSynchronize) gives compile errors, reported as notes with a
# count; the kernel in the same file still gets its finding.
. "$(dirname "$0")/lib.sh"
set -e

SRC="$E2E_DIR/inputs/host_errors.cu"
LINE=$(line_of "$SRC" E2E-BANK-CONFLICT)
TEX=$(line_of "$SRC" E2E-ERROR-TEXTURE)
SYNC=$(line_of "$SRC" E2E-ERROR-THREADSYNC)
cd "$WORK"

check_output() {
  expect_rc 1
  expect_finding host_errors.cu "$LINE" shared-bank-conflict
  expect_output "2 compile errors"
  grep -Eq "host_errors.cu:$TEX:[0-9]+: note: compile error: " "$OUT" ||
    fail "no compile-error note at line $TEX"
  grep -Eq "host_errors.cu:$SYNC:[0-9]+: note: compile error: .*cudaThreadSynchronize" "$OUT" ||
    fail "no compile-error note for cudaThreadSynchronize at line $SYNC"
}

if [ -x "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" ] || [ -f /usr/local/cuda/include/cuda.h ]; then
  STEP="with the CUDA toolkit"
  run_warplint check "$SRC"
  check_output
else
  echo "(no CUDA toolkit: only the bundled-declarations run)"
fi

STEP="--no-cuda-toolkit"
run_warplint check --no-cuda-toolkit "$SRC"
check_output

echo "PASS"
