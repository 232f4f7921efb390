#!/usr/bin/env python3
"""Predicted against measured kernel speedups of fixes (issue 18), replayed
without a GPU: warplint's cost model is run on each pair's "before" source and
its prediction for the change the pair applies is compared with the kernel-time
ratio ncu recorded on the H100 (tests/gpu/gains/h100/).

Pairs: tests/gpu/gains/examples.json (every before/after pair in examples/,
analyzed live) and tests/gpu/gains/real.json (fixes of public programs: analyzed
live when their staged sources are present in .realprogs/, else from the
predictions recorded beside them by --record-real).

A pair agrees when the prediction is within 15% of the measured speedup; a
verdict is swapped when the measured gain is clearly above 1.3x or below 1.06x
and the prediction lies on the other side of 1.10x. The model's bottleneck is
compared with ncu's dominant throughput (the SM as a whole, shared, l1, l2,
dram) per kernel, at the seed's three parts of the machine (UNIT), or as
latency-bound on both sides (no unit at 60% of peak: LATENCY_BOUND_PCT).

Exit status 1 when a verdict is swapped (a fix worth doing called not worth it,
or the reverse), when the within-15% share falls below --min-within (default
the floor recorded in README.md), or when bottlenecks agree on fewer kernels
than --min-bottleneck.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "driver", "verify"))
import ncu_kernels  # noqa: E402
# The verify mode's definitions: ncu's components and how its dominant one is
# named, the 15% band and the 1.10x line.
from before_after import THRESHOLD, WITHIN, component_row, dominant  # noqa: E402

# The native stage (--ptxas; the recorded floors are for off, as ctest pins
# WARPLINT_PTXAS=off): set by --ptxas and --nvdisasm.
NATIVE = {"ptxas": None, "env": None}


def analyze(warplint, source, extra, cache):
    key = (source, tuple(extra))
    if key not in cache:
        cmd = [warplint, "check", source, "--format", "json", "--quiet"] + extra
        if NATIVE["ptxas"]:
            cmd += ["--ptxas", NATIVE["ptxas"]]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                             env=NATIVE["env"])
        if out.returncode not in (0, 1):
            raise SystemExit("warplint failed on %s: %s" % (source, out.stderr[-2000:]))
        cache[key] = json.loads(out.stdout)
    return cache[key]


def cost_of(report, kernel):
    for unit in report.get("units", []):
        for c in unit.get("costs", []):
            name = c.get("kernel", "")
            if name == kernel or name.split("<")[0] == kernel:
                return c
    return None


def prediction(cost, applied):
    """The model's speedup for the change a pair applies: the one rule's
    findings together, or every finding's change for several rules."""
    if not cost or "time_us" not in cost:
        return None, (cost or {}).get("not_computed", "no cost block")
    rules = cost.get("rule_speedups", {})
    if len(applied) == 1:
        if applied[0] in rules:
            return rules[applied[0]], ""
        return None, "no %s finding priced in the kernel" % applied[0]
    if applied and all(r in rules for r in applied):
        return cost.get("all_findings_speedup"), ""
    return None, "not every applied rule has a priced finding"


# ncu's throughput of the SM as a whole (its Speed-of-Light "Compute (SM)"):
# the busiest of the SM's units, the issue slots, the pipes (FMA, ALU, the
# narrower MUFU and FP64 ones) and the constant cache (IDC) among them.
SM_THROUGHPUT = "sm__throughput.avg.pct_of_peak_sustained_elapsed"


def ncu_throughputs(csv, kernel):
    """ncu's % of peak of each component of `kernel` in `csv` ({} when absent),
    and of the SM as a whole ("sm")."""
    if not csv or not os.path.exists(os.path.join(ROOT, csv)):
        return {}
    stats = ncu_kernels.read_kernels(os.path.join(ROOT, csv)).get(kernel)
    if not stats:
        return {}
    vals = {c: 100 * v for c, v in component_row(stats).items() if v is not None}
    sm = stats.weighted_mean(SM_THROUGHPUT)
    if sm is not None:
        vals["sm"] = sm
    return vals


def ncu_dominant(csv, kernel):
    """ncu's dominant unit: the SM (sm__throughput, which covers the issue
    slots, the pipes and the constant cache), L1TEX (shared when its wavefronts
    are most of it) or L2/DRAM. Issue alone (sm__inst_issued) misses an SM
    bound elsewhere: a divergent constant-table read keeps the constant cache
    at 96% of peak with the issue slots at 4% (examples/advice/lut_before.cu)."""
    vals = ncu_throughputs(csv, kernel)
    if not vals:
        return None
    if "sm" in vals:
        vals = {("sm" if c == "issue" else c): (vals["sm"] if c == "issue" else v)
                for c, v in vals.items() if c != "sm"}
    return dominant(vals, ncu_side=True)


