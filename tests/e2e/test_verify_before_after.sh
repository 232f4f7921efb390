#!/usr/bin/env bash
# `warplint verify --before-after --csv-dir`: replays ncu CSVs recorded on an
# H100 (tests/gpu/gains/h100/examples) without a GPU, and checks what it
# reports against the CSVs and against `warplint check`'s own JSON:
# - two programs: examples/rewrites/transpose_{before,after} (5 launches each);
#   the per-launch means, the measured speedup, the dominant ncu component on
#   each side (shared before the padding, dram after), the prediction equal to
#   check's all_fixes_speedup (or --finding's product) or "no prediction" when
#   check gives none, and an exit status that follows the verdicts;
# - kernel pairs of one program: examples/case_aat_transpose.cu;
# - usage errors: a missing CSV, nothing to pair, a malformed --pair.
. "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"
ROOT=$(cd "$E2E_DIR/../.." && pwd)
REC="$ROOT/tests/gpu/gains/h100/examples"
SRC="$ROOT/examples/rewrites/transpose_before.cu"
command -v python3 >/dev/null || skip "python3 not found"

mkdir -p pair one
cp "$REC/transpose_before.ncu.csv" pair/before.ncu.csv
cp "$REC/transpose_after.ncu.csv" pair/after.ncu.csv
cp "$REC/aat_transpose.ncu.csv" one/before.ncu.csv

STEP="check's own predictions for the source"
"$WARPLINT" check --format json "$SRC" >check.json || [ $? -eq 1 ] || fail "check failed"

STEP="two programs, JSON"
run_warplint verify --before-after --csv-dir pair --format json "$SRC"
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "exit $RC"
cp "$OUT" two.json
python3 - "$RC" two.json check.json <<'EOF' || fail "two-program replay"
import json, sys
rc, res, chk = int(sys.argv[1]), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
def need(c, what):
    if not c:
        sys.exit("not so: " + what)
need(res["mode"] == "before-after", "mode")
need(len(res["pairs"]) == 1, "one kernel pair, got %d" % len(res["pairs"]))
p = res["pairs"][0]
need(p["before_kernel"] == p["after_kernel"] == "transposeTile", "kernel transposeTile")
need(p["launches"] == [5, 5], "5 launches each, got %s" % p["launches"])
# the CSVs: 332,730 and 185,715 ns a launch on average
need(abs(p["before_ms"] - 0.33273) < 5e-5 and abs(p["after_ms"] - 0.18572) < 5e-5,
     "per-launch means %s / %s" % (p["before_ms"], p["after_ms"]))
need(abs(p["measured_speedup"] - 1.7916) < 0.001, "measured %s" % p["measured_speedup"])
costs = [c for u in chk.get("units", []) for c in (u.get("costs") or []) if c.get("kernel") == "transposeTile"]
want = costs[0].get("all_fixes_speedup") if costs else None
if isinstance(want, (int, float)):
    need(abs(p["predicted_speedup"] - want) < 1e-9, "predicted %s, check says %s" % (p["predicted_speedup"], want))
    v = p["verdict"]
    within = abs(want / p["measured_speedup"] - 1) <= 0.15
    side = (want >= 1.10) == (p["measured_speedup"] >= 1.10)
    need(v == {"within_15pct": within, "same_side_of_1.10x": side, "agree": within and side}, "verdict %s" % v)
    need(rc == (0 if within and side else 1), "exit %d for verdict %s" % (rc, v))
else:
    need(p["predicted_speedup"] is None and p["verdict"] is None, "no prediction expected")
    need(p["prediction_source"].startswith("no prediction"), p["prediction_source"])
    need(rc == 0, "exit %d without a prediction" % rc)
comp = {c["side"]: c for c in res["components"]}
need(set(comp) == {"before", "after"}, "component rows for both sides")
# ncu: shared pipe 81.7% of peak (l1tex 86.7%) before; dram 83% after
need(comp["before"]["ncu_dominant"] == "shared", "before dominant %s" % comp["before"]["ncu_dominant"])
need(comp["after"]["ncu_dominant"] == "dram", "after dominant %s" % comp["after"]["ncu_dominant"])
need(abs(comp["before"]["ncu"]["shared"] - 0.8169) < 0.002, "shared fraction %s" % comp["before"]["ncu"]["shared"])
need(comp["after"]["model"] is None, "no model for the after program without --after-source")
need(res["summary"]["measured"] == 1, "summary")
EOF

STEP="two programs, --finding"
run_warplint verify --before-after --csv-dir pair --format json --finding shared-bank-conflict "$SRC"
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "exit $RC"
python3 - "$OUT" check.json <<'EOF' || fail "--finding prediction"
import json, sys
res, chk = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
vals = [f["details"].get("predicted_kernel_speedup") for f in chk["findings"]
        if f["rule"] == "shared-bank-conflict" and f.get("kernel") == "transposeTile"]
vals = [v for v in vals if isinstance(v, (int, float))]
p = res["pairs"][0]
if vals:
    prod = 1.0
    for v in vals:
        prod *= v
    assert abs(p["predicted_speedup"] - prod) < 1e-9, (p["predicted_speedup"], prod)
else:
    assert p["predicted_speedup"] is None, p
assert res["prediction"] == "findings: shared-bank-conflict", res["prediction"]
EOF

STEP="two programs, text"
run_warplint verify --before-after --csv-dir pair "$SRC"
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "exit $RC"
expect_output "transposeTile"
expect_output "5/5"
expect_output "1.79x"
expect_output "model component shares"

STEP="kernel pairs of one program"
run_warplint verify --before-after --csv-dir one --format json \
  --pair aatNaive:aatTiled --pair aatTiled:aatTiledPadded "$ROOT/examples/case_aat_transpose.cu"
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "exit $RC"
python3 - "$OUT" <<'EOF' || fail "kernel pairs"
import json, sys
res = json.load(open(sys.argv[1]))
got = [(p["before_kernel"], p["after_kernel"], p["launches"], round(p["measured_speedup"], 2)) for p in res["pairs"]]
assert got == [("aatNaive", "aatTiled", [16, 16], 5.01), ("aatTiled", "aatTiledPadded", [16, 16], 2.05)], got
assert list(res["csv"]) == ["before"], res["csv"]
EOF

STEP="usage errors"
run_warplint verify --before-after --csv-dir one "$SRC"
expect_rc 2
expect_output "--pair BEFORE:AFTER"
mkdir -p empty
run_warplint verify --before-after --csv-dir empty --pair a:b "$SRC"
expect_rc 2
expect_output "before.ncu.csv not found"
run_warplint verify --before-after --csv-dir one --pair aatNaive "$SRC"
expect_rc 2
expect_output "--pair takes BEFORE_KERNEL:AFTER_KERNEL"
run_warplint verify --before-after --csv-dir one --pair nosuch:kernel "$ROOT/examples/case_aat_transpose.cu"
expect_rc 2
expect_output "no kernel pair was measured"

echo PASS
