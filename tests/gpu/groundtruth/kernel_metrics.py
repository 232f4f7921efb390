#!/usr/bin/env python3
"""Replay of the issue-11 classes against recorded kernel-level ncu metrics.

    python3 tests/gpu/groundtruth/kernel_metrics.py WARPLINT [--ncu DIR] [--program wild_private]
    python3 tests/gpu/groundtruth/kernel_metrics.py WARPLINT --source FILE.cu --metrics FILE.csv

Reads DIR/PROGRAM.metrics.csv (one `ncu --metrics ... --csv` run over every
launch of tests/gpu/corpus/PROGRAM.cu, recorded by device_run.sh with
METRIC_PROGS), or any source and metrics CSV named (such as those
`NCU_OUT=DIR tests/gpu/advice/run.sh` records for examples/advice), runs
`WARPLINT check --format json` on the program and gives every kernel a
verdict per rule:

- private-array-local-memory: measured positive when the kernel moved local
  memory at all (l1tex__t_sectors_pipe_lsu_mem_local_op_{ld,st}.sum > 0);
  predicted positive when warplint reports the rule in that kernel.
- constant-divergent-access: measured positive when the constant cache served
  more requests than the kernel executed LDC warp instructions, by more than
  CONST_NOISE (idc__requests.sum against smsp__inst_executed_op_ldc.sum: an
  address uniform in the warp is one request; n distinct addresses are n).
  Uniform reads that ptxas turns into ULDC count in neither.

The shared-staging rules have no kernel-level measure recorded (the corpus
has no staging kernels and the L1 hit rate of global loads was not
collected), so they are not scored here.

Exit status 1 on any disagreement not listed in KNOWN_DISAGREEMENTS (with its
reason), or when a kernel the CSV names has no verdict.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CONST_NOISE = 0.05
LOCAL = ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum")
IDC = "idc__requests.sum"
LDC = "smsp__inst_executed_op_ldc.sum"
RULES = ("private-array-local-memory", "constant-divergent-access")
# (program, kernel, rule) -> why warplint and the counters disagree there and
# the disagreement is accepted for now. Empty: every kernel agrees today.
KNOWN_DISAGREEMENTS = {}


def read_metrics(path):
    """{kernel base name: {metric: float}} from an ncu --csv metrics export
    (the program's own output before the CSV header is skipped)."""
    with open(path) as fh:
        lines = fh.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        sys.exit("%s: no ncu CSV header" % path)
    kernels = {}
    for row in csv.DictReader(lines[start:]):
        name = row["Kernel Name"].split("(")[0].strip().split()[-1].split("<")[0]
        value = row["Metric Value"].replace(",", "")
        try:
            kernels.setdefault(name, {})[row["Metric Name"]] = float(value)
        except ValueError:
            continue
    return kernels


def measured(rule, m):
    """(positive, the numbers shown) for one kernel's metrics."""
    if rule == "private-array-local-memory":
        sectors = sum(m[k] for k in LOCAL)
        return sectors > 0, "%d local sectors" % sectors
    requests, ldc = m[IDC], m[LDC]
    ratio = requests / ldc if ldc else 0.0
    return ratio > 1 + CONST_NOISE, "%d constant-cache requests for %d LDC (%.2f a warp instruction)" % (
        requests, ldc, ratio)


def predicted(wl, source):
    r = subprocess.run([wl, "check", "--format", "json", "--rules", ",".join(RULES), source],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("warplint check failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    found = {}
    for f in json.loads(r.stdout)["findings"]:
        found.setdefault((f["kernel"], f["rule"]), []).append(f)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warplint")
    ap.add_argument("--ncu", default=os.path.join(HERE, "ncu-h100"))
    ap.add_argument("--program", default="wild_private")
    ap.add_argument("--source", help="the program's source (default tests/gpu/corpus/PROGRAM.cu)")
    ap.add_argument("--metrics", help="its ncu metrics CSV (default DIR/PROGRAM.metrics.csv)")
    args = ap.parse_args()
    metrics = read_metrics(args.metrics or os.path.join(args.ncu, args.program + ".metrics.csv"))
    source = args.source or os.path.join(ROOT, "tests", "gpu", "corpus", args.program + ".cu")
    if args.source:
        args.program = os.path.splitext(os.path.basename(args.source))[0]
    found = predicted(os.path.abspath(args.warplint), source)
    fails = []
    counts = {r: {"TP": 0, "FP": 0, "FN": 0, "TN": 0} for r in RULES}
    print("%s, per kernel (verdict from the recorded kernel-level counters):" % args.program)
    for kernel in sorted(metrics):
        for rule in RULES:
            m = metrics[kernel]
            if any(k not in m for k in LOCAL + (IDC, LDC)):
                fails.append("%s: metrics missing" % kernel)
                continue
            meas, numbers = measured(rule, m)
            pred = bool(found.get((kernel, rule)))
            verdict = {(True, True): "TP", (True, False): "FP", (False, True): "FN", (False, False): "TN"}[(pred, meas)]
            counts[rule][verdict] += 1
            note = ""
            if verdict in ("FP", "FN"):
                why = KNOWN_DISAGREEMENTS.get((args.program, kernel, rule))
                if why:
                    note = " (known: %s)" % why
                else:
                    fails.append("%s %s: %s" % (kernel, rule, "false positive" if verdict == "FP" else "missed"))
            word = {"TP": "agree", "TN": "agree", "FN": "missed", "FP": "false positive"}[verdict]
            print("  %-16s %-27s %-14s measured %s (%s)%s" % (kernel, rule, word, "POS" if meas else "NEG",
                                                               numbers, note))
    unknown = sorted({k for k, _ in found} - set(metrics))
    if unknown:
        fails.append("findings in kernels with no recorded metrics: " + ", ".join(unknown))
    for key, why in sorted(KNOWN_DISAGREEMENTS.items()):
        prog, kernel, rule = key
        if prog == args.program and kernel in metrics:
            meas, _ = measured(rule, metrics[kernel])
            if meas == bool(found.get((kernel, rule))):
                print("  note: known disagreement %s %s now agrees: drop it from KNOWN_DISAGREEMENTS" % (kernel, rule))
    print("\n| rule | TP | FP | FN | TN |")
    print("|---|---|---|---|---|")
    for rule in RULES:
        c = counts[rule]
        print("| %s | %d | %d | %d | %d |" % (rule, c["TP"], c["FP"], c["FN"], c["TN"]))
    for rule in RULES:
        c = counts[rule]
        if not args.source and (c["TP"] + c["FN"] == 0 or c["TN"] + c["FP"] == 0):
            fails.append("%s: the recorded kernels need a positive and a negative" % rule)
    print("kernel-metrics replay:", "ok" if not fails else "FAILED: " + "; ".join(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
