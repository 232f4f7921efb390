#!/usr/bin/env bash
# The warp-shuffle-candidate --fix pair for the loop form
# (examples/rewrites/warp_tree_loop_{before,after}.cu; the after file is
# `warplint check --fix` of the before file) on one GPU: nvcc -O3 -arch=sm_90,
# both run on the same fixed-seed input three times, outputs compared with cmp,
# CUDA-event median kernel times, then one ncu run of each (common.md's
# raw-page format, metrics from tests/gpu/gains/ncu_metrics.txt).
# Results go to OUT (default: a temporary directory).
# Usage: tests/gpu/rewrites/warp_tree_loop_run.sh [OUT]
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
cd "$root/examples/rewrites"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  "$nvcc" --version | tail -2
  ncu --version 2>/dev/null | tail -1
} >"$out/env.txt"
build() { # source, binary
  "$nvcc" -O3 -arch=sm_90 -std=c++17 -Xptxas -v "$1" -o "$out/$2" >"$out/$2.build.txt" 2>&1 ||
    { cat "$out/$2.build.txt"; exit 1; }
}
build warp_tree_loop_before.cu warp_tree_loop_before
build warp_tree_loop_after.cu warp_tree_loop_after
for rep in 1 2 3; do
  for v in warp_tree_loop_before warp_tree_loop_after; do
    "$out/$v" "$out/$v.bin" >"$out/$v.run$rep.txt" 2>&1
    echo "$v rc=$? $(tr '\n' ' ' <"$out/$v.run$rep.txt")"
  done
done | tee "$out/runs.txt"
if cmp "$out/warp_tree_loop_before.bin" "$out/warp_tree_loop_after.bin"; then
  echo "warp_tree_loop_before vs warp_tree_loop_after: bit-identical"
else
  echo "warp_tree_loop_before vs warp_tree_loop_after: DIFFERENT"
fi | tee -a "$out/runs.txt"
metrics=$(paste -sd, "$root/tests/gpu/gains/ncu_metrics.txt")
for v in warp_tree_loop_before warp_tree_loop_after; do
  ncu --clock-control none -c 200 -k regex:blockSums --csv --page raw --metrics "$metrics" \
    --log-file "$out/$v.ncu.csv" "$out/$v" "$out/$v.ncu.bin" >"$out/$v.ncu.txt" 2>&1
  echo "ncu $v rc=$?" | tee -a "$out/runs.txt"
done
grep -h "registers\|Used" "$out"/*.build.txt >"$out/ptxas.txt" 2>/dev/null
rm -f "$out"/warp_tree_loop_before "$out"/warp_tree_loop_after "$out"/*.bin
