#!/usr/bin/env bash
# Runs a sanitizer build's warplint (-DWARPLINT_SANITIZE=ON) over the public
# corpora, read from the `fetch` tool's mirrors and extracted into SRC (never
# committed): NVIDIA cuda-samples, Rodinia's cuda/ and HeCBench's *-cuda
# (the first HECBENCH_COUNT in name order). Each file is checked with the
# toolkit headers, --time-limit 120 and an outer kill at 300 s. Writes one
# line per file to LOG ("exit N FILE", with "SANITIZER" when ASan or UBSan
# reported) and the reports themselves to LOG.reports.
# Usage: tests/fuzz/corpus_asan.sh WARPLINT LOG [SRC] [MIRRORS]
set -uo pipefail
warplint=$1
log=$2
src=${3:-/tmp/wl-asan-src}
mirrors=${4:-/work/.mirror}
hecbench_count=${HECBENCH_COUNT:-100}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
mkdir -p "$src"
extract() { # MIRROR PATH...
  local git_dir=$mirrors/$1/repo
  shift
  [ -d "$src/$1" ] || git --git-dir="$git_dir" archive HEAD "$@" | tar -x -C "$src"
}
extract NVIDIA+cuda-samples Samples Common
extract yuhc+gpu-rodinia cuda
hb_dirs=$(git --git-dir="$mirrors/zjin-lcf+HeCBench/repo" ls-tree --name-only HEAD src/ | grep -- '-cuda$' |
  head -n "$hecbench_count")
[ -d "$src/src" ] || git --git-dir="$mirrors/zjin-lcf+HeCBench/repo" archive HEAD $hb_dirs src/include 2>/dev/null |
  tar -x -C "$src" || true

: >"$log"
: >"$log.reports"
check() { # FILE FLAGS...
  local file=$1 out status
  shift
  out=$(timeout -s KILL 300 nice -n 15 "$warplint" check --quiet --time-limit 120 "$file" -- "$@" 2>&1 >/dev/null)
  status=$?
  if grep -q "ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer" <<<"$out"; then
    echo "exit $status SANITIZER $file" >>"$log"
    { echo "=== $file"; printf '%s\n' "$out" | grep -v "^warplint:" | head -80; } >>"$log.reports"
  else
    echo "exit $status $file$(grep -o 'stopped after [0-9.]* s' <<<"$out" | head -1 | sed 's/^/ /')" >>"$log"
  fi
}
while IFS= read -r f; do
  check "$f" -I "$src/Common" -I "$(dirname "$f")"
done < <(find "$src/Samples" -name '*.cu' | sort)
while IFS= read -r f; do
  check "$f" -I "$(dirname "$f")"
done < <(find "$src/cuda" -name '*.cu' | sort)
for d in $hb_dirs; do
  for f in "$src/$d"/*.cu; do
    [ -f "$f" ] && check "$f" -I "$src/$d" -I "$src/src/include"
  done
done
echo "corpus_asan: $(wc -l <"$log") files, $(grep -c SANITIZER "$log") with sanitizer reports, exit codes:"
awk '{print $2}' "$log" | sort | uniq -c
