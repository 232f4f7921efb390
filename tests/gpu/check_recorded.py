#!/usr/bin/env python3
"""CI check of the recorded GPU ground truth (no GPU needed).

    python3 tests/gpu/check_recorded.py WARPLINT

1. Joins the committed H100 ncu CSVs (tests/gpu/groundtruth/ncu-h100) with
   `WARPLINT check` on the corpus and fails when a rule drops below the
   issue's targets: precision 95%, recall 90%, exact on 90% of the affine,
   loop-invariant lines.
2. Replays `warplint verify --csv-dir` on the recorded cyclic-reduction
   counters: all 28 findings confirmed, none contradicted.
3. Without a GPU, `warplint verify ... -- PROGRAM` must say so and exit 2.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def main():
    wl = os.path.abspath(sys.argv[1])
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "join.json")
        r = subprocess.run([sys.executable, os.path.join(HERE, "groundtruth", "join.py"),
                            "--warplint", wl, "--json", out], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout[-3000:], r.stderr[-3000:])
            return 1
        summary = json.load(open(out))["summary"]
        for rule, s in summary.items():
            exact = s["exact"] / s["scored"] if s["scored"] else 0.0
            print("%s: precision %.3f recall %.3f exact %.3f" % (rule, s["precision"], s["recall"], exact))
            if s["precision"] < 0.95 or s["recall"] < 0.90 or exact < 0.90:
                fails.append(rule)
    r = subprocess.run([wl, "verify", "--format", "json", "--csv-dir",
                        os.path.join(HERE, "verify-h100", "cyclic_reduction"),
                        os.path.join(ROOT, "examples", "case_cyclic_reduction.cu"), "--"],
                       capture_output=True, text=True)
    try:
        v = json.loads(r.stdout)
        ok = len(v["confirmed"]) == 28 and not v["contradicted"] and r.returncode == 0
    except ValueError:
        ok = False
    print("verify replay:", "ok" if ok else "FAILED\n" + r.stdout[-2000:] + r.stderr[-2000:])
    if not ok:
        fails.append("verify replay")
    gpu = shutil.which("nvidia-smi") and subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    if not gpu:
        r = subprocess.run([wl, "verify", os.path.join(ROOT, "examples", "case_pfac.cu"), "--", "/bin/true"],
                           capture_output=True, text=True)
        ok = r.returncode == 2 and "needs an NVIDIA GPU" in r.stderr
        print("verify without a GPU:", "ok" if ok else "FAILED (rc %d) %s" % (r.returncode, r.stderr))
        if not ok:
            fails.append("verify without a GPU")
    if fails:
        print("FAILED:", ", ".join(fails))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
