#!/usr/bin/env python3
"""Compare two runs of the suite and record the agreement in the first.

usage: repeat_check.py PROFILE REPEAT [--write]
Prints how many medians differ by more than 3% and the largest difference;
with --write, stores that summary in PROFILE's provenance.repeat_check.
Values in the unit "fraction" (hit/miss shares, often near 0) are compared
by absolute difference in percentage points instead, and counted apart:
a 0.010 -> 0.012 change is 20% relative but 0.2 points.
"""
import json
import sys


def index(prof):
    return {(v["probe"], v["name"], json.dumps(v["params"], sort_keys=True)): v
            for p in prof["probes"] for v in p["values"]}


def main():
    path, repeat_path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        prof = json.load(f)
    with open(repeat_path) as f:
        rep = json.load(f)
    a, b = index(prof), index(rep)
    diffs, fractions = [], []
    for k, v in a.items():
        if k not in b:
            continue
        if v["unit"] == "fraction":
            fractions.append((abs(b[k]["median"] - v["median"]) * 100, k))
        elif v["median"]:
            diffs.append((abs(b[k]["median"] - v["median"]) / abs(v["median"]) * 100, k))
    fractions.sort(reverse=True)
    diffs.sort(reverse=True)
    over = [d for d in diffs if d[0] > 3.0]
    summary = {
        "repeat_command": rep["provenance"]["command"],
        "repeat_date": rep["provenance"]["date"],
        "repeat_wall_seconds": rep["provenance"]["wall_seconds"],
        "values_compared": len(diffs),
        "values_within_3_percent": len(diffs) - len(over),
        "max_median_difference_percent": round(diffs[0][0], 2) if diffs else 0.0,
        "over_3_percent": [{"probe": k[0], "name": k[1], "params": json.loads(k[2]),
                            "difference_percent": round(d, 2)} for d, k in over],
        "fractions_compared": len(fractions),
        "fractions_within_2_points": sum(1 for d, _ in fractions if d <= 2.0),
        "max_fraction_difference_points": round(fractions[0][0], 2) if fractions else 0.0,
    }
    print(f"{summary['values_within_3_percent']}/{len(diffs)} medians within 3%; "
          f"largest difference {summary['max_median_difference_percent']}%")
    print(f"{summary['fractions_within_2_points']}/{len(fractions)} fractions within 2 points; "
          f"largest {summary['max_fraction_difference_points']} points")
    for o in summary["over_3_percent"][:15]:
        print(f"  {o['difference_percent']:6.2f}%  {o['probe']} {o['name']} {o['params']}")
    if "--write" in sys.argv:
        prof["provenance"]["repeat_check"] = summary
        with open(path, "w") as f:
            json.dump(prof, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
