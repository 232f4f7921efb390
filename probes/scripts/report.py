#!/usr/bin/env python3
"""Print a warplint hardware profile as human-readable tables.

usage: report.py PROFILE [--probe ID ...] [--compare OTHER_PROFILE]
With --compare, a second column block shows OTHER's median and the relative
difference (used to check that two runs of the suite agree within 3%).
"""
import argparse
import json
import sys


def key(value):
    return (value["probe"], value["name"], json.dumps(value["params"], sort_keys=True))


def fmt(x):
    if isinstance(x, float) and (abs(x) >= 1000 or x == int(x)):
        return f"{x:.0f}"
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def params_text(p):
    return ", ".join(f"{k}={v}" for k, v in p.items())


# Seed 002 probes (host transfers, streams, managed memory, warp exchange):
# the medians once more with one column a size, stream count or method, each
# cell "median (min-max)", so a curve reads across a line.
PIVOTS = {
    "host_transfer_bandwidth": "bytes",
    "host_copy_latency": "bytes",
    "copy_kernel_overlap_vs_streams": "streams",
    "managed_first_touch": "prefetch",
    "warp_exchange_shuffle_vs_shared": "method",
}


def column_text(key, c):
    if key == "bytes" and isinstance(c, (int, float)):
        for unit, size in (("MiB", 2**20), ("KiB", 2**10)):
            if c >= size and c % size == 0:
                return f"{int(c // size)} {unit}"
        return f"{int(c)} B"
    return str(c)


def print_pivot(values, key):
    columns, series = [], {}
    for v in values:
        if key not in v["params"]:
            continue
        c = v["params"][key]
        rest = {k: x for k, x in v["params"].items() if k != key}
        series.setdefault((v["name"], params_text(rest)), {})[c] = v
        if c not in columns:
            columns.append(c)
    if len(columns) < 2:
        return
    if all(isinstance(c, (int, float)) for c in columns):
        columns.sort()
    rows = [[f"by {key}", "params"] + [column_text(key, c) for c in columns]]
    for (name, rest), cells in series.items():
        row = [name, rest]
        for c in columns:
            v = cells.get(c)
            row.append("-" if v is None else f"{fmt(v['median'])} ({fmt(v['min'])}-{fmt(v['max'])})")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("   " + "  ".join(x.ljust(w) for x, w in zip(r, widths)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("--probe", nargs="*")
    ap.add_argument("--compare")
    a = ap.parse_args()
    with open(a.profile) as f:
        prof = json.load(f)
    other = {}
    if a.compare:
        with open(a.compare) as f:
            for p in json.load(f)["probes"]:
                for v in p["values"]:
                    other[key(v)] = v
    d, c, s, pv = prof["device"], prof["clocks"], prof["software"], prof["provenance"]
    print(f"profile {prof['profile_id']} (schema {prof['schema_version']})")
    print(f"device  {d['name']}  cc {d['compute_capability']}  {d['sm_count']} SMs  "
          f"L2 {d['l2_bytes'] / 2**20:.0f} MiB  theoretical DRAM {d['theoretical_dram_bandwidth_gbps']:.0f} GB/s")
    sm = c["sm_mhz"]
    if "median" in sm:
        print(f"clocks  SM {sm['median']:.0f} MHz (min {sm['min']:.0f}, max {sm['max']:.0f}, "
              f"{sm['runs']} samples)  memory {c['memory_mhz'].get('median', 0):.0f} MHz")
    print(f"software driver {s['driver_version']}  CUDA runtime {s['cuda_runtime_version']}")
    print(f"run     {pv['date']}  {pv['runs']} runs  {pv['wall_seconds']:.1f} s  `{pv['command']}`")
    worst = 0.0
    for p in prof["probes"]:
        if a.probe and p["id"] not in a.probe:
            continue
        print(f"\n== {p['id']}: {p['title']}  ({p['wall_seconds']:.2f} s)")
        if "error" in p:
            print(f"   FAILED: {p['error']}")
        rows = []
        for v in p["values"]:
            spread = (v["max"] - v["min"]) / v["median"] * 100 if v["median"] else 0.0
            row = [v["name"], params_text(v["params"]), fmt(v["median"]), fmt(v["min"]),
                   fmt(v["max"]), f"{spread:.1f}%", v["unit"]]
            o = other.get(key(v))
            if o is not None:
                diff = (o["median"] - v["median"]) / v["median"] * 100 if v["median"] else 0.0
                worst = max(worst, abs(diff)) if v["median"] else worst
                row += [fmt(o["median"]), f"{diff:+.1f}%"]
            rows.append(row)
        head = ["value", "params", "median", "min", "max", "spread", "unit"]
        if other:
            head += ["other", "diff"]
        widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
        for r in [head] + rows:
            print("   " + "  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
        if p["id"] in PIVOTS:
            print_pivot(p["values"], PIVOTS[p["id"]])
        for k, dv in p.get("derived", {}).items():
            print(f"   derived {k}: {json.dumps(dv)}")
    if other:
        print(f"\nlargest median difference against {a.compare}: {worst:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