# The seed's three parts of the machine, which the bottleneck is compared at:
# the SM (the instruction pipeline, and the constant cache the model prices
# apart: both inside the SM, which ncu's sm__throughput covers), the L1TEX
# unit (shared wavefronts and global lines pass one data pipe, which ncu's
# l1tex__throughput covers) and the memory hierarchy beyond it (L2 and DRAM:
# every DRAM byte crosses L2).
UNIT = {"issue": "sm", "constant": "sm", "sm": "sm", "shared": "l1tex", "l1": "l1tex",
        "l2": "memory", "dram": "memory"}

# A kernel no part of which is busy is latency-bound, on both sides alike:
# ncu's Speed-of-Light rule says "achieved compute throughput and/or memory
# bandwidth below 60.0% of peak typically indicate latency issues", and the
# model's cost block says latency_bound when none of its three parts is above
# the same share of its peak (analyzer/cost/KernelCostModel.h,
# kLatencyBoundShare). Such a kernel's busiest unit is not its bottleneck.
LATENCY_BOUND_PCT = 60.0


def ncu_category(csv, kernel):
    """'latency' when no unit of ncu's is at 60% of peak, else the part of the
    machine (UNIT) of its dominant throughput."""
    vals = ncu_throughputs(csv, kernel)
    top = ncu_dominant(csv, kernel)
    if not vals or not top:
        return None
    return "latency" if max(vals.values()) < LATENCY_BOUND_PCT else UNIT.get(top)


def model_instructions(cost):
    """The warp instructions the model counts for one launch (its issue basis
    is per SM over the kernel), and their source: "SASS" or "AST"."""
    if not cost:
        return None
    basis = (cost.get("basis") or {}).get("issue", "")
    m = re.match(r"([0-9.e+]+) warp instructions an SM( \((SASS|AST estimate)\))?", basis)
    per_sm, grid = cost.get("blocks_per_sm_work"), cost.get("grid_blocks")
    if not m or not per_sm or not grid:
        return None
    return {"per_launch": float(m.group(1)) / per_sm * grid, "per_block": float(m.group(1)) / per_sm,
            "source": "SASS" if m.group(3) == "SASS" else "AST"}


def ncu_instructions(csv, kernel):
    """ncu's sm__inst_executed.sum, the mean over the kernel's launches, and
    per block (the sum over its launches over their blocks: a launch's count
    compares only at the same grid, and a kernel the program launches at two
    grids, or whose grid the model assumes, compares per block)."""
    if not csv or not os.path.exists(os.path.join(ROOT, csv)):
        return None, None
    stats = ncu_kernels.read_kernels(os.path.join(ROOT, csv)).get(kernel)
    if not stats:
        return None, None
    inst = [(l.metrics.get("sm__inst_executed.sum"), l.grid) for l in stats.launches]
    inst = [(v, g[0] * g[1] * g[2]) for v, g in inst if v is not None and g]
    per_block = sum(v for v, _ in inst) / sum(b for _, b in inst) if inst else None
    return stats.mean("sm__inst_executed.sum"), per_block


def model_category(bottleneck, latency_bound):
    return "latency" if latency_bound else UNIT.get(bottleneck)


def verdicts(pred, meas):
    within = abs(pred / meas - 1) <= WITHIN
    # The swap: a gain clearly worth it (or clearly not) called the other.
    swapped = (meas > 1.3 and pred < THRESHOLD) or (meas < 1.06 and pred > THRESHOLD)
    return within, swapped


