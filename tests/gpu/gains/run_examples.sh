#!/usr/bin/env bash
# Ground truth for the cost model: every before/after pair of examples/ under
# Nsight Compute, on the GPU machine, from the repository root:
#   bash tests/gpu/gains/run_examples.sh            (needs a GPU, nvcc and ncu)
#
# 1. builds every program with nvcc -O3 -lineinfo -arch=sm_90 (in parallel);
# 2. runs each once without the profiler and checks its outputs the way
#    tests/gpu/rewrites/run.sh, tests/gpu/advice/run.sh and the case studies do
#    (pairs: the two output files are bit-identical; cases: every row "ok");
# 3. runs each build once under ncu with the metrics of ncu_metrics.txt
#    (--csv --page raw, --clock-control none): two-file pairs the first 5
#    launches of their one kernel (-k, -c 5), case studies every launch of
#    their timed kernels (-k regex, at most 200);
# 4. writes <pair>_{before,after}.ncu.csv and <case>.ncu.csv, the logs and
#    env.txt (nvidia-smi, ncu/nvcc versions, date, commands) into
#    $OUT/gains-examples.tgz (re-packed after every step, so that a run cut
#    short still returns what it measured), and prints the per-kernel summary.
# tests/gpu/gains/make_examples_json.py turns the unpacked CSVs into
# tests/gpu/gains/examples.json.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
DEST=${OUT:-$root/gains-out}
work=${WORK:-/tmp/gains-examples}
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
rec=$work/examples            # what goes into the tarball
mkdir -p "$DEST" "$work/bin" "$work/out" "$rec"
cd "$root"
t0=$(date +%s)
pack() { tar -C "$work" -czf "$DEST/gains-examples.tgz" examples; }
say() { echo "[$(($(date +%s) - t0))s] $*" | tee -a "$rec/run.log"; }

# Two-file pairs: directory, name, kernel.
pairs=(rewrites:transpose:transposeTile rewrites:byte_filter:brighten rewrites:byte_copy:addOne
       rewrites:gather:gather advice:median:median3x3 advice:standardize:standardize
       advice:lut:decodePixels advice:dense:denseRelu advice:ycbcr:rgbToYcbcr)
# Case studies: one program each, baseline and changed kernels in it.
cases=(cyclic_reduction:'crBaseline|crPadded'
       aat_transpose:'aatNaive|aatTiled|aatTiledPadded|transposeTile|transposePadded'
       mnf:'filterMedian|filterMean|filterMeanSmem|covNaive|covTiled|covTiledPad|transformGlobal|transformConst|transformConstReg'
       pfac:'pfacGlobal|pfacSmemBytes|pfacSmemUint4')

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown) (working tree may differ)"
  echo "command: bash tests/gpu/gains/run_examples.sh"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv
  nvidia-smi
  "$ncu" --version
  "$nvcc" --version
} >"$rec/env.txt" 2>&1
say "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# 1. build, in parallel
flags=(-O3 -lineinfo -arch=sm_90 -std=c++17 -Xptxas -v)
echo "nvcc ${flags[*]} SRC -o BIN" >"$rec/build.txt"
pids=()
for p in "${pairs[@]}"; do
  IFS=: read -r dir name kern <<<"$p"
  for v in before after; do
    "$nvcc" "${flags[@]}" "examples/$dir/${name}_$v.cu" -o "$work/bin/${name}_$v" \
      >"$work/bin/${name}_$v.build.txt" 2>&1 &
    pids+=($!)
  done
done
for c in "${cases[@]}"; do
  name=${c%%:*}
  "$nvcc" "${flags[@]}" "examples/case_$name.cu" -o "$work/bin/$name" >"$work/bin/$name.build.txt" 2>&1 &
  pids+=($!)
