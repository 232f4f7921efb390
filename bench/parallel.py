#!/usr/bin/env python3
"""Whole-project speed benchmark (not a test): `warplint check -p DB -j N`
against the parse floor run with the same parallelism.

The floor is the clang command warplint itself parses each file with
(`--print-clang-command`, driver renamed clang++-19): `clang++-19
-fsyntax-only --cuda-device-only` with the same flags, run N at a time. Prints
wall times and the ratio for each N, and the speed-up of warplint from -j 1.

usage: bench/parallel.py -p BUILD_DIR [--jobs 1,2] [--runs 3] [--limit K] [FILES...]
"""
import argparse, concurrent.futures, json, os, shlex, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def database_files(build_dir):
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    seen = []
    for e in entries:
        path = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        if path.endswith(".cu") and path not in seen:
            seen.append(path)
    return seen


def floor_commands(warplint, build_dir, files, clang):
    out = subprocess.run([warplint, "check", "-p", build_dir, "--print-clang-command"] + files,
                         capture_output=True, text=True, check=True).stdout.strip().splitlines()
    cmds = []
    for line in out:
        argv = shlex.split(line)
        argv[0] = clang
        cmds.append(argv)
    return cmds


def wall(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), max(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", dest="build_dir", required=True)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--warplint", default=os.path.join(root, "build", "bin", "warplint"))
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="only the first K files of the database")
    a = ap.parse_args()
    files = a.files or database_files(a.build_dir)
    if a.limit:
        files = files[: a.limit]
    floors = floor_commands(a.warplint, a.build_dir, files, a.clang)

    def run_warplint(n):
        r = subprocess.run([a.warplint, "check", "-p", a.build_dir, "-j", str(n), "--quiet",
                            "--format", "json", "-o", os.devnull] + files,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode not in (0, 1, 2):
            sys.exit("warplint failed (%d)" % r.returncode)

    def run_floor(n):
        with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
            list(pool.map(lambda argv: subprocess.run(argv, stdout=subprocess.DEVNULL,
                                                      stderr=subprocess.DEVNULL), floors))

    print("%d files, median of %d runs (min-max)" % (len(files), a.runs))
    print("%4s %22s %22s %7s %9s" % ("-j", "warplint", "floor", "ratio", "speed-up"))
    base = None
    for n in [int(x) for x in a.jobs.split(",")]:
        w = wall(lambda: run_warplint(n), a.runs)
        f = wall(lambda: run_floor(n), a.runs)
        base = base or w[0]
        print("%4d %8.2fs (%5.1f-%5.1f) %8.2fs (%5.1f-%5.1f) %6.2fx %8.2fx" %
              (n, w[0], w[1], w[2], f[0], f[1], f[2], w[0] / f[0], base / w[0]))


if __name__ == "__main__":
    main()
