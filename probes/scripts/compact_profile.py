#!/usr/bin/env python3
"""The bundled profile the analyzer parses on every run, without what
HardwareProfile::fromJson never reads (per-run samples, quartiles, titles,
notes, probe wall times, derived tables other than warp_broadcast's, and
the provenance's repeat check) and without whitespace: the same values in
about half the text, so a check spends less time parsing its profile
(issue 19). The full file stays bundled for reports (loadText). A unit test
loads both and requires the same profile (hardware_profile_test).

usage: compact_profile.py IN.json OUT.json
"""
import json
import os
import sys

# Keep in step with HardwareProfile::fromJson: every member it reads.
PROBE_KEYS = {"id", "method", "values", "derived"}
VALUE_KEYS = {"name", "params", "unit", "median", "min", "max", "runs", "probe", "method"}
PROVENANCE_KEYS = {"date", "command", "tool", "wall_seconds", "runs"}


def compact(doc):
    out = dict(doc)
    out["provenance"] = {k: v for k, v in doc["provenance"].items() if k in PROVENANCE_KEYS}
    probes = []
    for probe in doc["probes"]:
        p = {k: v for k, v in probe.items() if k in PROBE_KEYS}
        if p.get("id") != "warp_broadcast":
            p.pop("derived", None)
        p["values"] = [{k: v for k, v in value.items() if k in VALUE_KEYS} for value in probe["values"]]
        probes.append(p)
    out["probes"] = probes
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    text = json.dumps(compact(doc), separators=(",", ":"))
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(text)
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])


if __name__ == "__main__":
    main()
