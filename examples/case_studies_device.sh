#!/usr/bin/env bash
# Builds and times the four case-study examples ON the GPU machine, from the
# repository root:  bash examples/case_studies_device.sh
# Writes the log to $OUT/cases.log (./case-out/ without $OUT). STEPS picks
# the steps (default "build run"); with "verify" it also runs `warplint verify`'s Python module on three of them,
# with the findings computed beforehand on a machine with warplint
# (examples/case_findings/*.json; clang is not needed on the GPU machine).
set -u
DEST=${OUT:-$(pwd)/case-out}
B=/tmp/case-bin
mkdir -p "$DEST" "$B"
LOG="$DEST/cases.log"  # appended to by each step
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -1
} | tee -a "$LOG"
STEPS=${STEPS:-build run}
if [[ $STEPS == *build* ]]; then
for c in cyclic_reduction aat_transpose mnf pfac; do
  echo "== build $c: nvcc -O3 -lineinfo -arch=sm_90 -Xptxas -v" | tee -a "$LOG"
  nvcc -O3 -lineinfo -arch=sm_90 -Xptxas -v -o "$B/$c" "examples/case_$c.cu" >"$B/$c.ptxas.txt" 2>&1 ||
    { echo "BUILD FAILED"; cat "$B/$c.ptxas.txt"; } | tee -a "$LOG"
  grep -A1 "Function properties" "$B/$c.ptxas.txt" | grep -B1 "stack frame" | grep -v "^--" >>"$LOG"
done
fi
if [[ $STEPS == *run* ]]; then
for c in cyclic_reduction aat_transpose mnf pfac; do
  echo "== run $c" | tee -a "$LOG"
  (cd "$B" && timeout 120 ./$c) 2>&1 | tee -a "$LOG"
done
fi
if [[ $STEPS == *verify* ]]; then
  for c in cyclic_reduction aat_transpose pfac; do
    echo "== warplint verify (module) $c" | tee -a "$LOG"
    timeout 150 python3 driver/verify/warplint_verify.py \
      --findings "examples/case_findings/$c.findings.json" \
      --model "examples/case_findings/$c.model.json" \
      --keep "/tmp/verify-$c" "examples/case_$c.cu" -- "$B/$c" 2>&1 | tee -a "$LOG"
    mkdir -p "/tmp/verify-csv/$c" && cp /tmp/verify-$c/*.sass.csv "/tmp/verify-csv/$c/" 2>/dev/null
  done
  tar -C /tmp -czf "$DEST/verify-csv.tgz" verify-csv
fi
echo "== done" | tee -a "$LOG"
