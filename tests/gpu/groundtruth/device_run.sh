#!/usr/bin/env bash
# Ground truth, device side. Run ON the GPU machine from the repository root:
#   bash tests/gpu/groundtruth/device_run.sh
# Builds every corpus program (-lineinfo -arch=sm_90), profiles each kernel
# launch in its own ncu report (--launch-skip i --launch-count 1), exports the
# per-instruction source page as CSV and packs the CSVs and logs into
# $OUT/groundtruth.tgz (or ./groundtruth-out/ without $OUT). Needs nvcc and
# ncu only: warplint (Clang 19) is not needed here; the join runs locally.
set -u
ROOT=$(pwd)
DEST=${OUT:-$ROOT/groundtruth-out}
W=${GT_WORK:-/tmp/gt-work}
rm -rf "$W"
mkdir -p "$W/bin" "$W/rep" "$W/csv" "$W/log" "$DEST"
PROGS=${PROGS:-"tiles global reduce misc traps"}
NARROW="--section SourceCounters --section MemoryWorkloadAnalysis_Tables"
log() { echo "[gt $(date +%T)] $*" | tee -a "$W/log/harness.log"; }

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -2
  ncu --version | tail -1
} >"$W/log/device.txt" 2>&1
cat "$W/log/device.txt"

# 1. Build and run each program once without the profiler.
for p in $PROGS; do
  nvcc -O3 -lineinfo -arch=sm_90 -o "$W/bin/$p" "tests/gpu/corpus/$p.cu" \
    >"$W/log/$p.build.txt" 2>&1 || { log "build $p FAILED"; cat "$W/log/$p.build.txt"; }
  (cd "$W/bin" && ./$p) >"$W/log/$p.run.txt" 2>&1 || log "run $p FAILED"
  log "$p: ran $(grep -c '^ran ' "$W/log/$p.run.txt") of $(grep -c 'RUN("' "tests/gpu/corpus/$p.cu") kernels"
done

# 2. Section set: the narrow set if its source page has every column the join
#    needs; time both sets on the first program's first kernel for the record.
SET="$NARROW"
if [ -z "${GT_SKIP_PROBE:-}" ]; then
first=$(echo $PROGS | cut -d' ' -f1)
t0=$(date +%s.%N)
ncu $NARROW --import-source yes --launch-skip 0 --launch-count 1 -f \
  -o "$W/rep/probe_narrow" "$W/bin/$first" >"$W/log/probe_narrow.txt" 2>&1
t1=$(date +%s.%N)
ncu --set full --import-source yes --launch-skip 0 --launch-count 1 -f \
  -o "$W/rep/probe_full" "$W/bin/$first" >"$W/log/probe_full.txt" 2>&1
t2=$(date +%s.%N)
log "one kernel: narrow set $(awk "BEGIN{print $t1 - $t0}") s, full set $(awk "BEGIN{print $t2 - $t1}") s"
for s in narrow full; do
  ncu -i "$W/rep/probe_$s.ncu-rep" --page source --csv --print-source cuda,sass \
    >"$W/csv/probe_$s.sass.csv" 2>"$W/log/probe_$s.export.txt"
done
for col in "L1 Wavefronts Shared Ideal" "L2 Theoretical Sectors Global Ideal" "L1 Conflicts Shared N-Way"; do
  if ! head -5 "$W/csv/probe_narrow.sass.csv" | grep -q "$col"; then
    log "narrow set lacks '$col': using --set full"
    SET="--set full"
  fi
done
fi
log "section set: $SET"

# 3. One report per kernel launch.
tp0=$(date +%s)
for p in $PROGS; do
  k=$(grep -c 'RUN("' "tests/gpu/corpus/$p.cu") # one launch each
  for ((i = 0; i < k; i++)); do
    if (($(date +%s) - tp0 > ${GT_BUDGET_S:-480})); then
      log "time budget spent: $p.$i and later not profiled"
      break
    fi
    ncu $SET --import-source yes --launch-skip $i --launch-count 1 -f \
      -o "$W/rep/$p.$i" "$W/bin/$p" >"$W/log/$p.$i.ncu.txt" 2>&1 ||
      log "ncu $p.$i rc=$?"
  done
done
log "profiling took $(($(date +%s) - tp0)) s"

# 4. Exports, in parallel: per-instruction (cuda,sass), per-CUDA-line (cuda)
#    and the details page (kernel name, launch shape).
te0=$(date +%s)
ls "$W/rep" | grep -v '^probe_' | sed 's/\.ncu-rep$//' |
  xargs -P 12 -I{} bash -c '
    ncu -i "'"$W"'/rep/{}.ncu-rep" --page source --csv --print-source cuda,sass >"'"$W"'/csv/{}.sass.csv" 2>>"'"$W"'/log/export.txt"
    ncu -i "'"$W"'/rep/{}.ncu-rep" --page source --csv --print-source cuda >"'"$W"'/csv/{}.cuda.csv" 2>>"'"$W"'/log/export.txt"
    ncu -i "'"$W"'/rep/{}.ncu-rep" --page details --csv >"'"$W"'/csv/{}.details.csv" 2>>"'"$W"'/log/export.txt"'
log "exports took $(($(date +%s) - te0)) s"
ls -la "$W/csv" | head -5
wc -c "$W"/csv/*.sass.csv | tail -1

tar -C "$W" -czf "$DEST/${GT_NAME:-groundtruth}.tgz" csv log
ls -la "$DEST"
cat "$W/log/harness.log" >/dev/null
log "done"
