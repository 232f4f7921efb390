#!/usr/bin/env python3
"""Replay of the issue-11 classes against recorded kernel-level ncu metrics.

    python3 tests/gpu/groundtruth/kernel_metrics.py WARPLINT [--ncu DIR] [--program P ...]
    python3 tests/gpu/groundtruth/kernel_metrics.py WARPLINT --source FILE.cu --metrics FILE.csv [--twin FILE]

Reads DIR/PROGRAM.metrics.csv (one `ncu --metrics ... --csv` run over every
launch of tests/gpu/corpus/PROGRAM.cu, recorded by device_run.sh with
METRIC_PROGS; default programs wild_private and wild_staging), and
DIR/PROGRAM.private_twin.txt where it exists (the output checks of the same
program built with -DPRIVATE_TWIN, device_run.sh TWIN_PROGS), or any source
and metrics CSV named (such as those `NCU_OUT=DIR tests/gpu/advice/run.sh`
records for examples/advice), runs `WARPLINT check --format json` on the
program and gives every kernel a verdict for every rule its recording can
decide:

- private-array-local-memory: measured positive when the kernel moved local
  memory at all (l1tex__t_sectors_pipe_lsu_mem_local_op_{ld,st}.sum > 0);
  predicted positive when warplint reports the rule in that kernel.
- constant-divergent-access: measured positive when the constant cache served
  more requests than the kernel executed LDC warp instructions, by more than
  CONST_NOISE (idc__requests.sum against smsp__inst_executed_op_ldc.sum: an
  address uniform in the warp is one request; n distinct addresses are n).
  Uniform reads that ptxas turns into ULDC count in neither.
- shared-staging-candidate: measured positive when the L1 served at least
  REUSE_HIT_RATE (2/3) of the global-load sectors the kernel asked for
  (l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum over
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum): each sector fetched was
  asked for at least 3 times, the rule's own minimum of warp requests per
  element. ncu flushes the caches before the kernel, and wild_staging
  launches at most 128 blocks on the H100's 132 SMs, so every hit is a repeat
  within one block (sm__ctas_launched.max must be 1 where it was recorded).
  The counters measure repeats per sector, not per element, and by any warp:
  a thread walking its own consecutive elements hits the sector it fetched
  (KNOWN_DISAGREEMENTS says where that decides). What a tile would gain is
  not measured here (tests/gpu/staging: 1.5x for a matrix multiply, 0.96x
  for a stencil the L1 serves), which is why the rule is a note on the H100.
- shared-staging-no-reuse: measured positive when the kernel stores to shared
  memory (smsp__inst_executed_op_shared_st.sum > 0) and its private twin,
  the same source with every __shared__ array thread-private, still gives the
  right output on the GPU: no thread needed a value another thread stored.
  No counter says which thread wrote a shared word, and timing a register
  version does not decide either (ycbcr's register version measured 0.98x,
  the staged stencil, which does share data, 0.96x of the unstaged one), so
  the twin's output is the measurement; the twin's timings are recorded
  beside it (PROGRAM.timing.txt, PROGRAM.twin_timing.txt).

A rule is scored on a program only when its metrics (and for no-reuse the
twin) were recorded: wild_private has no staging metrics.

Exit status 1 on any disagreement not listed in KNOWN_DISAGREEMENTS (with its
reason), when a kernel the CSV names has no verdict, or when a rule scored
lacks a measured positive or negative over the programs.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PROGRAMS = ("wild_private", "wild_staging")
CONST_NOISE = 0.05
REUSE_HIT_RATE = 2.0 / 3
LOCAL = ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum")
IDC = "idc__requests.sum"
LDC = "smsp__inst_executed_op_ldc.sum"
GLD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
GLD_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
L2_READ = "lts__t_sectors_srcunit_tex_op_read.sum"
CTAS_MAX = "sm__ctas_launched.max"
SHARED_ST = "smsp__inst_executed_op_shared_st.sum"
SHARED_LD = "smsp__inst_executed_op_shared_ld.sum"
# The metrics each rule's verdict needs (no-reuse needs the twin too).
NEEDS = {
    "private-array-local-memory": LOCAL,
    "constant-divergent-access": (IDC, LDC),
    "shared-staging-candidate": (GLD, GLD_HIT, L2_READ),
    "shared-staging-no-reuse": (SHARED_ST, SHARED_LD),
}
RULES = tuple(NEEDS)
# (program, kernel, rule) -> why warplint and the counters disagree there and
# the disagreement is accepted for now.
KNOWN_DISAGREEMENTS = {
    ("wild_staging", "segmentSums", "shared-staging-candidate"):
        "criterion, not warplint: each thread walks its own 32 floats, so 7 of every 8 sector lookups hit "
        "the sector that thread fetched (87.5%) while no element is read by two threads, as warplint says; "
        "the L1 counts repeats per sector, not per element or thread",
}


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


def read_twin(path):
    """{kernel: True when its output was right} from the private twin's run
    (`ok NAME` / `MISMATCH NAME ...` lines of wild.cuh's expect())."""
    if not path or not os.path.exists(path):
        return None
    twin = {}
    with open(path) as fh:
        for line in fh:
            words = line.split()
            if len(words) >= 2 and words[0] in ("ok", "MISMATCH"):
                twin[words[1]] = words[0] == "ok"
    return twin


def measured(rule, m, twin_ok):
    """(positive, the numbers shown) for one kernel's metrics."""
    if rule == "private-array-local-memory":
        sectors = sum(m[k] for k in LOCAL)
        return sectors > 0, "%d local sectors" % sectors
    if rule == "constant-divergent-access":
        requests, ldc = m[IDC], m[LDC]
        ratio = requests / ldc if ldc else 0.0
        return ratio > 1 + CONST_NOISE, "%d constant-cache requests for %d LDC (%.2f a warp instruction)" % (
            requests, ldc, ratio)
    if rule == "shared-staging-candidate":
        sectors = m[GLD]
        hit = m[GLD_HIT] / sectors if sectors else 0.0
        per_fetch = sectors / m[L2_READ] if m[L2_READ] else 0.0
        return hit >= REUSE_HIT_RATE, "L1 hit %.1f%% of %d global-load sectors, %.2f a sector read from L2" % (
            100 * hit, sectors, per_fetch)
    stores = m[SHARED_ST]
    return stores > 0 and twin_ok, "%d shared stores, %d loads; private twin %s" % (
        stores, m[SHARED_LD], "right" if twin_ok else "wrong" if twin_ok is False else "not run")


def predicted(wl, source):
    r = subprocess.run([wl, "check", "--format", "json", "--rules", ",".join(RULES), source],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("warplint check failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    found = {}
    for f in json.loads(r.stdout)["findings"]:
        found.setdefault((f["kernel"], f["rule"]), []).append(f)
    return found


def replay(wl, program, source, metrics, twin, counts, fails):
    """Prints one program's verdicts, adds them to counts, failures to fails."""
    found = predicted(wl, source)
    scored = [r for r in RULES if all(k in m for m in metrics.values() for k in NEEDS[r])
              and (r != "shared-staging-no-reuse" or twin is not None)]
    print("%s, per kernel (verdict from the recorded kernel-level counters; rules scored: %s):" % (
        program, ", ".join(scored)))
    for kernel in sorted(metrics):
        m = metrics[kernel]
        if "shared-staging-candidate" in scored and m.get(CTAS_MAX, 1) > 1:
            fails.append("%s: %d blocks on one SM, the L1 hits are not one block's" % (kernel, m[CTAS_MAX]))
        for rule in scored:
            twin_ok = twin.get(kernel) if twin is not None else None
            if rule == "shared-staging-no-reuse" and twin_ok is None:
                fails.append("%s: no private-twin result" % kernel)
                continue
            meas, numbers = measured(rule, m, twin_ok)
            pred = bool(found.get((kernel, rule)))
            verdict = {(True, True): "TP", (True, False): "FP", (False, True): "FN", (False, False): "TN"}[(pred, meas)]
            counts[rule][verdict] += 1
            note = ""
            if verdict in ("FP", "FN"):
                why = KNOWN_DISAGREEMENTS.get((program, kernel, rule))
                if why:
                    note = " (known: %s)" % why
                else:
                    fails.append("%s %s %s: %s" % (program, kernel, rule,
                                                   "false positive" if verdict == "FP" else "missed"))
            word = {"TP": "agree", "TN": "agree", "FN": "missed", "FP": "false positive"}[verdict]
            print("  %-18s %-27s %-14s measured %s (%s)%s" % (kernel, rule, word, "POS" if meas else "NEG",
                                                               numbers, note))
    unknown = sorted({k for k, r in found if r in scored} - set(metrics))
    if unknown:
        fails.append("findings in kernels with no recorded metrics: " + ", ".join(unknown))
    for (prog, kernel, rule), why in sorted(KNOWN_DISAGREEMENTS.items()):
        if prog == program and kernel in metrics and rule in scored:
            meas, _ = measured(rule, metrics[kernel], twin.get(kernel) if twin else None)
            if meas == bool(found.get((kernel, rule))):
                print("  note: known disagreement %s %s now agrees: drop it from KNOWN_DISAGREEMENTS" % (kernel, rule))
    return scored


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warplint")
    ap.add_argument("--ncu", default=os.path.join(HERE, "ncu-h100"))
    ap.add_argument("--program", action="append", help="corpus programs (default: %s)" % ", ".join(PROGRAMS))
    ap.add_argument("--source", help="one program's source, outside the corpus")
    ap.add_argument("--metrics", help="its ncu metrics CSV (with --source)")
    ap.add_argument("--twin", help="its private twin's output (with --source)")
    args = ap.parse_args()
    wl = os.path.abspath(args.warplint)
    if args.source:
        if not args.metrics:
            sys.exit("--source needs --metrics")
        runs = [(os.path.splitext(os.path.basename(args.source))[0], args.source, args.metrics, args.twin)]
    else:
        runs = [(p, os.path.join(ROOT, "tests", "gpu", "corpus", p + ".cu"),
                 os.path.join(args.ncu, p + ".metrics.csv"), os.path.join(args.ncu, p + ".private_twin.txt"))
                for p in (args.program or PROGRAMS)]
    fails = []
    counts = {r: {"TP": 0, "FP": 0, "FN": 0, "TN": 0} for r in RULES}
    scored = set()
    for program, source, metrics_csv, twin_txt in runs:
        scored |= set(replay(wl, program, source, read_metrics(metrics_csv), read_twin(twin_txt), counts, fails))
        print()
    print("| rule | TP | FP | FN | TN |")
    print("|---|---|---|---|---|")
    for rule in RULES:
        if rule in scored:
            c = counts[rule]
            print("| %s | %d | %d | %d | %d |" % (rule, c["TP"], c["FP"], c["FN"], c["TN"]))
    for rule in sorted(scored):
        c = counts[rule]
        if not args.source and (c["TP"] + c["FN"] == 0 or c["TN"] + c["FP"] == 0):
            fails.append("%s: the recorded kernels need a positive and a negative" % rule)
    print("kernel-metrics replay:", "ok" if not fails else "FAILED: " + "; ".join(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
