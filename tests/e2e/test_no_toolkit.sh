#!/usr/bin/env bash
# (b) Without a CUDA toolkit warplint parses against its bundled minimal
# declarations (cuda_minimal.h): forced with --no-cuda-toolkit, and when the
# search finds nothing (WARPLINT_CUDA_SEARCH=none disables the search, since
# /usr/local/cuda may well exist; CUDA_PATH points at an empty directory and
# PATH holds no nvcc). Flags after `--` are nvcc-style.
. "$(dirname "$0")/lib.sh"
set -e

SRC="$E2E_DIR/inputs/bank_conflict.cu"
INC="$E2E_DIR/cuda_project/include"
LINE=$(line_of "$SRC" E2E-BANK-CONFLICT)
cd "$WORK"

STEP="--no-cuda-toolkit"
run_warplint check --no-cuda-toolkit "$SRC" -- -DWL_TILE_DIM=32 -I "$INC" -arch=sm_80 \
  --expt-relaxed-constexpr -Xcompiler -fPIC -O3
expect_rc 1
expect_finding bank_conflict.cu "$LINE" shared-bank-conflict
expect_no_output "compile error"

STEP="no toolkit found"
mkdir -p "$WORK/empty-cuda"
set +e
CUDA_PATH="$WORK/empty-cuda" WARPLINT_CUDA_SEARCH=none PATH="$(path_without_nvcc)" \
  "$WARPLINT" check "$SRC" -- -DWL_TILE_DIM=32 "-I$INC" >"$OUT" 2>&1
RC=$?
set -e
expect_rc 1
expect_finding bank_conflict.cu "$LINE" shared-bank-conflict
expect_no_output "compile error"

STEP="missing define is a compile error, not a crash"
run_warplint check --no-cuda-toolkit "$SRC" -- -I "$INC"
expect_output "compile error"
[ "$RC" -ne 2 ] || fail "a compile error made the whole file fail"

echo "PASS"
