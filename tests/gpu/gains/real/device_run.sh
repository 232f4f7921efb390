#!/bin/bash
# Device side of the real-program gains measurement (run from the repo root on
# the GPU machine, with .realprogs carried; stage it first with stage.sh).
#
#   bash tests/gpu/gains/real/device_run.sh [PAIR...]
#
# For each staged pair (.realprogs/<pair>/{before,after} + pair.conf):
#   1. builds both sides (all pairs in parallel) and compares their SASS;
#   2. runs each side once plainly and compares the outputs (the program's own
#      PASS line where it has one, and stdout with timing lines removed);
#   3. profiles each side under Nsight Compute with the shared metric list
#      (tests/gpu/gains/ncu_metrics.txt), --clock-control none, -k restricted
#      to the kernels the fix touches, -c small: <pair>_before.ncu.csv and
#      <pair>_after.ncu.csv.
# Everything goes into $OUT/real_results.tar.gz (with nvidia-smi, ncu and nvcc
# versions and the date). Each step is capped at 60 s and the whole run at
# DEADLINE seconds, so one bad program cannot eat the call.
set -u
ROOT=$(pwd)
STAGE=$ROOT/.realprogs
OUT=${OUT:-/tmp/real_out}
# SUFFIX names a second set of results (a repeat call); SKIP_PLAIN=1 skips the
# plain runs (for repeats of pairs whose outputs were already compared).
SUFFIX=${SUFFIX:-}
SKIP_PLAIN=${SKIP_PLAIN:-0}
RES=/tmp/real_results$SUFFIX
DEADLINE=${DEADLINE:-420}
STEP_TIMEOUT=${STEP_TIMEOUT:-60}
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
rm -rf "$RES"; mkdir -p "$RES" "$OUT"
elapsed() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$(elapsed)s] $*" | tee -a "$RES/driver.log"; }

