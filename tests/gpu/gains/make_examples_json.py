#!/usr/bin/env python3
"""Writes tests/gpu/gains/examples.json from the CSVs run_examples.sh recorded.

    python3 tests/gpu/gains/make_examples_json.py [--check]

One entry per before/after pair of examples/: the two-file pairs of
examples/rewrites and examples/advice (each build profiled apart) and the
kernel pairs inside each case study (one program, one ncu run). The measured
speedup is the mean gpu__time_duration.sum a launch of the "before" kernel
over that of the "after" kernel (the launch counts may differ). With --check
it compares the file on disk with what it would write and exits 1 if they
differ (the recorded CSVs and the table below must stay in step).
"""
import json
import os
import re
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "driver", "verify"))
import ncu_kernels  # noqa: E402

REC = os.path.join(HERE, "h100", "examples")
REC_REL = os.path.relpath(REC, ROOT)

# pair, directory or case file, before kernel, after kernel, applied rules, kind, note
TWO_FILE = [
    ("transpose", "rewrites", "transposeTile", ["shared-bank-conflict"], "fix",
     "warplint check --fix: tile[32][32] -> tile[32][33]"),
    ("byte_filter", "rewrites", "brighten", ["global-narrow-access"], "fix",
     "warplint check --fix: four byte loads/stores -> uchar4"),
    ("byte_copy", "rewrites", "addOne", ["global-narrow-access"], "fix",
     "warplint check --fix --fix-launch: one byte a thread -> uchar4 with a scalar tail, grid / 4"),
    ("gather", "rewrites", "gather", ["readonly-param"], "fix",
     "warplint check --fix: const __restrict__ on table and index"),
    ("median", "advice", "median3x3", ["private-array-local-memory"], "advice",
     "insertion sort -> odd-even transposition network (by hand)"),
    ("standardize", "advice", "standardize", ["private-array-local-memory"], "fix",
     "warplint check --fix: #pragma unroll 4 -> #pragma unroll"),
    ("lut", "advice", "decodePixels", ["constant-divergent-access"], "advice",
     "__constant__ curve -> const float *__restrict__ (by hand)"),
    ("dense", "advice", "denseRelu", ["shared-staging-candidate"], "advice",
     "naive -> 16x16 shared tiles of X and W (by hand)"),
    ("ycbcr", "advice", "rgbToYcbcr", ["shared-staging-no-reuse"], "advice",
     "shared staging -> registers (by hand)"),
]
# pair, case, before kernel, after kernel, applied, kind, note, grid filter (blocks) or None
CASES = [
    ("cr_padded", "cyclic_reduction", "crBaseline", "crPadded", ["shared-bank-conflict"], "advice",
     "one word of padding every 32 (P(i) = i + i/32), by hand; 16384 systems (the 512-system "
     "launches are in measured_by_grid)", 16384),
    ("aat_tiled", "aat_transpose", "aatNaive", "aatTiled", ["global-uncoalesced"], "advice",
     "both operands staged through 32x32 shared tiles", None),
    ("aat_tiled_padded", "aat_transpose", "aatTiled", "aatTiledPadded", ["shared-bank-conflict"], "advice",
     "transposed tile padded to [32][33] (the rule's padding, applied by hand)", None),
    ("aat_transpose_padded", "aat_transpose", "transposeTile", "transposePadded", ["shared-bank-conflict"],
     "advice", "tile[32][33] (the rule's padding, applied by hand)", None),
    ("mnf_filter_mean", "mnf", "filterMedian", "filterMean", ["private-array-local-memory"], "advice",
     "the seed's change: a 3x3 mean in registers replaces the median of a private win[9] kept in "
     "local memory; NOT the same function (mean, not median)", None),
    ("mnf_filter_smem", "mnf", "filterMean", "filterMeanSmem", ["shared-staging-candidate"], "advice",
     "a shared tile with halo for the 3x3 window", None),
    ("mnf_cov_tiled", "mnf", "covNaive", "covTiled", ["global-uncoalesced"], "advice",
     "shared 32x32 tiles, the second stored transposed", None),
    ("mnf_cov_padded", "mnf", "covTiled", "covTiledPad", ["shared-bank-conflict"], "advice",
     "Fj padded to [32][33] (the rule's padding, applied by hand)", None),
    ("mnf_transform_const", "mnf", "transformGlobal", "transformConst", [], "advice",
     "the seed's T in __constant__ memory; no warplint rule advises it", None),
    ("mnf_transform_reg", "mnf", "transformGlobal", "transformConstReg", [], "advice",
     "T in __constant__ and X read once with the 16 outputs in registers; no warplint rule advises it",
     None),
    ("pfac_smem_bytes", "pfac", "pfacGlobal", "pfacSmemBytes", ["shared-staging-candidate"], "advice",
     "each block's 2048-byte chunk staged in shared memory, a byte a thread", None),
    ("pfac_smem_uint4", "pfac", "pfacGlobal", "pfacSmemUint4", ["shared-staging-candidate", "global-narrow-access"],
     "advice",
     "the chunk staged in shared memory with uint4 loads (16 bytes a lane)", None),
]


