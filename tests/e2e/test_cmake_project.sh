#!/usr/bin/env bash
# (a) A CMake CUDA project configured with nvcc: warplint reads the nvcc
# command lines from compile_commands.json (options file with -I/-isystem=,
# -D, --expt-relaxed-constexpr, --generate-code) and finds the bank conflict.
. "$(dirname "$0")/lib.sh"
set -e

NVCC=${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
[ -x "$NVCC" ] || skip "nvcc not found at $NVCC"
command -v cmake >/dev/null || skip "cmake not found"

PROJECT="$E2E_DIR/cuda_project"
BUILD="$WORK/build"
STEP="configure"
echo "+ cmake -S $PROJECT -B $BUILD -DCMAKE_CUDA_COMPILER=$NVCC"
cmake -S "$PROJECT" -B "$BUILD" -DCMAKE_CUDA_COMPILER="$NVCC" >"$OUT" 2>&1 ||
  fail "cmake could not configure the CUDA project"
[ -f "$BUILD/compile_commands.json" ] || fail "no compile_commands.json written"
grep -q nvcc "$BUILD/compile_commands.json" || fail "compile_commands.json has no nvcc command"

SRC="$PROJECT/src/transpose.cu"
LINE=$(line_of "$SRC" E2E-BANK-CONFLICT)

STEP="check -p BUILD"
cd "$WORK"
run_warplint check -p "$BUILD"
expect_rc 1
expect_finding transpose.cu "$LINE" shared-bank-conflict
# The define and include dir from the database reached clang: tile_config.h
# #errors without them.
expect_no_output "compile error"

STEP="check -p BUILD FILE"
run_warplint check -p "$BUILD" "$SRC"
expect_rc 1
expect_finding transpose.cu "$LINE" shared-bank-conflict

STEP="check -p BUILD --format json"
run_warplint check -p "$BUILD" --format json
expect_rc 1
expect_output '"shared-bank-conflict"'

STEP="check -p BUILD --no-cuda-toolkit"
run_warplint check -p "$BUILD" --no-cuda-toolkit
expect_rc 1
expect_finding transpose.cu "$LINE" shared-bank-conflict
expect_no_output "compile error"

STEP="missing database"
mkdir -p "$WORK/nodb"
run_warplint check -p "$WORK/nodb"
expect_rc 2
expect_output "no compile_commands.json"
expect_output "CMAKE_EXPORT_COMPILE_COMMANDS=ON"

echo "PASS"
