#!/usr/bin/env bash
# --baseline: an earlier JSON or SARIF report hides the findings it holds;
# lines inserted above a finding do not bring it back (fingerprints, not line
# numbers); a new finding, or a second copy of a known line, is reported; a
# file that is no report is an error.
. "$(dirname "$0")/lib.sh"
set -e
ROOT=$(cd "$E2E_DIR/../.." && pwd)
cd "$WORK"
cp "$ROOT/examples/transpose.cu" t.cu
W=("$WARPLINT" check --no-cuda-toolkit t.cu)

STEP="baseline reports"
"${W[@]}" --format json -o base.json || true
"${W[@]}" --format sarif -o base.sarif || true
python3 - base.json base.sarif <<'PY' || fail "reports without fingerprints"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["findings"] and all(len(f["fingerprint"]) == 16 for f in j["findings"])
s = json.load(open(sys.argv[2]))
fps = [r["partialFingerprints"]["warplintFingerprint/v1"] for r in s["runs"][0]["results"]]
assert sorted(fps) == sorted(f["fingerprint"] for f in j["findings"])
assert len(set(fps)) == len(fps), "fingerprints collide"
PY
N=$(python3 -c 'import json; print(len(json.load(open("base.json"))["findings"]))')

for base in base.json base.sarif; do
  STEP="same code, $base"
  run_warplint check --no-cuda-toolkit t.cu --baseline $base
  expect_rc 0
  expect_output "$N findings in the baseline not shown"
done

STEP="lines inserted above"
{ printf '// a comment\n\n#define UNUSED_MACRO 1\n'; cat "$ROOT/examples/transpose.cu"; } >t.cu
run_warplint check --no-cuda-toolkit t.cu --baseline base.json
expect_rc 0

STEP="re-indented line still matches"
sed -i 's/^\(    out\[(y + j) \* n + x\] = tile\)/  \1/' t.cu
run_warplint check --no-cuda-toolkit t.cu --baseline base.json
expect_rc 0

STEP="a new finding"
cat >>t.cu <<'CU'
__global__ void addedLater(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x];
}
CU
run_warplint check --no-cuda-toolkit t.cu --baseline base.json --fail-min-gain 0
expect_rc 1
grep -q "\[shared-bank-conflict\]" "$OUT" || fail "the new finding was hidden"
[ "$(grep -c ': warning: ' "$OUT")" -eq 1 ] || fail "more than the new finding reported"

STEP="bad baselines"
echo '{"version": 1}' >bad.json
run_warplint check --no-cuda-toolkit t.cu --baseline bad.json
expect_rc 2
expect_output "not a warplint JSON or SARIF report"
python3 -c 'import json; d=json.load(open("base.json")); [f.pop("fingerprint") for f in d["findings"]]; json.dump(d, open("old.json","w"))'
run_warplint check --no-cuda-toolkit t.cu --baseline old.json
expect_rc 2
expect_output "no fingerprints"
run_warplint check --no-cuda-toolkit t.cu --baseline missing.json
expect_rc 2
echo PASS
