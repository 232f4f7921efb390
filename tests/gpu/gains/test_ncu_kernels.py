#!/usr/bin/env python3
"""Tests of driver/verify/ncu_kernels.py, the ncu raw-page CSV parser (no GPU).

1. fixtures/raw_small.ncu.csv, hand-written in ncu's raw-page layout with
   invented values: ncu's "==" lines and a program line around the table, a
   unit row, dynamic units (usecond, Mbyte, cycle/nsecond), thousands
   separators, "n/a", a non-numeric metric, a templated kernel name, one
   kernel at two grid sizes, a row after "==PROF== Disconnected" and a
   truncated row.
2. fixtures/details_small.ncu.csv: the long layout (one row a metric).
3. The recorded H100 CSVs of tests/gpu/gains/h100/examples: launch counts
   and per-launch means of a few kernels, recomputed here from the columns.
4. ncu_kernels.METRICS equals tests/gpu/gains/ncu_metrics.txt.
Exit 0 when every check holds, 1 otherwise.
"""
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "driver", "verify"))
import ncu_kernels as nk  # noqa: E402

fails = []


def check(what, cond):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-30)


# 1. the raw layout
launches = nk.read_csv(os.path.join(HERE, "fixtures", "raw_small.ncu.csv"))
check("raw: 4 launches (program line, == lines and the truncated row skipped)", len(launches) == 4)
check("raw: ids in file order", [l.id for l in launches] == [0, 1, 2, 3])
check("raw: kernel base names", [l.kernel for l in launches] == ["stepA", "stepB", "stepA", "stepA"])
check("raw: full name kept", launches[1].name == "void ns::stepB<int, 2>(const float *, float *, int)")
check("raw: usecond -> ns", close(launches[0].duration_ns, 10000.0) and close(launches[1].duration_ns, 3250.0))
check("raw: Mbyte with a separator -> bytes", close(launches[1].get("dram__bytes.sum"), 2048e6))
check("raw: cycle/nsecond -> per second",
      close(launches[0].get("sm__cycles_elapsed.avg.per_second"), 1.98e9))
check("raw: thousands separators", close(launches[1].get("sm__inst_executed.sum"), 2.5e6))
check("raw: n/a -> None", launches[1].metrics["l1tex__throughput.avg.pct_of_peak_sustained_elapsed"] is None)
check("raw: a non-numeric metric -> None", launches[0].metrics["launch__func_cache_config"] is None)
check("raw: percent stays percent",
      close(launches[2].get("l1tex__throughput.avg.pct_of_peak_sustained_elapsed"), 70.5))
check("raw: grid and block", launches[1].grid == (32, 2, 1) and launches[1].block == (128, 1, 1))
ks = nk.by_kernel(launches)
check("by_kernel: first-seen order", list(ks) == ["stepA", "stepB"])
a = ks["stepA"]
check("by_kernel: stepA 3 launches, 60 us in all, 20 us a launch",
      a.count == 3 and close(a.total_ns, 60000.0) and close(a.mean_ns, 20000.0))
check("by_kernel: sum of a counter", close(a.sum("sm__inst_executed.sum"), 6000.0))
check("by_kernel: mean of a percentage", close(a.mean("l1tex__throughput.avg.pct_of_peak_sustained_elapsed"),
                                               (50.5 + 70.5 + 60.0) / 3))
check("by_kernel: duration-weighted mean",
      close(a.weighted_mean("l1tex__throughput.avg.pct_of_peak_sustained_elapsed"),
            (50.5 * 10 + 70.5 * 30 + 60.0 * 20) / 60))
check("by_kernel: the mean skips a None", ks["stepB"].mean(
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed") is None)
g = nk.by_kernel(launches, by_grid=True)
check("by_grid: stepA split by grid", list(g) == [("stepA", (64, 1, 1)), ("stepB", (32, 2, 1)),
                                                  ("stepA", (128, 1, 1))])
check("by_grid: stepA at 64 blocks: 2 launches, 20 us mean",
      g[("stepA", (64, 1, 1))].count == 2 and close(g[("stepA", (64, 1, 1))].mean_ns, 20000.0))
check("parse(text) == read_csv(path)", [l.metrics for l in nk.parse(open(os.path.join(
    HERE, "fixtures", "raw_small.ncu.csv")).read())] == [l.metrics for l in launches])
check("parse: no table -> no launches", nk.parse("==PROF== nothing\nhello\n") == [])

# kernel_base on the shapes ncu prints
for name, base in (("k(int)", "k"), ("void k<float>(float *)", "k"), ("ns::inner::k(int, int)", "k"),
                   ("void k<(int)3, true>(void (*)(int), int)", "k"), ("k", "k")):
    check("kernel_base(%r) == %r" % (name, base), nk.kernel_base(name) == base)

# 2. the long layout
d = nk.read_csv(os.path.join(HERE, "fixtures", "details_small.ncu.csv"))
check("details: 2 launches", len(d) == 2)
check("details: msecond and ns", close(d[0].duration_ns, 1.25e6) and close(d[1].duration_ns, 750.0))
check("details: Kbyte", close(d[0].get("dram__bytes.sum"), 3000.0))

# 3. the recorded CSVs, recomputed from the columns with the csv module alone
rec = os.path.join(HERE, "h100", "examples")


def column_mean(path, kernel_prefix):
    rows = list(csv.reader(l for l in open(path) if not l.startswith("==")))
    head = rows[0]
    j, k = head.index("gpu__time_duration.sum"), head.index("Kernel Name")
    assert rows[1][j] == "ns", rows[1][j]
    vals = [float(r[j].replace(",", "")) for r in rows[2:] if r[k].startswith(kernel_prefix + "(")]
    return len(vals), sum(vals) / len(vals)


for f, kern, n in (("transpose_before.ncu.csv", "transposeTile", 5), ("dense_after.ncu.csv", "denseRelu", 5),
                   ("aat_transpose.ncu.csv", "aatTiledPadded", 16), ("mnf.ncu.csv", "covNaive", 12)):
    path = os.path.join(rec, f)
    if not os.path.exists(path):
        check("recorded %s present" % f, False)
        continue
    stats = nk.read_kernels(path)
    cnt, mean = column_mean(path, kern)
    check("recorded %s: %s %d launches, mean %.0f ns" % (f, kern, n, mean),
          stats[kern].count == n == cnt and close(stats[kern].mean_ns, mean))
crs = nk.read_kernels(os.path.join(rec, "cyclic_reduction.ncu.csv"), by_grid=True)
check("recorded cyclic_reduction: two grid sizes of each kernel, 21 launches each",
      sorted((k, v.count) for k, v in crs.items()) ==
      [(("crBaseline", (512, 1, 1)), 21), (("crBaseline", (16384, 1, 1)), 21),
       (("crPadded", (512, 1, 1)), 21), (("crPadded", (16384, 1, 1)), 21)])

# 4. one metric list
listed = open(os.path.join(HERE, "ncu_metrics.txt")).read().split()
check("METRICS == ncu_metrics.txt", listed == nk.METRICS)

# the command line
r = subprocess.run([sys.executable, os.path.join(ROOT, "driver", "verify", "ncu_kernels.py"),
                    "--by-grid", os.path.join(HERE, "fixtures", "raw_small.ncu.csv")],
                   capture_output=True, text=True)
check("command: a row per kernel and grid", r.returncode == 0 and r.stdout.count("stepA") == 2)

print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
