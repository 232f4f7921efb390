#!/usr/bin/env bash
# The warp-shuffle-candidate pair (examples/advice/warp_reduce_{before,after}.cu)
# on one GPU: nvcc -O3 -arch=sm_90, both run on the same fixed-seed input,
# outputs compared with cmp, CUDA-event median kernel times, then one ncu run
# of each (common.md's raw-page format, metrics from tests/gpu/gains/ncu_metrics.txt).
# Results go to OUT (default: a temporary directory).
# Usage: tests/gpu/advice/warp_reduce_run.sh [OUT]
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
cd "$root/examples/advice"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  "$nvcc" --version | tail -2
  ncu --version 2>/dev/null | tail -1
} >"$out/env.txt"
for v in before after; do
  "$nvcc" -O3 -arch=sm_90 -std=c++17 -Xptxas -v "warp_reduce_$v.cu" -o "$out/warp_reduce_$v" \
    >"$out/warp_reduce_$v.build.txt" 2>&1 || { cat "$out/warp_reduce_$v.build.txt"; exit 1; }
done
for rep in 1 2 3; do
  for v in before after; do
    "$out/warp_reduce_$v" "$out/warp_reduce_$v.bin" >"$out/warp_reduce_$v.run$rep.txt" 2>&1
    echo "$v rc=$? $(tr '\n' ' ' <"$out/warp_reduce_$v.run$rep.txt")"
  done
done | tee "$out/runs.txt"
if cmp "$out/warp_reduce_before.bin" "$out/warp_reduce_after.bin"; then echo "outputs: bit-identical"; else echo "outputs: DIFFERENT"; fi | tee -a "$out/runs.txt"
metrics=$(paste -sd, "$root/tests/gpu/gains/ncu_metrics.txt")
for v in before after; do
  ncu --clock-control none -c 200 -k regex:blockSums --csv --page raw --metrics "$metrics" \
    --log-file "$out/warp_reduce_$v.ncu.csv" "$out/warp_reduce_$v" "$out/warp_reduce_$v.ncu.bin" >"$out/warp_reduce_$v.ncu.txt" 2>&1
  echo "ncu $v rc=$?" | tee -a "$out/runs.txt"
done
rm -f "$out"/warp_reduce_before "$out"/warp_reduce_after "$out"/*.bin
