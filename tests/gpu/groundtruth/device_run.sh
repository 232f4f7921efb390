#!/usr/bin/env bash
# Ground truth, device side. Run ON the GPU machine from the repository root:
#   bash tests/gpu/groundtruth/device_run.sh
# Builds every corpus program (-lineinfo -arch=sm_90), profiles each kernel
# launch in its own ncu report (--launch-skip i --launch-count 1), exports the
# per-instruction source page as CSV and packs the CSVs and logs into
# $OUT/groundtruth.tgz (or ./groundtruth-out/ without $OUT). Needs nvcc and
# ncu only: warplint (Clang 19) is not needed here; the join runs locally.
# Environment: PROGS (programs of tests/gpu/corpus, default the first
# corpus), GT_NAME (archive name), GT_BUDGET_S (profiling time budget),
# GT_SKIP_PROBE (skip the section-set probe), METRIC_PROGS (programs that
# also get one kernel-level ncu run with the local-memory and constant-cache
# metrics of METRICS_WANTED, those the device's ncu knows, into
# csv/PROG.metrics.csv), TWIN_PROGS (programs also built with -DPRIVATE_TWIN,
# which turns their __shared__ arrays into thread-private ones, and run:
# csv/PROG.private_twin.txt says which kernels still gave the right output;
# both builds are then timed with WILD_TIME=1 into csv/PROG.timing.txt and
# csv/PROG.twin_timing.txt), GT_METRICS_ONLY (skip the per-launch source
# profiling: only the kernel-level metrics and the twins).
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

# 1. Build every program (in parallel), then run each once without the
#    profiler (the wild corpus checks its outputs and fails on a mismatch).
launches() { grep -cE '(RUN|CHECKED)\("' "tests/gpu/corpus/$1.cu"; }
for p in $PROGS; do
  (nvcc -O3 -lineinfo -arch=sm_90 -o "$W/bin/$p" "tests/gpu/corpus/$p.cu" \
    >"$W/log/$p.build.txt" 2>&1 || { log "build $p FAILED"; cat "$W/log/$p.build.txt"; }) &
done
for p in ${TWIN_PROGS:-}; do
  (nvcc -O3 -lineinfo -arch=sm_90 -DPRIVATE_TWIN -o "$W/bin/${p}_twin" "tests/gpu/corpus/$p.cu" \
    >"$W/log/${p}_twin.build.txt" 2>&1 || { log "build ${p}_twin FAILED"; cat "$W/log/${p}_twin.build.txt"; }) &
done
wait
for p in $PROGS; do
  (cd "$W/bin" && ./$p) >"$W/log/$p.run.txt" 2>&1 || log "run $p FAILED"
  log "$p: ran $(grep -c '^ran ' "$W/log/$p.run.txt") of $(launches $p) kernels"
done
# The twin's mismatches are its measurement (a kernel that needs another
# thread's shared data gives a wrong output), not a failure.
for p in ${TWIN_PROGS:-}; do
  (cd "$W/bin" && ./${p}_twin) >"$W/csv/$p.private_twin.txt" 2>&1
  (cd "$W/bin" && WILD_TIME=1 ./$p) >"$W/csv/$p.timing.txt" 2>&1
  (cd "$W/bin" && WILD_TIME=1 ./${p}_twin) >"$W/csv/$p.twin_timing.txt" 2>&1
  log "$p private twin: $(grep -c '^ok ' "$W/csv/$p.private_twin.txt") right, $(grep -c '^MISMATCH ' "$W/csv/$p.private_twin.txt") wrong"
done

# 2. Section set: the narrow set if its source page has every column the join
#    needs; time both sets on the first program's first kernel for the record.
SET="$NARROW"
if [ -z "${GT_SKIP_PROBE:-}" ] && [ -z "${GT_METRICS_ONLY:-}" ]; then
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
  [ -z "${GT_METRICS_ONLY:-}" ] || break
  k=$(launches $p) # one launch each
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

# 3b. Kernel-level metrics for METRIC_PROGS: one ncu run over all launches
#     with the metrics this ncu knows (names checked against --query-metrics):
#     local memory and the constant cache (issue 11's private and constant
#     rules), global-load sectors, L1 hits and L2 reads, shared instructions
#     and wavefronts, CTAs per SM (the staging rules).
METRICS_WANTED=${METRICS_WANTED:-"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_requests_pipe_lsu_mem_local_op_st.sum lts__t_sectors_srcunit_l1_aperture_device_op_read.sum lts__t_sectors_srcunit_l1_aperture_device_op_write.sum smsp__sass_inst_executed_op_local_ld.sum smsp__sass_inst_executed_op_local_st.sum smsp__inst_executed_op_ldc.sum idc__requests.sum idc__requests_lookup_hit.sum idc__requests_lookup_miss.sum smsp__inst_executed.sum \
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
lts__t_sectors_srcunit_tex_op_read.sum dram__sectors_read.sum smsp__inst_executed_op_global_ld.sum \
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum \
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
sm__ctas_launched.sum sm__ctas_launched.max gpu__time_duration.sum"}
if [ -n "${METRIC_PROGS:-}" ]; then
  ncu --query-metrics --chip gh100 >"$W/log/query-metrics.txt" 2>&1 ||
    ncu --query-metrics >"$W/log/query-metrics.txt" 2>&1
  have=""
  for m in $METRICS_WANTED; do
    if grep -qE "^[[:space:]]*${m%.*}[[:space:]]" "$W/log/query-metrics.txt"; then have="$have${have:+,}$m"; else log "metric ${m%.*} unknown to this ncu"; fi
  done
  # Plus every counter of these families the device's ncu lists.
  grep -E '^[[:space:]]*(idc__|l1tex__t_(sectors|requests)_pipe_lsu_mem_(local|global_op_ld)|lts__t_sectors_srcunit_tex_op_(read|write)|smsp__(sass_)?inst_executed_op_(local|ldc|shared)|sm__ctas_launched)' \
    "$W/log/query-metrics.txt" >"$W/log/query-metrics-relevant.txt" 2>/dev/null
  for m in $(grep -w Counter "$W/log/query-metrics-relevant.txt" | awk '{print $1 ".sum"}'); do
    case ",$have," in *",$m,"*) ;; *) have="$have${have:+,}$m" ;; esac
  done
  [ -n "$have" ] || have=$(echo $METRICS_WANTED | tr ' ' ',')
  for p in $METRIC_PROGS; do
    ncu --metrics "$have" --csv --print-units base "$W/bin/$p" >"$W/csv/$p.metrics.csv" 2>"$W/log/$p.metrics.txt" ||
      log "metrics $p rc=$?"
  done
  log "kernel metrics: $have"
fi

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
