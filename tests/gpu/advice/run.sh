#!/usr/bin/env bash
# Builds each before/after pair of examples/advice (one pair per issue-11
# rule: the "before" file is one the rule reports, the "after" file applies
# its advice) with nvcc -O3 -arch=sm_90, runs both on the same fixed-seed
# inputs, checks that their outputs are bit-identical (`cmp`) and prints the
# median kernel time of each (CUDA events, after warm-up) as a Markdown
# table, then the stack frame ptxas reports for every kernel (local memory).
# With NCU_OUT=DIR it then profiles one launch of every program with
# Nsight Compute (the metrics below that the device's ncu knows: global-load
# sectors and L1 hits, L2 reads, shared instructions and wavefronts, local
# sectors, constant-cache requests) into DIR/NAME_{before,after}.metrics.csv:
# the staging rules' ground truth, which tests/gpu/groundtruth has not recorded.
# Usage: [NCU_OUT=DIR] tests/gpu/advice/run.sh [WORK_DIR]   (needs a GPU and nvcc)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:-$(mktemp -d)}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || nvcc=nvcc
mkdir -p "$work"
cd "$root/examples/advice"
names=(median standardize lut dense ycbcr)

pids=()
for name in "${names[@]}"; do
  for v in before after; do
    "$nvcc" -O3 -arch=sm_90 -std=c++17 -Xptxas -v "${name}_$v.cu" -o "$work/${name}_$v" \
      >"$work/${name}_$v.build.txt" 2>&1 &
    pids+=($!)
  done
done
for pid in "${pids[@]}"; do
  wait "$pid" || { cat "$work"/*.build.txt >&2; echo "run.sh: a compile failed" >&2; exit 1; }
done

device=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1)
echo "device: $device; $(date -u +%Y-%m-%dT%H:%MZ); nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
echo
echo "| example | rule | before (ms) | after (ms) | speedup | outputs |"
echo "|---|---|---|---|---|---|"
status=0
for name in "${names[@]}"; do
  case $name in
    median) what="private-array-local-memory: insertion sort -> odd-even transposition network" ;;
    standardize) what="private-array-local-memory --fix: #pragma unroll 4 -> #pragma unroll" ;;
    lut) what="constant-divergent-access: __constant__ curve -> const float *__restrict__" ;;
    dense) what="shared-staging-candidate: naive -> 16x16 shared tiles of X and W" ;;
    ycbcr) what="shared-staging-no-reuse: shared staging -> registers" ;;
  esac
  before=$("$work/${name}_before" "$work/${name}_before.bin" | awk '/median_ms/ {print $2}')
  after=$("$work/${name}_after" "$work/${name}_after.bin" | awk '/median_ms/ {print $2}')
  if cmp -s "$work/${name}_before.bin" "$work/${name}_after.bin"; then
    same="bit-identical"
  else
    same="DIFFERENT ($(cmp -l "$work/${name}_before.bin" "$work/${name}_after.bin" | wc -l) bytes)"
    status=1
  fi
  speedup=$(awk -v b="$before" -v a="$after" 'BEGIN { printf "%.2fx", b / a }')
  echo "| $name | $what | $before | $after | $speedup | $same |"
done
echo
echo "ptxas stack frames (bytes a thread of local memory), before / after:"
for name in "${names[@]}"; do
  frames() { sed -n 's/^ *\([0-9][0-9]*\) bytes stack frame.*/\1/p' "$work/${name}_$1.build.txt" | paste -sd, -; }
  echo "- $name: $(frames before) / $(frames after)"
done
if [ -n "${NCU_OUT:-}" ]; then
  mkdir -p "$NCU_OUT"
  wanted="gpu__time_duration.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
lts__t_sectors_srcunit_tex_op_read.sum smsp__inst_executed_op_global_ld.sum \
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum \
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum \
idc__requests.sum smsp__inst_executed_op_ldc.sum smsp__inst_executed.sum"
  ncu --query-metrics --chip gh100 >"$NCU_OUT/query-metrics.txt" 2>&1 || ncu --query-metrics >"$NCU_OUT/query-metrics.txt" 2>&1
  have=""
  for m in $wanted; do
    if grep -qE "^[[:space:]]*${m%.*}[[:space:]]" "$NCU_OUT/query-metrics.txt"; then have="$have${have:+,}$m"; else echo "ncu: metric ${m%.*} unknown"; fi
  done
  for name in "${names[@]}"; do
    for v in before after; do
      ncu --metrics "$have" --launch-skip 1 --launch-count 1 --csv --print-units base \
        "$work/${name}_$v" "$work/${name}_$v.ncu.bin" >"$NCU_OUT/${name}_$v.metrics.csv" 2>"$NCU_OUT/${name}_$v.ncu.txt" ||
        { echo "ncu ${name}_$v failed (rc $?)"; status=1; }
    done
  done
  echo "ncu metrics: $have"
fi
exit $status
