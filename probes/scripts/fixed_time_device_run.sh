#!/bin/sh
# One device call for the kernel_fixed_time probe (issue 18):
#   sh probes/scripts/fixed_time_device_run.sh NAME OUTDIR [PROBE_BINARY]
# runs the probe plainly twice (event times, a repeat check) and once under
# Nsight Compute (gpu__time_duration of the same launches), adds the ncu values
# to the first run's part profile (fixed_time_ncu.py) and writes NAME_fixed.json
# (merge it with merge_probes.py), NAME_fixed_repeat.json, the ncu CSV and env.txt.
set -u
name=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${3:-}
if [ -z "$bin" ]; then
  build=${BUILD_DIR:-/tmp/warplint-probe-build}
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >"$out/${name}_build.log" 2>&1
  cmake --build "$build" -j"$(nproc)" --target warplint-probe >>"$out/${name}_build.log" 2>&1
  bin=$build/warplint-probe
fi
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  ncu --version | tail -1
  nvcc --version 2>/dev/null | tail -1
} >"$out/env.txt" 2>&1
"$bin" --only kernel_fixed_time --profile-id "$name" --out "$out/${name}_fixed.json"
"$bin" --only kernel_fixed_time --profile-id "$name-repeat" --out "$out/${name}_fixed_repeat.json"
ncu_cmd="ncu --clock-control none -c 400 -k regex:fixedTime --csv --page raw --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size --log-file $out/${name}_fixed_time.ncu.csv $bin --only kernel_fixed_time --profile-id $name-ncu --out $out/${name}_fixed_under_ncu.json"
$ncu_cmd >"$out/${name}_ncu_stdout.txt" 2>&1
python3 "$here/scripts/fixed_time_ncu.py" "$out/${name}_fixed.json" "$out/${name}_fixed_time.ncu.csv" \
  --ncu-command "$ncu_cmd" --ncu-version "$(ncu --version | tail -1)" --write
python3 "$here/scripts/repeat_check.py" "$out/${name}_fixed.json" "$out/${name}_fixed_repeat.json" || true
