#!/usr/bin/env bash
# (e) Exit status a CI can rely on. A file that is not CUDA or C++ at all (a
# binary, or text that gives nothing but compile errors and not one
# declaration) is an error for that file, exit 2, never "no findings"; the
# other files are still reported. --fail-on sets the least severe finding
# that exits 1 (default: note, any finding); suppressed findings never do,
# nor do findings predicted to gain less than --fail-min-gain (default 5%).
. "$(dirname "$0")/lib.sh"
set -e

cd "$WORK"
# A binary: the first bytes of warplint itself (an ELF header has NUL bytes).
head -c 4096 "$WARPLINT" > binary.cu
printf 'This is a README that was renamed by mistake.\nIt has no code at all: x = ;\n' > garbage.cu
printf '// nothing but a comment is valid C++\n' > empty.cu
cat > good.cu <<'CU'
__global__ void transpose(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
int main() { transpose<<<1, dim3(32, 32)>>>(0); }
CU

STEP="binary"
run_warplint check binary.cu --no-cuda-toolkit --color=never
expect_rc 2
expect_output "binary.cu: error: could not analyze this file: not a CUDA or C++ source file: it holds binary data"
expect_output "1 file could not be analyzed"

STEP="garbage"
run_warplint check garbage.cu --no-cuda-toolkit --color=never
expect_rc 2
expect_output "garbage.cu: error: could not analyze this file: not a CUDA or C++ source file:"
expect_output "and not one declaration parsed"

STEP="garbage beside good"
run_warplint check garbage.cu good.cu --no-cuda-toolkit --color=never --format json
expect_rc 2
python3 - "$OUT" <<'PY' || fail "JSON lacks the error for garbage.cu or the finding in good.cu"
import json, sys
text = open(sys.argv[1]).read()
doc = json.loads(text[text.index("{"):])
assert any(e["file"].endswith("garbage.cu") and "not a CUDA or C++ source file" in e["message"] for e in doc["errors"]), doc["errors"]
assert any(f["file"].endswith("good.cu") for f in doc["findings"]), doc["findings"]
PY

STEP="comment only"
run_warplint check empty.cu --no-cuda-toolkit --color=never
expect_rc 0
expect_output "no findings"

# good.cu has a warning (bank conflict); a note-only file for --fail-on.
cat > notes.cu <<'CU'
__global__ void copy(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }
CU
STEP="fail-on default, a finding predicted to gain under 5%"
run_warplint check notes.cu --no-cuda-toolkit --color=never
expect_rc 0
expect_output "[readonly-param]"
expect_output "no change the model can see (~1.00x)"
STEP="--fail-min-gain 0: every finding fails"
run_warplint check notes.cu --no-cuda-toolkit --color=never --fail-min-gain 0
expect_rc 1
STEP="fail-min-gain: 0 in .warplint.yaml"
printf 'fail-min-gain: 0\n' > gain.yaml
run_warplint check notes.cu --no-cuda-toolkit --color=never --config gain.yaml
expect_rc 1
STEP="--fail-min-gain bad value"
run_warplint check notes.cu --fail-min-gain lots
expect_rc 2
expect_output "invalid value 'lots' for --fail-min-gain"
STEP="--min-gain hides findings predicted below it"
run_warplint check notes.cu --no-cuda-toolkit --color=never --min-gain 10 --fail-min-gain 0
expect_rc 0
expect_output "1 finding predicted below --min-gain not shown"
STEP="fail-on warning, notes only"
run_warplint check notes.cu --no-cuda-toolkit --color=never --fail-on warning
expect_rc 0
expect_output "[readonly-param]"
STEP="fail-on warning, a warning"
run_warplint check good.cu --no-cuda-toolkit --color=never --fail-on warning
expect_rc 1
STEP="fail-on error"
run_warplint check good.cu --no-cuda-toolkit --color=never --fail-on error
expect_rc 0
expect_output "[shared-bank-conflict]"
STEP="fail-on error, unanalyzable file"
run_warplint check good.cu binary.cu --no-cuda-toolkit --color=never --fail-on error
expect_rc 2
STEP="fail-on bad value"
run_warplint check good.cu --fail-on warnings
expect_rc 2
expect_output "invalid value 'warnings' for --fail-on (expected note, warning, error)"

STEP="suppressed findings do not fail"
sed 's|\(.*\)$|\1 // NOLINT|' notes.cu > silenced.cu
run_warplint check silenced.cu --no-cuda-toolkit --color=never
expect_rc 0
expect_output "no findings"
expect_output "1 finding suppressed"

echo "PASS"
