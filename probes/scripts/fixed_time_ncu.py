#!/usr/bin/env python3
"""Add Nsight Compute's gpu__time_duration of the kernel_fixed_time probe's launches to a part profile.

usage: fixed_time_ncu.py PART.json NCU.csv --ncu-command CMD --ncu-version TEXT [--write]

PART.json is a `warplint-probe --only kernel_fixed_time` profile from a plain run (its
event times); NCU.csv is the raw-page CSV of the same binary run under ncu
(`--metrics gpu__time_duration.sum,launch__grid_size -k regex:fixedTime`). The probe
launches each shape once untimed and then 5 times a run, shapes in a fixed order
and told apart by kernel and grid size; so the launches of one shape, in ncu's
order, fall into runs of 6: the first of each is dropped (as the probe drops it)
and a run's sample is the median of the other 5, as for the event times. The
values `gpu_time_duration_us` (same params as `event_time_us`) go into PART's
kernel_fixed_time probe, with the ncu command and version in its notes.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "driver", "verify"))
import ncu_kernels  # noqa: E402

PER_RUN = 6  # one untimed launch, 5 timed


def stats(samples):
    s = sorted(samples)
    q = statistics.quantiles(s, n=4, method="inclusive") if len(s) > 1 else [s[0]] * 3
    return {"median": statistics.median(s), "min": s[0], "max": s[-1], "q1": q[0], "q3": q[2]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("part")
    ap.add_argument("csv")
    ap.add_argument("--ncu-command", required=True)
    ap.add_argument("--ncu-version", required=True)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    with open(a.part) as f:
        part = json.load(f)
    probe = next(p for p in part["probes"] if p["id"] == "kernel_fixed_time")
    launches = [l for l in ncu_kernels.read_csv(a.csv) if l.kernel.startswith("fixedTime")]
    groups = {}
    for l in sorted(launches, key=lambda l: l.id):
        blocks = l.grid[0] * l.grid[1] * l.grid[2] if l.grid else None
        groups.setdefault((l.kernel, blocks), []).append(l.duration_ns / 1000.0)
    added = []
    for v in [v for v in probe["values"] if v["name"] == "event_time_us"]:
        shape, blocks = v["params"]["shape"], int(v["params"]["blocks"])
        kernel = "fixedTimeEmpty" if shape == "empty" else "fixedTimeTrivial"
        times = groups.get((kernel, blocks), [])
        runs = len(times) // PER_RUN
        if runs == 0:
            print(f"no ncu launches for {shape} blocks={blocks}", file=sys.stderr)
            return 2
        samples = [statistics.median(times[r * PER_RUN + 1:(r + 1) * PER_RUN]) for r in range(runs)]
        nv = {"name": "gpu_time_duration_us", "params": v["params"], "unit": "us", **stats(samples),
              "runs": runs, "probe": "kernel_fixed_time",
              "method": "Nsight Compute gpu__time_duration.sum of each launch (the probe run under ncu, "
                        "one pass); a run's sample is the median of its 5 timed launches",
              "samples": samples}
        added.append(nv)
        print(f"{shape:8s} blocks={blocks:6d} ncu median {nv['median']:.3f} us "
              f"({nv['min']:.3f}-{nv['max']:.3f}, {runs} runs)  events {v['median']:.3f} us")
    probe["values"].extend(added)
    probe.setdefault("notes", []).append(
        f"gpu_time_duration_us: {a.ncu_version}; command: {a.ncu_command}")
    if a.write:
        with open(a.part, "w") as f:
            json.dump(part, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