if [ $# -eq 0 ]; then set -- $(cd "$STAGE" && ls -d */ | sed 's@/$@@' | grep -v '^_'); fi
PAIRS=("$@")

# Environment: device, driver, tools, date.
{
  echo "date -u: $(date -u)"
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
  ncu --version
  nvcc --version
  uname -a
} > "$RES/env.txt" 2>&1
log "pairs: ${PAIRS[*]}"

# 1. Builds, all in parallel.
for p in "${PAIRS[@]}"; do
  for side in before after; do
    (
      # shellcheck disable=SC1090
      source "$STAGE/$p/pair.conf"
      cd "$STAGE/$p/$side" && timeout 300 bash -c "$BUILD" > "$RES/${p}_build_$side.log" 2>&1
      echo $? > "$RES/${p}_build_$side.rc"
    ) &
  done
done
wait
log "builds done"

# SASS of the two builds, addresses and comments removed.
for p in "${PAIRS[@]}"; do
  for side in before after; do
    [ -x "$STAGE/$p/$side/prog" ] && cuobjdump -sass "$STAGE/$p/$side/prog" 2>/dev/null \
      | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@/\*[0-9a-f]*\*/@@; s@;.*@@' > "/tmp/${p}_sass_$side.txt"
  done
  if [ -s "/tmp/${p}_sass_before.txt" ] && cmp -s "/tmp/${p}_sass_before.txt" "/tmp/${p}_sass_after.txt"; then
    echo same > "$RES/${p}_sass.txt"
  else
    { echo differs; diff "/tmp/${p}_sass_before.txt" "/tmp/${p}_sass_after.txt" | head -400; } > "$RES/${p}_sass.txt"
  fi
done

# Lines that carry timings (they differ run to run) are dropped before comparing.
TIMING_RE='[Tt]ime|sec|msec| ms|[Gg][Bb]/s|MB/s|GFlop|[Tt]hroughput|MOptions|Options per sec|[Ee]lapsed|[Aa]verage|[Pp]erformance|bandwidth|Bandwidth|Starting|Device [0-9]|GPU Device|CUDA device|Compute capability|MiB'
filtered() { grep -avE "$TIMING_RE" "$1"; }

# 2. Plain runs, two pairs at a time (outputs only; nothing is timed here).
plain_run() {
  local p=$1 side=$2
  # shellcheck disable=SC1090
  source "$STAGE/$p/pair.conf"
  (cd "$STAGE/$p/$side" && timeout "$STEP_TIMEOUT" bash -c "$RUN" > "/tmp/${p}_$side.stdout" 2> "/tmp/${p}_$side.stderr"; echo $? > "/tmp/${p}_$side.rc")
}
export -f plain_run
export STAGE STEP_TIMEOUT
for p in "${PAIRS[@]}"; do
  if [ "$(cat "$RES/${p}_build_before.rc")" = 0 ] && [ "$(cat "$RES/${p}_build_after.rc")" = 0 ]; then
    echo "$p before"; echo "$p after"
  fi
done | { [ "$SKIP_PLAIN" = 1 ] && cat >/dev/null || xargs -P 2 -L 1 bash -c 'plain_run $0 $1'; }
log "plain runs done"

for p in "${PAIRS[@]}"; do
  [ "$SKIP_PLAIN" = 1 ] && break
  [ -f "/tmp/${p}_before.rc" ] || { echo '{"built": false}' > "$RES/${p}_check.json"; continue; }
  unset PASS_RE OUT_FILES
  # shellcheck disable=SC1090
  source "$STAGE/$p/pair.conf"
  pass_b=""; pass_a=""
  if [ -n "${PASS_RE:-}" ]; then
    grep -aqE "$PASS_RE" "/tmp/${p}_before.stdout" && pass_b=true || pass_b=false
    grep -aqE "$PASS_RE" "/tmp/${p}_after.stdout" && pass_a=true || pass_a=false
  fi
  same=false
  cmp -s <(filtered "/tmp/${p}_before.stdout") <(filtered "/tmp/${p}_after.stdout") && same=true
  lines=$(filtered "/tmp/${p}_before.stdout" | wc -l)
  for f in ${OUT_FILES:-}; do
    cmp -s "$STAGE/$p/before/$f" "$STAGE/$p/after/$f" || same=false
  done
  # When the outputs differ, run the before build again: a program whose own
  # output varies run to run (float atomics) is not a fix that changed results.
  rerun_same=""
  if [ "$same" = false ]; then
    (cd "$STAGE/$p/before" && timeout "$STEP_TIMEOUT" bash -c "$RUN" > "/tmp/${p}_before2.stdout" 2>/dev/null)
    rerun_same=false
    cmp -s <(filtered "/tmp/${p}_before.stdout") <(filtered "/tmp/${p}_before2.stdout") && rerun_same=true
    diff <(filtered "/tmp/${p}_before.stdout") <(filtered "/tmp/${p}_after.stdout") | head -40 > "$RES/${p}_stdout.diff"
  fi
  printf '{"built": true, "rc_before": %s, "rc_after": %s, "pass_before": "%s", "pass_after": "%s", "stdout_identical_without_timing_lines": %s, "compared_lines": %s, "before_rerun_identical": "%s", "stdout_md5_before": "%s", "stdout_md5_after": "%s"}\n' \
    "$(cat "/tmp/${p}_before.rc")" "$(cat "/tmp/${p}_after.rc")" "$pass_b" "$pass_a" "$same" "$lines" "$rerun_same" \
    "$(filtered "/tmp/${p}_before.stdout" | md5sum | cut -c1-32)" "$(filtered "/tmp/${p}_after.stdout" | md5sum | cut -c1-32)" > "$RES/${p}_check.json"
  for side in before after; do
    { head -c 6000 "/tmp/${p}_$side.stdout"; echo; echo "[... stderr:]"; head -c 2000 "/tmp/${p}_$side.stderr"; } > "$RES/${p}_${side}_run.txt"
  done
done
log "output checks done"

# 3. Nsight Compute, one build at a time, before then after for each pair.
METRICS=$(grep -v '^\s*$' tests/gpu/gains/ncu_metrics.txt | paste -sd,)
: > "$RES/dropped_metrics.txt"
ncu_run() {  # pair side -> rc
  local p=$1 side=$2 tries=0 bad
  # shellcheck disable=SC1090
  source "$STAGE/$p/pair.conf"
  unset NCU_EXTRA
  # shellcheck disable=SC1090
  source "$STAGE/$p/pair.conf"
  while :; do
    # NCU_EXTRA (pair.conf): e.g. --replay-mode application for a program that
    # faults under kernel replay.
    (cd "$STAGE/$p/$side" && timeout "$STEP_TIMEOUT" ncu ${NCU_EXTRA:-} --clock-control none -c "$COUNT" -k "regex:^($KERNELS)\$" \
        --csv --page raw --metrics "$METRICS" --log-file "$RES/${p}_$side.ncu.csv" \
        $RUN > "/tmp/${p}_${side}_ncu.stdout" 2> "$RES/${p}_${side}_ncu.stderr")
    local rc=$?
    # A metric ncu does not know on this device is dropped (recorded) and the run repeated.
    bad=$(grep -ahoE "Failed to find metric [^ ]+|[Ii]nvalid metric[^:]*: [^ ]+" "$RES/${p}_$side.ncu.csv" "$RES/${p}_${side}_ncu.stderr" 2>/dev/null | awk '{print $NF}' | tr -d "'\"" | sort -u)
    if [ -n "$bad" ] && [ $tries -lt 3 ]; then
      for m in $bad; do echo "$m" >> "$RES/dropped_metrics.txt"; METRICS=$(echo "$METRICS" | tr ',' '\n' | grep -vxF "$m" | paste -sd,); done
      tries=$((tries + 1)); continue
    fi
    echo $rc > "$RES/${p}_${side}_ncu.rc"
    return
  done
}
for p in "${PAIRS[@]}"; do
  [ -x "$STAGE/$p/before/prog" ] && [ -x "$STAGE/$p/after/prog" ] || { log "$p: not built, skipped"; continue; }
  if [ "$(elapsed)" -gt "$DEADLINE" ]; then log "$p: deadline reached, ncu skipped"; continue; fi
  ncu_run "$p" before
  ncu_run "$p" after
  log "$p: ncu rc before $(cat "$RES/${p}_before_ncu.rc") after $(cat "$RES/${p}_after_ncu.rc")"
  # What is done so far reaches $OUT even if the call is stopped later.
  tar -czf "$OUT/real_results$SUFFIX.tar.gz" -C /tmp "real_results$SUFFIX"
done
echo "$METRICS" | tr ',' '\n' > "$RES/metrics_used.txt"

# Keep the pair configs and staged commands next to the results.
for p in "${PAIRS[@]}"; do cp "$STAGE/$p/pair.conf" "$RES/${p}_pair.conf"; done
log "done"
cp "$RES/driver.log" "$OUT/driver$SUFFIX.log"
tar -czf "$OUT/real_results$SUFFIX.tar.gz" -C /tmp "real_results$SUFFIX"
ls -la "$OUT"