done
bad=0
for pid in "${pids[@]}"; do wait "$pid" || bad=1; done
for f in "$work"/bin/*.build.txt; do
  echo "== $(basename "$f" .build.txt)"; grep -E "stack frame|registers|error" "$f"
done >>"$rec/build.txt"
[ $bad = 0 ] || { say "a compile failed"; cat "$work"/bin/*.build.txt; }
say "built"

# 2. run each program once, unprofiled, and check its outputs
status=0
for p in "${pairs[@]}"; do
  IFS=: read -r dir name kern <<<"$p"
  for v in before after; do
    ms=$(timeout 120 "$work/bin/${name}_$v" "$work/out/${name}_$v.bin" | awk '/median_ms/ {print $2}')
    eval "ms_$v=\${ms:-?}"
  done
  if cmp -s "$work/out/${name}_before.bin" "$work/out/${name}_after.bin"; then same=bit-identical
  else same=DIFFERENT; status=1; fi
  say "native $name: before $ms_before ms, after $ms_after ms (CUDA events, median), outputs $same"
done
for c in "${cases[@]}"; do
  name=${c%%:*}
  (cd "$work/out" && timeout 150 "$work/bin/$name") >"$rec/${name}.native.txt" 2>&1
  rc=$?
  nok=$(grep -c " ok" "$rec/${name}.native.txt"); nbad=$(grep -c "WRONG" "$rec/${name}.native.txt")
  [ $rc = 0 ] && [ "$nbad" = 0 ] && [ "$nok" -gt 0 ] || status=1
  say "native $name: rc $rc, $nok rows ok, $nbad WRONG"
  cat "$rec/${name}.native.txt" >>"$rec/run.log"
done
pack

# 3. the metric list, less any metric this ncu does not know
"$ncu" --query-metrics --chip gh100 >"$work/query-metrics.txt" 2>&1 || "$ncu" --query-metrics >"$work/query-metrics.txt" 2>&1
metrics=""
while read -r m; do
  [ -n "$m" ] || continue
  if [[ $m == launch__* ]] || grep -qE "^[[:space:]]*${m%%.*}[[:space:]]" "$work/query-metrics.txt"; then
    metrics="$metrics${metrics:+,}$m"
  else
    say "ncu does not list ${m%%.*}: dropped $m"
  fi
done <tests/gpu/gains/ncu_metrics.txt
echo "$metrics" >"$rec/metrics_used.txt"

profile() {  # profile OUTNAME KERNEL_REGEX COUNT PROGRAM [ARGS...]
  local out=$1 kre=$2 count=$3
  shift 3
  local s=$(date +%s)
  if [ $((s - t0)) -gt "${BUDGET_S:-420}" ]; then  # leave time to pack inside the call's limit
    say "ncu $out: skipped, past the ${BUDGET_S:-420} s budget"; status=1; return
  fi
  echo "$ncu --clock-control none -c $count -k regex:^($kre)\$ --csv --page raw --metrics \$(paste -sd, tests/gpu/gains/ncu_metrics.txt) --log-file $out.ncu.csv $*" >>"$rec/commands.txt"
  (cd "$work/out" && timeout 200 "$ncu" --clock-control none -c "$count" -k "regex:^($kre)\$" \
     --csv --page raw --metrics "$metrics" --log-file "$rec/$out.ncu.csv" "$@") \
     >"$rec/$out.ncu.stdout.txt" 2>&1
  local rc=$?
  local rows=$(grep -c '^"[0-9]' "$rec/$out.ncu.csv" 2>/dev/null)
  say "ncu $out: rc $rc, ${rows:-0} launches, $(($(date +%s) - s)) s"
  [ "$rc" = 0 ] || status=1
  pack
}

# 4. profile: the two-file pairs (5 launches of the one kernel), then the cases
for p in "${pairs[@]}"; do
  IFS=: read -r dir name kern <<<"$p"
  for v in before after; do
    profile "${name}_$v" "$kern" 5 "$work/bin/${name}_$v" "$work/out/${name}_$v.ncu.bin"
  done
  cmp -s "$work/out/${name}_before.ncu.bin" "$work/out/${name}_after.ncu.bin" ||
    say "$name: outputs under ncu differ"
done
for c in "${cases[@]}"; do
  name=${c%%:*}
  profile "$name" "${c#*:}" 200 "$work/bin/$name"
  grep -q WRONG "$rec/$name.ncu.stdout.txt" && say "$name: WRONG under ncu"
done

say "status $status (0: all outputs checked and all ncu runs succeeded)"
python3 driver/verify/ncu_kernels.py --by-grid "$rec"/*.ncu.csv | tee -a "$rec/run.log"
pack
exit $status
