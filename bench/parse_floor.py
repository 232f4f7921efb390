#!/usr/bin/env python3
"""Speed benchmark (not a test): warplint check against the parse floor.

For every TU, runs `warplint check` and the clang command warplint itself
parses with (`--print-clang-command`, driver renamed clang++-19), which is
`clang++-19 -fsyntax-only --cuda-device-only` with the same flags. Prints the
median of N runs of each and the ratio of the totals. Target: <= 1.15.

usage: bench/parse_floor.py [--warplint build/bin/warplint] [--runs 5] [--no-cuda-toolkit] [FILES...]
"""
import argparse, glob, os, shlex, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, runs, ok_codes):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
        if r.returncode not in ok_codes:
            sys.exit("command failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", default=os.path.join(root, "build", "bin", "warplint"))
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cuda-toolkit", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(root, "examples", "*.cu")) +
                              glob.glob(os.path.join(root, "tests", "lit", "rules", "*.cu")) +
                              glob.glob(os.path.join(root, "bench", "inputs", "*.cu")))
    mode = ["--no-cuda-toolkit"] if a.no_cuda_toolkit else []
    total_w = total_f = 0.0
    print("%-40s %10s %10s %7s" % ("file", "warplint", "floor", "ratio"))
    for f in files:
        line = subprocess.run([a.warplint, "check", f, "--print-clang-command"] + mode,
                              capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
        floor = shlex.split(line)
        floor[0] = a.clang
        # warplint exits 1 on findings; clang exits 1 on host-side errors it tolerates.
        w = timed([a.warplint, "check", f, "--format", "json"] + mode, a.runs, (0, 1))
        c = timed(floor, a.runs, (0, 1))
        total_w += w
        total_f += c
        print("%-40s %9.3fs %9.3fs %6.2fx" % (os.path.relpath(f, root)[-40:], w, c, w / c))
    print("%-40s %9.3fs %9.3fs %6.2fx" % ("TOTAL (median of %d runs each)" % a.runs, total_w, total_f, total_w / total_f))


if __name__ == "__main__":
    main()
