#!/usr/bin/env bash
# The SARIF report of the example files passes Microsoft's SARIF validator
# (`sarif-multitool validate`, npm @microsoft/sarif-multitool) with no error
# and no warning, and without the notes this project answers: code snippets
# (SARIF2010), context regions (SARIF2011) and rule friendly names (SARIF2012).
# Skipped when the validator is not installed (scripts/bootstrap.sh installs it
# where npm is present).
. "$(dirname "$0")/lib.sh"
set -e
ROOT=$(cd "$E2E_DIR/../.." && pwd)
if command -v sarif-multitool >/dev/null 2>&1; then
  VALIDATE=(sarif-multitool validate)
elif command -v npx >/dev/null 2>&1 && npx --no-install @microsoft/sarif-multitool --help >/dev/null 2>&1; then
  VALIDATE=(npx --no-install @microsoft/sarif-multitool validate)
else
  skip "sarif-multitool is not installed (npm install -g @microsoft/sarif-multitool)"
fi

cd "$ROOT"
STEP="report"
run_warplint check examples/*.cu --format sarif -o "$WORK/report.sarif"
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "warplint exit $RC"

STEP="validate"
# The validator's wrapper runs through a shell: the level list needs its own quotes.
set +e
"${VALIDATE[@]}" "$WORK/report.sarif" -o "$WORK/validation.sarif" --level '"Error;Warning;Note"' \
  --kind '"Fail"' >"$OUT" 2>&1
RC=$?
set -e
[ -s "$WORK/validation.sarif" ] || fail "validator wrote no log (exit $RC)"
python3 - "$WORK/validation.sarif" <<'PY' || fail "validation failed"
import collections, json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
results = run.get("results", [])
by_level = collections.Counter(r.get("level", "warning") for r in results)
notes = collections.Counter(r["ruleId"] for r in results if r.get("level") == "note")
print("validator results by level:", dict(by_level), "notes:", dict(notes))
for r in results:
    if r.get("level", "warning") in ("error", "warning"):
        print("  %s %s: %s" % (r.get("level", "warning"), r["ruleId"], r["message"].get("arguments")))
answered = {"SARIF2010", "SARIF2011", "SARIF2012"} & set(notes)
if answered:
    print("notes this project answers came back:", sorted(answered))
ok = by_level.get("error", 0) == 0 and by_level.get("warning", 0) == 0 and not answered
for e in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
    print("  validator:", e.get("message", {}).get("text"))
    ok = False
sys.exit(0 if ok else 1)
PY
echo PASS
