#!/usr/bin/env bash
# Runs check_fuzzer (built with -DWARPLINT_FUZZ=ON) on the seed corpus for
# SECONDS, in fork mode so that one crash or timeout does not end the run:
# each finding is written to ARTIFACTS (crash-*, timeout-*, oom-*) and the
# run goes on. The growing corpus is kept in build-fuzz/corpus (ignored).
# FUZZ_TIMEOUT (default 10 s) is the per-input limit, in wall time: a -O0
# sanitizer build on a loaded 2-core machine needs about 120 (a 0.8 KB seed
# took 1.2 s CPU and up to 18 s wall there at nice 19).
# FUZZ_DETECT_LEAKS (default 1): libFuzzer's per-input leak check (0 turns
# it off; it was off while the loop-recurrence reference cycle leaked on every
# counted loop, bench/README.md "Fuzzing and sanitizers", row 4).
# FUZZ_NICE (default 15): the run's niceness.
# Usage: tests/fuzz/run_fuzzer.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-3600}
build=${2:-$root/build-fuzz}
corpus=$build/corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus" "$artifacts"
[ -d "$build/seeds" ] || bash "$root/tests/fuzz/seed_corpus.sh" "$build/seeds"
# UBSan reports must stop the input that caused them, or the fuzzer never
# sees them; leaks are checked per input by libFuzzer itself.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=0}
cd "$build"
exec nice -n "${FUZZ_NICE:-15}" "$build/bin/check_fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -detect_leaks="${FUZZ_DETECT_LEAKS:-1}" -rss_limit_mb=4096 -max_len=16384 \
  -dict="$root/tests/fuzz/cuda.dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
  "$corpus" "$build/seeds"
