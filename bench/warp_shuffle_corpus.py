#!/usr/bin/env python3
"""Runs warp-shuffle-candidate over real public CUDA code, one program
(directory) at a time, and writes every finding as JSON lines for the
hand-checked sample of bench/warp_shuffle_precision.md.

The code is staged outside the repository from the fetched mirrors (see the
precision note for the commands); nothing of it is committed.

Usage: bench/warp_shuffle_corpus.py --warplint build/bin/warplint \
           --corpus NAME=DIR[:INCLUDE] ... --out findings.jsonl
A corpus's programs are the directories under DIR that hold .cu files; each
is analyzed with -I itself (and -I INCLUDE when given). Programs none of
whose sources mention __shared__ are counted and skipped (no finding is
possible there).
"""
import argparse
import json
import os
import subprocess
import sys
import time


def uses_shared(d, files):
    """A program none of whose sources says __shared__ has no shared array:
    the rule cannot report on it (it needs an array both stored and loaded)."""
    for f in files:
        if f.endswith((".cu", ".cuh", ".h", ".hpp", ".inc")):
            with open(os.path.join(d, f), errors="replace") as fh:
                if "__shared__" in fh.read():
                    return True
    return False


def programs(root):
    out = {}
    skipped = 0
    for d, _, files in os.walk(root, followlinks=True):
        cus = sorted(f for f in files if f.endswith(".cu"))
        if not cus:
            continue
        if uses_shared(d, files):
            out[d] = [os.path.join(d, f) for f in cus]
        else:
            skipped += 1
    return dict(sorted(out.items())), skipped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", required=True)
    ap.add_argument("--corpus", action="append", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=int, default=600)
    # -j 1 keeps to one analysis thread when the machine is shared with builds.
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    stats = []
    with open(args.out, "w") as out:
        for spec in args.corpus:
            name, rest = spec.split("=", 1)
            root, _, include = rest.partition(":")
            progs, skipped = programs(root)
            n_files = n_findings = n_failed = 0
            t0 = time.time()
            for d, files in progs.items():
                flags = ["-I", d] + (["-I", include] if include else [])
                cmd = [args.warplint, "check", "--rules", "warp-shuffle-candidate", "--format", "json",
                       "--fail-min-gain", "0", "--no-cost-model", "-q", "-j", str(args.jobs)] + files + ["--"] + flags
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                    report = json.loads(p.stdout) if p.stdout.strip() else {}
                except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
                    print(f"{name}: {d}: {type(e).__name__}", file=sys.stderr)
                    n_failed += 1
                    continue
                n_files += len(files)
                for f in report.get("findings", []):
                    f["corpus"] = name
                    f["program"] = os.path.relpath(d, root)
                    f["file"] = os.path.relpath(f["file"], root)
                    out.write(json.dumps(f) + "\n")
                    n_findings += 1
            stats.append((name, len(progs) + skipped, skipped, n_files, n_failed, n_findings, time.time() - t0))
    print("| corpus | programs | without __shared__ (not run) | .cu files run | programs failed | findings | seconds |")
    print("|---|---|---|---|---|---|---|")
    for s in stats:
        print("| %s | %d | %d | %d | %d | %d | %.0f |" % s)


if __name__ == "__main__":
    main()