def env():
    text = open(os.path.join(REC, "env.txt")).read()
    date = re.search(r"^date: (\S+)", text, re.M).group(1)
    gpu = re.search(r"^(NVIDIA [^,\n]+), ([0-9.]+), (\d+) MHz", text, re.M)
    ncu = re.search(r"Version (\S+)", text)
    nvcc = re.search(r"release ([0-9.]+), V([0-9.]+)", text)
    device = "%s (driver %s, max SM clock %s MHz); ncu %s; nvcc %s" % (
        gpu.group(1), gpu.group(2), gpu.group(3), ncu.group(1), nvcc.group(2))
    return device, date


def native_ms():
    """CUDA-event medians of the same session's unprofiled runs: {(pair or kernel): ms}."""
    out = {}
    for m in re.finditer(r"native (\w+): before ([0-9.]+) ms, after ([0-9.]+) ms",
                         open(os.path.join(REC, "run.log")).read()):
        out[(m.group(1), "before")] = float(m.group(2))
        out[(m.group(1), "after")] = float(m.group(3))
    return out


def case_native(case):
    """{kernel or (kernel, systems): ms} from a case program's own table."""
    out = {}
    for line in open(os.path.join(REC, case + ".native.txt")):
        f = line.split()
        if case == "cyclic_reduction" and len(f) >= 3 and f[0].isdigit():
            out[("crBaseline" if f[1] == "baseline" else "crPadded", int(f[0]))] = float(f[2])
        elif case == "mnf" and len(f) >= 4 and f[0] in ("S1", "S2", "S8"):
            out[f[2]] = float(f[3])
        elif len(f) >= 2 and re.fullmatch(r"[0-9.]+", f[1]) and not f[0].isdigit():
            out[f[0]] = float(f[1])
    return out


def stats_of(path, kernel, grid_blocks=None):
    ls = [l for l in ncu_kernels.read_csv(path) if l.kernel == kernel]
    if grid_blocks is not None:
        ls = [l for l in ls if l.grid and l.grid[0] * l.grid[1] * l.grid[2] == grid_blocks]
    return ncu_kernels.KernelStats(kernel, ls)


# Pairs whose change is not one finding's change: measured, but not scored
# against predictions (tests/gpu/gains/check_gains.py skips them).
NOT_SCORED = {
    "dense": "the after stages X as well as W; warplint's finding names W only, so no finding's change is "
             "what was measured",
    "mnf_filter_mean": "the change computes another function (a mean instead of the median), not the rule's "
                       "fix alone",
    "mnf_transform_const": "no warplint finding advises this change",
    "mnf_transform_reg": "no warplint finding advises this change",
}


