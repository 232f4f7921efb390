#!/usr/bin/env python3
"""Predicted against measured: the host-side findings' sequence gains.

warplint prices a host finding on the GPU work its host function shows
(copies from the profile's host-transfer probes, launches from the kernel
cost model: gains/SequenceGains.h). Each host pair in examples/host/ was
measured on an H100 (tests/gpu/host/results-h100.md: CUDA events around the
whole copy + kernel sequence, median of 11). This replays the prediction on
each "before" program with the bundled h100 profile and compares:

  pageable   predicted_sequence_speedup_all_pinned (the pair pins both buffers)
  batching   predicted_sequence_speedup
  batching_run  predicted_sequence_speedup (a run of six small copies each
             time step, priced as the advice: each step the six copies
             replaced by one packed copy of their 5,392 bytes); its speedup
             is in SPEEDUP_KNOWN_OFF, printed but not failed: the host's own
             per-step work (the parameters, the launch) is in the measured
             times and outside the priced GPU work (10.4 ms predicted as
             written against 12.8 ms measured), so the same saved time is a
             smaller ratio; its saved time is checked
  overlap    predicted_sequence_speedup (16 streams, the rule's suggestion)
             against the measured "after, 16 streams"

and the predicted time as written against the measured "before", and the
time the change saves (predicted: as written less as written / speedup;
measured: before less after). Each pair's measurement is its first row in
results-h100.md (the file appends later runs below the one the predictions
were first checked against). Fails when a predicted speedup is on the other
side of 1.10x from the measurement, or a speedup or a saved time is off by
more than the recorded tolerance (TOLERANCE below: these are first-order
sums, stated as such in the finding).

Usage: check_sequence_gains.py WARPLINT
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TOLERANCE = 0.30  # |predicted / measured - 1| on the speedup

PAIRS = [
    ("pageable", "host-pageable-transfer", "predicted_sequence_speedup_all_pinned", "after"),
    ("batching", "host-transfer-batching", "predicted_sequence_speedup", "after"),
    ("batching_run", "host-transfer-batching", "predicted_sequence_speedup", "after"),
    ("overlap", "host-transfer-no-overlap", "predicted_sequence_speedup", "after, 16 streams"),
]
# Pairs whose predicted speedup is known to be off for a stated reason while
# the change priced is the pair's: the speedup is printed, never a failure;
# the saved time is still checked.
SPEEDUP_KNOWN_OFF = {
    "batching_run": "the host's per-step work is outside the priced GPU work",
}


def measured():
    rows = {}
    for line in open(os.path.join(HERE, "results-h100.md")):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and re.match(r"[\d.]+$", cells[2]):
            rows.setdefault((cells[0], cells[1]), float(cells[2]))
    return rows


def main():
    warplint = sys.argv[1]
    m = measured()
    env = dict(os.environ, WARPLINT_PTXAS="off")
    failures = []
    print(f"{'pair':12} {'before ms (pred / meas)':>26} {'speedup (pred / meas)':>24} {'ratio':>7}"
          f" {'saved ms (pred / meas)':>24} {'ratio':>7}")
    for pair, rule, key, after_row in PAIRS:
        src = os.path.join(ROOT, "examples", "host", f"{pair}_before.cu")
        p = subprocess.run([warplint, "check", src, "--profile", "h100", "--format", "json", "--rules", rule],
                           capture_output=True, text=True, env=env)
        findings = [f for f in json.loads(p.stdout)["findings"] if f["rule"] == rule]
        if not findings or key not in findings[0]["details"]:
            failures.append(f"{pair}: no {key} on the {rule} finding "
                            f"({findings[0]['details'].get('predicted_sequence_speedup_unavailable') if findings else 'no finding'})")
            continue
        d = findings[0]["details"]
        pred = d[key]
        before_ms = d["sequence_cost"]["time_us"] / 1000
        saved = before_ms - before_ms / pred
        meas_before = m[(pair, "before")]
        meas = meas_before / m[(pair, after_row)]
        meas_saved = meas_before - m[(pair, after_row)]
        ratio = pred / meas
        saved_ratio = saved / meas_saved
        print(f"{pair:12} {before_ms:12.3f} / {meas_before:9.3f} {pred:12.2f}x / {meas:7.2f}x {ratio:7.3f}"
              f" {saved:11.3f} / {meas_saved:9.3f} {saved_ratio:7.3f}"
              + (f"  (speedup known off, not checked: {SPEEDUP_KNOWN_OFF[pair]})" if pair in SPEEDUP_KNOWN_OFF else ""))
        if abs(saved_ratio - 1) > TOLERANCE:
            failures.append(f"{pair}: predicted saving {saved:.3f} ms is {abs(saved_ratio - 1) * 100:.0f}% from the "
                            f"measured {meas_saved:.3f} ms (tolerance {TOLERANCE * 100:.0f}%)")
        if pair in SPEEDUP_KNOWN_OFF:
            continue
        if (pred >= 1.10) != (meas >= 1.10):
            failures.append(f"{pair}: predicted {pred:.2f}x and measured {meas:.2f}x on opposite sides of 1.10x")
        if abs(ratio - 1) > TOLERANCE:
            failures.append(f"{pair}: predicted {pred:.2f}x is {abs(ratio - 1) * 100:.0f}% from the measured {meas:.2f}x "
                            f"(tolerance {TOLERANCE * 100:.0f}%)")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
