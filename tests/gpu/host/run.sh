#!/usr/bin/env bash
# Builds each before/after pair of examples/host (one pair per host-side rule
# of issue 20; host-transfer-batching has two: batching_* the loop of rows,
# batching_run_* the run of small copies each time step) with nvcc -O3
# -arch=sm_90, runs both, checks that their output files are bit-identical (`cmp`) and prints the median time of each as a
# Markdown table: CUDA events around the whole copy + kernel (+ prefetch)
# sequence, and the host's wall clock over the same sequence (for the managed
# pair it also covers the host's read of the results, where CPU page faults
# happen). overlap_after runs with 2, 4, 8 and 16 streams.
# Usage: tests/gpu/host/run.sh [WORK_DIR]   (needs a GPU and nvcc)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:-$(mktemp -d)}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || nvcc=nvcc
mkdir -p "$work"
cd "$root/examples/host"
names=(pageable batching batching_run overlap managed)
pids=()
for name in "${names[@]}"; do
  for v in before after; do
    "$nvcc" -O3 -arch=sm_90 -std=c++17 "${name}_$v.cu" -o "$work/${name}_$v" >"$work/${name}_$v.build.txt" 2>&1 &
    pids+=($!)
  done
done
for pid in "${pids[@]}"; do
  wait "$pid" || { cat "$work"/*.build.txt >&2; echo "run.sh: a compile failed" >&2; exit 1; }
done
echo "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader | head -1)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
echo
echo "| pair | variant | events median (ms) | wall median (ms) | speedup (events) | speedup (wall) | outputs |"
echo "|---|---|---|---|---|---|---|"
status=0
field() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
for name in "${names[@]}"; do
  "$work/${name}_before" "$work/${name}_before.bin" >"$work/${name}_before.out"
  variants=(after)
  [ "$name" = overlap ] && variants=(2 4 8 16)
  for v in "${variants[@]}"; do
    if [ "$name" = overlap ]; then
      "$work/${name}_after" "$work/${name}_after$v.bin" "$v" >"$work/${name}_after$v.out"
      out="$work/${name}_after$v"
      label="after, $v streams"
    else
      "$work/${name}_after" "$work/${name}_after.bin" >"$work/${name}_after.out"
      out="$work/${name}_after"
      label="after"
    fi
    b=$(field median_ms "$work/${name}_before.out"); bw=$(field median_wall_ms "$work/${name}_before.out")
    a=$(field median_ms "$out.out"); aw=$(field median_wall_ms "$out.out")
    if cmp -s "$work/${name}_before.bin" "$out.bin"; then same="bit-identical"; else same="DIFFERENT"; status=1; fi
    s=$(awk -v b="$b" -v a="$a" 'BEGIN { printf "%.2fx", b / a }')
    sw=$(awk -v b="$bw" -v a="$aw" 'BEGIN { printf "%.2fx", b / a }')
    echo "| $name | before | $b | $bw | | | |"
    echo "| $name | $label | $a | $aw | $s | $sw | $same |"
  done
done
echo
for f in "$work"/*.out; do echo "== $(basename "$f")"; cat "$f"; done
exit $status