def entry(pair, source, after_source, kb, ka, applied, kind, note, bcsv, acsv, device, date,
          grid=None, events=None):
    b, a = stats_of(os.path.join(ROOT, bcsv), kb, grid), stats_of(os.path.join(ROOT, acsv), ka, grid)
    if not b.count or not a.count:
        raise SystemExit("%s: no launches of %s or %s in the CSVs" % (pair, kb, ka))
    e = OrderedDict([
        ("pair", pair), ("source", source), ("after_source", after_source), ("kernels", [kb, ka]),
        ("applied", applied), ("kind", kind), ("note", note), ("before_csv", bcsv), ("after_csv", acsv),
        ("launches", [b.count, a.count]),
        ("before_ms", round(b.mean_ns / 1e6, 5)), ("after_ms", round(a.mean_ns / 1e6, 5)),
        ("measured_speedup", round(b.mean_ns / a.mean_ns, 4))])
    if grid is not None:
        e["grid_blocks"] = grid
        by = OrderedDict()
        gb = ncu_kernels.by_kernel(ncu_kernels.read_csv(os.path.join(ROOT, bcsv)), by_grid=True)
        for (k, g), ks in gb.items():
            if k == kb:
                other = gb.get((ka, g))
                if other:
                    by["x".join(map(str, g))] = round(ks.mean_ns / other.mean_ns, 4)
        e["measured_by_grid"] = by
    if events:
        e["cuda_events_ms"] = events
        e["cuda_events_speedup"] = round(events[0] / events[1], 4)
    e["device"] = device
    e["date"] = date
    if pair in NOT_SCORED:
        e["scored"] = False
        e["not_scored_because"] = NOT_SCORED[pair]
    return e


def build():
    device, date = env()
    nat = native_ms()
    out = []
    for pair, d, kern, applied, kind, note in TWO_FILE:
        out.append(entry(pair, "examples/%s/%s_before.cu" % (d, pair), "examples/%s/%s_after.cu" % (d, pair),
                         kern, kern, applied, kind, note,
                         "%s/%s_before.ncu.csv" % (REC_REL, pair), "%s/%s_after.ncu.csv" % (REC_REL, pair),
                         device, date, events=[nat[(pair, "before")], nat[(pair, "after")]]))
    for pair, case, kb, ka, applied, kind, note, grid in CASES:
        cn = case_native(case)
        ev = [cn.get((kb, grid), cn.get(kb)), cn.get((ka, grid), cn.get(ka))]
        src = "examples/case_%s.cu" % case
        csvp = "%s/%s.ncu.csv" % (REC_REL, case)
        out.append(entry(pair, src, src, kb, ka, applied, kind, note, csvp, csvp, device, date, grid,
                         ev if None not in ev else None))
    return out


def main():
    data = build()
    text = json.dumps(data, indent=1) + "\n"
    path = os.path.join(HERE, "examples.json")
    if "--check" in sys.argv[1:]:
        same = os.path.exists(path) and open(path).read() == text
        print("examples.json %s the recorded CSVs" % ("matches" if same else "DOES NOT match"))
        return 0 if same else 1
    open(path, "w").write(text)
    print("| pair | kernels | launches | before (ms) | after (ms) | ncu speedup | CUDA events, same run |")
    print("|---|---|---|---|---|---|---|")
    for e in data:
        ks = e["kernels"][0] if e["kernels"][0] == e["kernels"][1] else "%s → %s" % tuple(e["kernels"])
        ev = e.get("cuda_events_ms")
        print("| %s | %s | %d / %d | %.4f | %.4f | **%.2fx** | %s |" % (
            e["pair"], ks, e["launches"][0], e["launches"][1], e["before_ms"], e["after_ms"],
            e["measured_speedup"], "%.4f → %.4f (%.2fx)" % (ev[0], ev[1], ev[0] / ev[1]) if ev else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
