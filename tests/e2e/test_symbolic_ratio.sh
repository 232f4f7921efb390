#!/bin/bash
# A kernel with eight symbolic sizes and a 3-deep symbolic loop nest
# (inputs/many_symbols.cu) is analyzed within a ratio of its parse floor: the
# CPU time of `warplint check` against that of the clang command warplint
# parses with (`--print-clang-command`, the same flags, -fsyntax-only). A
# ratio, never an absolute time (issue 19: no file above 3x its floor; the
# bound here leaves room for a loaded machine's noise, which hits both runs).
. "$(dirname "$0")/lib.sh"
set -e
command -v clang++-19 >/dev/null || skip "clang++-19 not found"
IN="$E2E_DIR/inputs/many_symbols.cu"
cpu() { # CPU seconds (user + system) of a command, its output discarded
  python3 - "$@" <<'PY'
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
print("%.3f" % (usage.ru_utime + usage.ru_stime))
PY
}
STEP="floor command"
floor_cmd=$("$WARPLINT" check "$IN" --print-clang-command | head -n 1)
[ -n "$floor_cmd" ] || fail "no clang command printed"
eval "set -- $floor_cmd"
shift
STEP="timing"
best_ratio=""
for attempt in 1 2 3; do
  w=$(cpu "$WARPLINT" check "$IN" --format json)
  f=$(cpu clang++-19 "$@")
  ratio=$(python3 -c "print('%.2f' % ($w / max($f, 0.05)))")
  echo "attempt $attempt: warplint ${w}s CPU, parse floor ${f}s CPU, ratio ${ratio}x"
  best_ratio=$(python3 -c "print(min(float('$ratio'), float('${best_ratio:-1e9}')))")
done
STEP="ratio"
# Bound 5x (issue 19's target is 3x a file; the best of three runs and a margin
# for a shared machine): before the sweep budget this file measured about 30x.
python3 -c "import sys; sys.exit(0 if $best_ratio <= 5.0 else 1)" || fail "ratio ${best_ratio}x above 5x"
# Both kernels are still analyzed and judged (the budget thins iterations, it
# skips no access).
STEP="findings"
run_warplint check "$IN" --format json
python3 - "$OUT" <<'PY' || fail "expected both kernels analyzed with findings"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])
kernels = d["units"][0]["kernels"]
assert kernels >= 2, kernels
assert len(d["findings"]) >= 2, d["findings"]
PY
echo PASS