def load(path):
    p = os.path.join(HERE, path)
    return json.load(open(p)) if os.path.exists(p) else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("warplint")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--record-real", action="store_true",
                    help="analyze the staged real programs and record their predictions in real_predictions.json")
    ap.add_argument("--min-within", type=float, default=None,
                    help="least share of pairs within 15%% (default: the recorded floor)")
    ap.add_argument("--min-bottleneck", type=float, default=None)
    ap.add_argument("--components", action="store_true", help="also print each kernel's component shares beside ncu's")
    ap.add_argument("--ptxas", choices=["off", "auto", "on"],
                    help="run warplint with this --ptxas mode (default: the environment's WARPLINT_PTXAS; ctest "
                         "pins off). 'on' compiles every pair's file with the toolkit's nvcc")
    ap.add_argument("--nvdisasm", metavar="PATH",
                    help="the disassembler the native stage reads the cubin's SASS with ($WARPLINT_NVDISASM; 'off': "
                         "none, the AST instruction estimate)")
    ap.add_argument("--cache-dir", metavar="DIR", help="the native stage's cache ($WARPLINT_CACHE_DIR)")
    ap.add_argument("--instructions", action="store_true",
                    help="also print each kernel's predicted warp instructions (per launch) beside ncu's "
                         "sm__inst_executed, and which count the model used (SASS or AST estimate)")
    args = ap.parse_args()
    if args.ptxas or args.nvdisasm or args.cache_dir:
        env = dict(os.environ)
        if args.ptxas:
            NATIVE["ptxas"] = args.ptxas
            env["WARPLINT_PTXAS"] = args.ptxas
        if args.nvdisasm:
            env["WARPLINT_NVDISASM"] = args.nvdisasm
        if args.cache_dir:
            env["WARPLINT_CACHE_DIR"] = args.cache_dir
        NATIVE["env"] = env
    floors = json.load(open(os.path.join(HERE, "floors.json"))) if os.path.exists(os.path.join(HERE, "floors.json")) else {}
    min_within = args.min_within if args.min_within is not None else floors.get("within_15", 0.0)
    min_bottleneck = args.min_bottleneck if args.min_bottleneck is not None else floors.get("bottleneck", 0.0)

    cache, rows, bottlenecks = {}, [], []
    recorded = {r["pair"]: r for r in load("real_predictions.json")}
    new_recorded = []
    for group, pairs in (("examples", load("examples.json")), ("real", load("real.json"))):
        for p in pairs:
            if p.get("scored") is False:
                continue  # not a finding's change (examples.json says why)
            applied = [a["rule"] if isinstance(a, dict) else a for a in p.get("applied", [])]
            applied = sorted(set(applied))
            # Two-file pairs name one kernel on both sides (or several: each
            # is scored); a case study's pair is [before kernel, after kernel].
            kernels = p["kernels"] if group == "real" else p["kernels"][:1]
            live = group == "examples" or bool(p.get("staged_source") and
                                                os.path.exists(os.path.join(ROOT, p["staged_source"])))
            report = None
            if live:
                src = p["source"] if group == "examples" else p["staged_source"]
                report = analyze(args.warplint, src, p.get("warplint_flags", []), cache)
            for kernel in kernels:
                meas = p.get("measured_speedup")
                if isinstance(meas, dict):
                    meas = meas.get(kernel)
                if meas is None:
                    continue
                label = p["pair"] if len(kernels) == 1 else "%s:%s" % (p["pair"], kernel)
                pred, why, model_bottleneck, cost, latency_bound = None, "", None, None, False
                if report is not None:
                    cost = cost_of(report, kernel)
                    pred, why = prediction(cost, applied)
                    model_bottleneck = cost.get("bottleneck") if cost else None
                    latency_bound = bool(cost and cost.get("latency_bound"))
                    if group == "real" and args.record_real:
                        new_recorded.append({"pair": label, "predicted": pred, "why": why,
                                             "bottleneck": model_bottleneck, "cost": cost})
                elif label in recorded:
                    r = recorded[label]
                    pred, why, model_bottleneck = r.get("predicted"), r.get("why", ""), r.get("bottleneck")
                    latency_bound = bool((r.get("cost") or {}).get("latency_bound"))
                    why = why or "recorded prediction"
                else:
                    why = "sources not staged and no recorded prediction"
                row = {"group": group, "pair": label, "kernel": kernel, "applied": applied,
                       "measured": meas, "predicted": pred, "why": why, "live": live}
                if pred and meas:
                    row["within_15"], row["swapped"] = verdicts(pred, meas)
                ncu_top = ncu_dominant(p.get("before_csv"), kernel)
                if model_bottleneck and ncu_top:
                    row["model_bottleneck"], row["ncu_dominant"] = model_bottleneck, ncu_top
                    row["model_part"] = model_category(model_bottleneck, latency_bound)
                    row["ncu_part"] = ncu_category(p.get("before_csv"), kernel)
                    bottlenecks.append(row["model_part"] == row["ncu_part"])
                row["model_instructions"] = model_instructions(cost)
                row["ncu_instructions"], row["ncu_instructions_per_block"] = ncu_instructions(p.get("before_csv"), kernel)
                row["model_fractions"] = (cost or {}).get("fractions", {})
                row["model_peak_shares"] = (cost or {}).get("peak_shares", {})
                row["ncu_pct"] = ncu_throughputs(p.get("before_csv"), kernel)
                rows.append(row)

    if args.record_real:
        with open(os.path.join(HERE, "real_predictions.json"), "w") as fh:
            json.dump(new_recorded, fh, indent=1)
            fh.write("\n")

    print("%-8s %-24s %-28s %9s %9s %7s %s" % ("group", "pair", "kernel", "measured", "predicted", "within", "bottleneck model/ncu"))
    for r in rows:
        m = "%.2fx" % r["measured"] if r["measured"] else "-"
        pr = "%.2fx" % r["predicted"] if r["predicted"] else "-"
        w = ("yes" if r.get("within_15") else "no") + (" SWAP" if r.get("swapped") else "") if "within_15" in r else "-"
        b = "-"
        if "ncu_dominant" in r:
            lat = lambda part, unit: "latency(%s)" % unit if part == "latency" else unit
            b = "%s/%s%s" % (lat(r["model_part"], r["model_bottleneck"]), lat(r["ncu_part"], r["ncu_dominant"]),
                             "" if r["model_part"] == r["ncu_part"] else "  MISS")
        print("%-8s %-24s %-28s %9s %9s %7s %s%s" % (r["group"], r["pair"], r["kernel"][:28], m, pr, w, b,
                                                   "" if r["predicted"] else "  (" + r["why"] + ")"))
    if args.components:
        print("\nper kernel as written: the model's share of each component | ncu's % of peak")
        for r in rows:
            mf, nc = r.get("model_fractions") or {}, r.get("ncu_pct") or {}
            print("%-24s %s | %s" % (r["pair"], " ".join("%s %3.0f" % (c, 100 * mf.get(c, 0)) for c in
                                                          ("issue", "shared", "l1", "l2", "dram", "constant")),
                                    " ".join("%s %3.0f" % (c, nc.get(c, 0)) for c in ("issue", "sm", "shared", "l1", "l2", "dram"))))
        print("\nper kernel as written: the model's % of peak of each part | ncu's busiest % of peak")
        for r in rows:
            ps, nc = r.get("model_peak_shares") or {}, r.get("ncu_pct") or {}
            print("%-24s %s | %3.0f" % (r["pair"], " ".join("%s %3.0f" % (c, 100 * ps.get(c, 0)) for c in
                                                          ("sm", "l1tex", "memory")), max(nc.values()) if nc else 0))
    if args.instructions:
        print("\nwarp instructions a block as written: the model's (its source) | ncu's sm__inst_executed over the "
              "launches' blocks | ratio")
        ratios = {}
        for r in rows:
            mi, ni = r.get("model_instructions"), r.get("ncu_instructions_per_block")
            if not mi or not ni:
                continue
            ratio = mi["per_block"] / ni
            ratios.setdefault(mi["source"], []).append(ratio)
            print("%-40s %10.4g (%s) | %10.4g | %.2f" % (r["pair"][:40], mi["per_block"], mi["source"], ni, ratio))
        for src, rs in sorted(ratios.items()):
            rs = sorted(rs)
            within = sum(1 for x in rs if abs(x - 1) <= 0.25)
            print("%s: %d kernels, median model/ncu %.2f, within 25%%: %d" % (src, len(rs), rs[len(rs) // 2], within))
    priced = [r for r in rows if "within_15" in r]
    within = sum(r["within_15"] for r in priced)
    swapped = [r["pair"] for r in priced if r["swapped"]]
    share = within / len(priced) if priced else 0.0
    agree = sum(bottlenecks) / len(bottlenecks) if bottlenecks else 0.0
    print("\npairs priced: %d of %d; within 15%%: %d (%.0f%%); swapped verdicts: %d %s" %
          (len(priced), len(rows), within, 100 * share, len(swapped), swapped))
    print("bottleneck agrees with ncu's (SM | L1TEX | L2+DRAM | latency: no unit at %.0f%% of peak): %d of %d kernels (%.0f%%)" %
          (LATENCY_BOUND_PCT, sum(bottlenecks), len(bottlenecks), 100 * agree))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    fail = []
    if swapped:
        fail.append("swapped verdicts: %s" % swapped)
    if share + 1e-9 < min_within:
        fail.append("within-15%% share %.2f below the floor %.2f" % (share, min_within))
    if agree + 1e-9 < min_bottleneck:
        fail.append("bottleneck agreement %.2f below the floor %.2f" % (agree, min_bottleneck))
    for f in fail:
        print("FAIL: " + f)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
