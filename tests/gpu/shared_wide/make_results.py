#!/usr/bin/env python3
"""Join shared_wide's patterns (PATTERNS.csv, launch order) with the ncu raw
page of the same run (NCU.csv: one row per launch, ID = launch order) into
results.csv: per pattern the warp-level shared instructions, the wavefronts
and bank conflicts ncu counted, and the wavefronts per instruction.

usage: make_results.py PATTERNS.csv NCU.csv [-o results.csv]
"""
import argparse
import csv
import sys

INST = {"ld": "smsp__inst_executed_op_shared_ld.sum", "st": "smsp__inst_executed_op_shared_st.sum"}
WAVES = {"ld": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
         "st": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}
CONFLICTS = {"ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
             "st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}
ALL_WAVES = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"


def read_ncu(path):
    lines = open(path, newline="").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    header, data = rows[0], rows[2:]  # rows[1]: units
    out = {}
    for r in data:
        if len(r) != len(header):
            continue
        rec = dict(zip(header, r))
        out[int(rec["ID"])] = rec
    return out


def num(rec, name):
    v = rec.get(name)
    if v in (None, "", "n/a"):
        return None
    return float(v.replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("patterns")
    ap.add_argument("ncu")
    ap.add_argument("-o", "--out", default="results.csv")
    a = ap.parse_args()
    pats = list(csv.DictReader(open(a.patterns)))
    ncu = read_ncu(a.ncu)
    cols = ["launch", "name", "width", "op", "mask", "reps", "inst", "wavefronts", "conflicts",
            "all_wavefronts", "wavefronts_per_inst", "conflicts_per_inst"] + ["b%d" % l for l in range(32)]
    with open(a.out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        print("%-6s %-28s %5s %3s %10s %6s %6s %7s %6s" % ("launch", "pattern", "width", "op", "mask", "inst",
                                                             "waves", "w/inst", "confl"))
        for p in pats:
            rec = ncu.get(int(p["launch"]))
            op = p["op"]
            inst = waves = confl = allw = None
            if rec:
                inst, waves, confl, allw = num(rec, INST[op]), num(rec, WAVES[op]), num(rec, CONFLICTS[op]), num(rec, ALL_WAVES)
            wpi = waves / inst if inst and waves is not None else None
            cpi = confl / inst if inst and confl is not None else None
            fmt = lambda x: "" if x is None else ("%g" % x)
            w.writerow([p["launch"], p["name"], p["width"], op, p["mask"], p["reps"], fmt(inst), fmt(waves), fmt(confl),
                        fmt(allw), fmt(wpi), fmt(cpi)] + [p["b%d" % l] for l in range(32)])
            print("%-6s %-28s %5s %3s %10s %6s %6s %7s %6s" % (p["launch"], p["name"], p["width"], op, p["mask"],
                                                               fmt(inst), fmt(waves), fmt(wpi), fmt(cpi)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
