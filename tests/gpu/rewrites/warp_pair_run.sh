#!/usr/bin/env bash
# One warp-shuffle-candidate --fix pair on one GPU: examples/rewrites/STEM_before.cu
# and STEM_after.cu (the after file is `warplint check --fix` of the before file),
# plus any reference programs given as NAME=SOURCE (SOURCE relative to
# examples/rewrites; e.g. advice_after=../advice/warp_reduce_after.cu, the
# hand-written advice). nvcc -O3 -arch=sm_90; every program runs on the same
# fixed-seed input three times (CUDA-event median kernel times); the before
# program's output is compared with cmp against every other program's; then one
# ncu run of before and after (common.md's raw-page format, metrics from
# tests/gpu/gains/ncu_metrics.txt, kernels matching KERNEL, default blockSums).
# Results go to OUT (default: a temporary directory), named as the three
# per-pair scripts this replaces named them (warp_tail_run.sh,
# warp_tail_helper_run.sh and warp_tree_loop_run.sh, now wrappers of this one).
# Usage: tests/gpu/rewrites/warp_pair_run.sh STEM [OUT] [NAME=SOURCE ...]
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 STEM [OUT] [NAME=SOURCE ...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../../.." && pwd)
stem=$1
out=${2:-}
[ -n "$out" ] || out=$(mktemp -d)
shift $(($# >= 2 ? 2 : 1))
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
kernel=${KERNEL:-blockSums}
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
before=${stem}_before
after=${stem}_after
build "$before.cu" "$before"
build "$after.cu" "$after"
refs=()
for ref in "$@"; do
  build "${ref#*=}" "${ref%%=*}"
  refs+=("${ref%%=*}")
done
for rep in 1 2 3; do
  for v in "$before" "$after" ${refs[@]+"${refs[@]}"}; do
    "$out/$v" "$out/$v.bin" >"$out/$v.run$rep.txt" 2>&1
    echo "$v rc=$? $(tr '\n' ' ' <"$out/$v.run$rep.txt")"
  done
done | tee "$out/runs.txt"
for v in "$after" ${refs[@]+"${refs[@]}"}; do
  if cmp "$out/$before.bin" "$out/$v.bin"; then echo "$before vs $v: bit-identical"; else echo "$before vs $v: DIFFERENT"; fi
done | tee -a "$out/runs.txt"
metrics=$(paste -sd, "$root/tests/gpu/gains/ncu_metrics.txt")
for v in "$before" "$after"; do
  ncu --clock-control none -c 200 -k "regex:$kernel" --csv --page raw --metrics "$metrics" \
    --log-file "$out/$v.ncu.csv" "$out/$v" "$out/$v.ncu.bin" >"$out/$v.ncu.txt" 2>&1
  echo "ncu $v rc=$?" | tee -a "$out/runs.txt"
done
grep -h "registers\|Used" "$out"/*.build.txt >"$out/ptxas.txt" 2>/dev/null
for v in "$before" "$after" ${refs[@]+"${refs[@]}"}; do rm -f "$out/$v"; done
rm -f "$out"/*.bin
