#!/usr/bin/env bash
# Issue 19 item 4 on the GPU: char4 packing from the kernel model. The byte
# filter written through a local index (examples/rewrites/byte_local_index_*)
# and as a grid-stride loop (byte_grid_stride_*); each "after" is exactly
# `warplint check --fix` of its "before" (tests/lit/fixes/examples-model-packing.test).
# One device call, from the repository root:
#   bash tests/gpu/rewrites/model_packing.sh        (needs a GPU, nvcc, ncu, cuobjdump)
# 1. builds the four programs with nvcc -O3 -lineinfo -arch=sm_90 (-Xptxas -v);
# 2. runs each natively: CUDA-event median of 21 launches after 3 warm-ups,
#    output poisoned first, and compares each pair's outputs byte for byte;
# 3. runs each build once under ncu with tests/gpu/gains/ncu_metrics.txt
#    (--csv --page raw --clock-control none, the first 10 launches of its kernel);
# 4. counts the global load/store instructions of each build's SASS;
# 5. writes env.txt, run.log, sass.txt, summary.md and the four *.ncu.csv to
#    $OUT (or ./model-packing-out) and prints the summary table.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
dest=${OUT:-$root/model-packing-out}
work=${WORK:-/tmp/model-packing}
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
mkdir -p "$dest" "$work"
cd "$root/examples/rewrites"
pairs=(byte_local_index:brightenLocal byte_grid_stride:brightenStride)
log=$dest/run.log
say() { echo "$*" | tee -a "$log"; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown) (working tree may differ)"
  echo "command: bash tests/gpu/rewrites/model_packing.sh"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv
  nvidia-smi
  "$ncu" --version
  "$nvcc" --version
} >"$dest/env.txt" 2>&1
say "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

flags=(-O3 -lineinfo -arch=sm_90 -std=c++17 -Xptxas -v)
say "build: nvcc ${flags[*]} SRC -o BIN"
pids=()
for p in "${pairs[@]}"; do
  name=${p%%:*}
  for v in before after; do
    "$nvcc" "${flags[@]}" "${name}_$v.cu" -o "$work/${name}_$v" >"$work/${name}_$v.build.txt" 2>&1 &
    pids+=($!)
  done
done
for pid in "${pids[@]}"; do
  wait "$pid" || { say "a compile failed"; cat "$work"/*.build.txt | tee -a "$log"; exit 1; }
done
cat "$work"/*.build.txt >>"$log"

: >"$dest/sass.txt"
for p in "${pairs[@]}"; do
  name=${p%%:*}
  for v in before after; do
    echo "== ${name}_$v: global memory instructions in the SASS" >>"$dest/sass.txt"
    cuobjdump -sass "$work/${name}_$v" | grep -oE '\b(LDG|STG)(\.[A-Z0-9_]+)*' | sort | uniq -c >>"$dest/sass.txt"
  done
done

metrics=$(paste -sd, "$root/tests/gpu/gains/ncu_metrics.txt")
status=0
rows=()
for p in "${pairs[@]}"; do
  IFS=: read -r name kern <<<"$p"
  declare -A ms=()
  for v in before after; do
    ms[$v]=$("$work/${name}_$v" "$work/${name}_$v.bin" | awk '/median_ms/ {print $2}')
    say "native ${name}_$v: median ${ms[$v]} ms"
    cmd=("$ncu" --clock-control none -c 10 -k "regex:^${kern}\$" --csv --page raw --metrics "$metrics"
         --log-file "$dest/${name}_$v.ncu.csv" "$work/${name}_$v" "$work/${name}_$v.ncu.bin")
    say "ncu: ${cmd[*]}"
    "${cmd[@]}" >>"$log" 2>&1 || { say "ncu failed for ${name}_$v"; status=1; }
  done
  if cmp -s "$work/${name}_before.bin" "$work/${name}_after.bin" &&
     cmp -s "$work/${name}_before.ncu.bin" "$work/${name}_after.ncu.bin"; then
    same=bit-identical
  else
    same=DIFFERENT
    status=1
  fi
  rows+=("$name:$kern:${ms[before]}:${ms[after]}:$same")
  unset ms
done

python3 - "$dest" "${rows[@]}" <<'EOF' | tee "$dest/summary.md"
import csv, io, sys
dest, rows = sys.argv[1], sys.argv[2:]
scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}

def launches(path):
    text = open(path).read()
    start = text.find('"ID"')
    if start < 0:
        return [], {}
    r = list(csv.reader(io.StringIO(text[start:])))
    head, units = r[0], r[1]
    out = [dict(zip(head, x)) for x in r[2:] if len(x) == len(head)]
    return out, dict(zip(head, units))

def mean(path, metric):
    ls, units = launches(path)
    vals = [float(l[metric].replace(",", "")) for l in ls if l.get(metric, "") not in ("", "n/a")]
    if not vals:
        return None, 0
    v = sum(vals) / len(vals)
    if metric == "gpu__time_duration.sum":
        v *= scale.get(units.get(metric, "nsecond"), 1e-6)
    return v, len(vals)

print("| example | kernel | native before (ms) | native after (ms) | native speedup | ncu before (ms/launch) | ncu after (ms/launch) | ncu speedup | launches | dram bytes before/after | inst executed before/after | outputs |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for row in rows:
    name, kern, b, a, same = row.split(":")
    nb, cb = mean(f"{dest}/{name}_before.ncu.csv", "gpu__time_duration.sum")
    na, ca = mean(f"{dest}/{name}_after.ncu.csv", "gpu__time_duration.sum")
    db, _ = mean(f"{dest}/{name}_before.ncu.csv", "dram__bytes.sum")
    da, _ = mean(f"{dest}/{name}_after.ncu.csv", "dram__bytes.sum")
    ib, _ = mean(f"{dest}/{name}_before.ncu.csv", "sm__inst_executed.sum")
    ia, _ = mean(f"{dest}/{name}_after.ncu.csv", "sm__inst_executed.sum")
    fmt = lambda x, f="%.4f": (f % x) if x is not None else "n/a"
    nat = "%.2fx" % (float(b) / float(a)) if b and a else "n/a"
    prof = "%.2fx" % (nb / na) if nb and na else "n/a"
    print(f"| {name} | {kern} | {b} | {a} | {nat} | {fmt(nb)} | {fmt(na)} | {prof} | {cb}/{ca} | "
          f"{fmt(db, '%.3g')}/{fmt(da, '%.3g')} | {fmt(ib, '%.3g')}/{fmt(ia, '%.3g')} | {same} |")
EOF
cat "$dest/sass.txt"
exit $status
