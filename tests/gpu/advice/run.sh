#!/usr/bin/env bash
# Builds each before/after pair of examples/advice (one pair per issue-11
# rule: the "before" file is one the rule reports, the "after" file applies
# its advice) with nvcc -O3 -arch=sm_90, runs both on the same fixed-seed
# inputs, checks that their outputs are bit-identical (`cmp`) and prints the
# median kernel time of each (CUDA events, after warm-up) as a Markdown
# table, then the stack frame ptxas reports for every kernel (local memory).
# Usage: tests/gpu/advice/run.sh [WORK_DIR]   (needs a GPU and nvcc)
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
exit $status
