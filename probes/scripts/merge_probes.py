#!/usr/bin/env python3
"""Add probes measured by a partial run (`warplint-probe --only ...`) to a profile.

usage: merge_probes.py PROFILE PART [--repeat PART_REPEAT] --device-command CMD
                       --device-kind KIND [--write]

Takes every probe of PART except sm_clock (which `--only` always runs) and
appends it to PROFILE's probes; no probe PROFILE already holds is touched,
and a probe id present in both is refused. PART must come from a GPU of the
same name. The partial run's own record (date, command, device, driver,
clocks, the device tool's command and kind, and with --repeat the agreement
of a second partial run) goes to provenance.merges[], so each value still
traces back to the run that measured it. Without --write, only checks and
prints what it would add.
"""
import argparse
import json
import sys


def index(probes):
    return {(v["probe"], v["name"], json.dumps(v["params"], sort_keys=True)): v
            for p in probes for v in p["values"]}


def repeat_summary(part, rep, ids):
    a = index(p for p in part["probes"] if p["id"] in ids)
    b = index(p for p in rep["probes"] if p["id"] in ids)
    diffs = []
    for k, v in a.items():
        if k in b and v["median"]:
            diffs.append((abs(b[k]["median"] - v["median"]) / abs(v["median"]) * 100, k))
    diffs.sort(reverse=True)
    over = [d for d in diffs if d[0] > 3.0]
    return {
        "repeat_command": rep["provenance"]["command"],
        "repeat_date": rep["provenance"]["date"],
        "values_compared": len(diffs),
        "values_within_3_percent": len(diffs) - len(over),
        "max_median_difference_percent": round(diffs[0][0], 2) if diffs else 0.0,
        "over_3_percent": [{"probe": k[0], "name": k[1], "params": json.loads(k[2]),
                            "difference_percent": round(d, 2)} for d, k in over],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("part")
    ap.add_argument("--repeat")
    ap.add_argument("--device-command", required=True)
    ap.add_argument("--device-kind", required=True)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    with open(a.profile) as f:
        prof = json.load(f)
    with open(a.part) as f:
        part = json.load(f)
    if part["device"]["name"] != prof["device"]["name"]:
        print(f"refused: {a.part} was measured on {part['device']['name']}, "
              f"{a.profile} on {prof['device']['name']}", file=sys.stderr)
        return 2
    have = {p["id"] for p in prof["probes"]}
    new = [p for p in part["probes"] if p["id"] != "sm_clock"]
    clash = [p["id"] for p in new if p["id"] in have]
    if clash:
        print(f"refused: {a.profile} already holds {', '.join(clash)}", file=sys.stderr)
        return 2
    failed = [p["id"] for p in new if "error" in p]
    if failed:
        print(f"refused: failed probes in {a.part}: {', '.join(failed)}", file=sys.stderr)
        return 2
    before = json.dumps(prof, sort_keys=True)
    ids = [p["id"] for p in new]
    pv, d = part["provenance"], part["device"]
    record = {
        "probes": ids,
        "date": pv["date"],
        "command": pv["command"],
        "device_command": a.device_command,
        "device_kind": a.device_kind,
        "device_name": d["name"],
        "pci_bus_id": d.get("pci_bus_id", ""),
        "driver_version": part["software"]["driver_version"],
        "cuda_runtime_version": part["software"]["cuda_runtime_version"],
        "host": pv.get("host", ""),
        "tool": pv["tool"],
        "runs": pv["runs"],
        "wall_seconds": pv["wall_seconds"],
        "clocks": part["clocks"],
        "values": sum(len(p["values"]) for p in new),
    }
    sm = [v for p in part["probes"] if p["id"] == "sm_clock" for v in p["values"]]
    if sm:
        record["sm_clock_mhz_measured"] = sm[0]["median"]
    if a.repeat:
        with open(a.repeat) as f:
            record["repeat_check"] = repeat_summary(part, json.load(f), set(ids))
    prof["probes"].extend(new)
    prof["provenance"].setdefault("merges", []).append(record)
    # Every earlier value must be untouched.
    old = json.loads(before)
    assert index(old["probes"]) == {k: v for k, v in index(prof["probes"]).items() if k[0] not in ids}
    print(f"adding {record['values']} values of {', '.join(ids)} from {pv['date']} ({d['name']})")
    if "repeat_check" in record:
        r = record["repeat_check"]
        print(f"repeat: {r['values_within_3_percent']}/{r['values_compared']} medians within 3%, "
              f"largest {r['max_median_difference_percent']}%")
        for o in r["over_3_percent"]:
            print(f"  {o['difference_percent']:6.2f}%  {o['probe']} {o['name']} {o['params']}")
    if a.write:
        with open(a.profile, "w") as f:
            json.dump(prof, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
