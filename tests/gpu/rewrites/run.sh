#!/usr/bin/env bash
# Builds each before/after pair of examples/rewrites with nvcc -O3 -arch=sm_90,
# runs both on the same random inputs (fixed seeds), checks that their outputs
# are bit-identical and prints the median kernel time of each (CUDA events,
# median of 21 timed runs after 3 warm-ups) as a Markdown table.
# Usage: tests/gpu/rewrites/run.sh [WORK_DIR]   (needs a GPU and nvcc)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:-$(mktemp -d)}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$work"
cd "$root/examples/rewrites"
names=(transpose byte_filter byte_copy gather)

pids=()
for name in "${names[@]}"; do
  for v in before after; do
    "$nvcc" -O3 -arch=sm_90 -std=c++17 "${name}_$v.cu" -o "$work/${name}_$v" &
    pids+=($!)
  done
done
for pid in "${pids[@]}"; do
  wait "$pid" || { echo "run.sh: a compile failed" >&2; exit 1; }
done

device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "device: $device; $(date -u +%Y-%m-%d); nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
echo
echo "| example | rewrite | before (ms) | after (ms) | speedup | outputs |"
echo "|---|---|---|---|---|---|"
status=0
for name in "${names[@]}"; do
  case $name in
    transpose) what="shared-bank-conflict: tile[32][32] -> [32][33]" ;;
    byte_filter) what="global-narrow-access: 4 byte loads/stores -> uchar4" ;;
    gather) what="readonly-param: const __restrict__ table, index" ;;
    byte_copy) what="global-narrow-access --fix-launch: 1 byte a thread -> uchar4, grid / 4" ;;
  esac
  before=$("$work/${name}_before" "$work/${name}_before.bin" | awk '/median_ms/ {print $2}')
  after=$("$work/${name}_after" "$work/${name}_after.bin" | awk '/median_ms/ {print $2}')
  if cmp -s "$work/${name}_before.bin" "$work/${name}_after.bin"; then
    same="bit-identical"
  else
    same="DIFFERENT"
    status=1
  fi
  speedup=$(awk -v b="$before" -v a="$after" 'BEGIN { printf "%.2fx", b / a }')
  echo "| $name | $what | $before | $after | $speedup | $same |"
done
exit $status
