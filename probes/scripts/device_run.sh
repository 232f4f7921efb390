#!/bin/sh
# One-command GPU run (through the device tool or on any CUDA machine):
#   probes/scripts/device_run.sh NAME OUTDIR
# builds warplint-probe standalone (sm_90 machine code), runs the suite twice,
# records the second run's agreement in the first, and writes NAME.json,
# NAME_repeat.json, NAME_report.txt, NAME_sass.txt (SASS of the throughput
# kernels) and (if matplotlib is there) the plots into OUTDIR.
set -eu
name=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/warplint-probe-build}
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >"$out/${name}_build.log" 2>&1
cmake --build "$build" -j"$(nproc)" >>"$out/${name}_build.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv || true
# The machine code of the throughput kernels, for the record (the suite reads
# the instruction classes' opcodes back itself).
cuobjdump -sass "$build/warplint-probe" 2>/dev/null | awk '
  /Function : / { keep = ($0 ~ /instThroughput|l1Load|constantThroughput|localBandwidth|l2Read|l2Write|fmaThroughput|sharedThroughput/) }
  keep' >"$out/${name}_sass.txt" || echo "cuobjdump not available"
ra=""
[ -f "$here/regarray/results.json" ] && ra="--register-arrays $here/regarray/results.json"
# shellcheck disable=SC2086
"$build/warplint-probe" --profile-id "$name" --out "$out/$name.json" $ra || echo "warplint-probe: some probe failed"
"$build/warplint-probe" --profile-id "$name-repeat" --out "$out/${name}_repeat.json" || echo "warplint-probe: some probe failed (repeat)"
python3 "$here/scripts/repeat_check.py" "$out/$name.json" "$out/${name}_repeat.json" --write
python3 "$here/scripts/report.py" "$out/$name.json" >"$out/${name}_report.txt"
python3 "$here/scripts/plot_profile.py" "$out/$name.json" "$out" || echo "plots skipped"
