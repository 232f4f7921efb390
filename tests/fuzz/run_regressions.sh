#!/usr/bin/env bash
# Runs `warplint check` on every input the fuzzer once broke (one per fix,
# regressions/README.md says which) and fails on a crash, a signal, a
# hang past the time limit or an internal error. Exit 0, 1 (findings) and 2
# (a file that could not be analyzed: most of these inputs are not CUDA) are
# all clean answers.
# Usage: run_regressions.sh WARPLINT REGRESSIONS_DIR
set -u
warplint=$1
dir=$2
limit=${WARPLINT_REGRESSION_TIMEOUT:-120}
failed=0
count=0
for input in "$dir"/*; do
  case "$input" in *.md) continue ;; esac
  [ -f "$input" ] || continue
  count=$((count + 1))
  # The analyzer picks its language from the name: give it a .cu one.
  copy=$(mktemp --suffix=.cu)
  cp "$input" "$copy"
  stderr=$(timeout -s KILL "$limit" "$warplint" check --no-cuda-toolkit --quiet "$copy" 2>&1 >/dev/null)
  status=$?
  # The model dump prints source text too (invalid UTF-8 once ended it).
  if [ "$status" -le 2 ] && ! grep -q "internal error\|Sanitizer\|runtime error" <<<"$stderr"; then
    stderr=$(timeout -s KILL "$limit" "$warplint" check --no-cuda-toolkit --quiet --dump-model "$copy" 2>&1 >/dev/null)
    status=$?
  fi
  rm -f "$copy"
  if [ "$status" -gt 2 ] || grep -q "internal error\|Sanitizer\|runtime error" <<<"$stderr"; then
    echo "FAIL: $(basename "$input"): exit $status"
    printf '%s\n' "$stderr" | tail -20
    failed=1
  fi
done
echo "fuzz regressions: $count inputs, $([ $failed = 0 ] && echo all clean || echo FAILURES)"
exit $failed
