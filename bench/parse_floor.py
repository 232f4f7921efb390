#!/usr/bin/env python3
"""Speed benchmark (not a test): warplint check against the parse floor.

For every TU, runs `warplint check` and the clang command warplint itself
parses with (`--print-clang-command`, driver renamed clang++-19), which is
`clang++-19 -fsyntax-only --cuda-device-only` with the same flags. Prints the
median of N runs of each (in turns, after one untimed run of each) and the
ratio of the totals. Target: <= 1.15.

With `--cpu`, the CPU seconds (user + system) of each process are compared
instead of wall time: steadier on a machine other jobs share. `-p DB` checks
database files with their own flags; `--timeout S` stops a pathological
file's warplint run and lists it (its ratio is then a lower bound).

usage: bench/parse_floor.py [--warplint build/bin/warplint] [--runs 5] [--no-cuda-toolkit]
                            [--cpu] [-p DB] [--timeout S] [FILES...]
"""
import argparse, glob, os, re, shlex, statistics, subprocess, sys, tempfile, threading, time

# The static analysis alone: where a toolkit is installed the default
# `--ptxas auto` would add nvcc compiles (cached) to some files' times and
# findings; a caller may still set WARPLINT_PTXAS itself.
os.environ.setdefault("WARPLINT_PTXAS", "off")

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_once(cmd, ok_codes, cpu=False, timeout=None):
    """Seconds of one run, and whether it ran past `timeout`."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killer = threading.Timer(timeout, p.kill) if timeout else None
    if killer:
        killer.start()
    _, status, usage = os.wait4(p.pid, 0)
    if killer:
        killer.cancel()
    code = os.waitstatus_to_exitcode(status)
    seconds = usage.ru_utime + usage.ru_stime if cpu else time.perf_counter() - t0
    if code == -9 and timeout:
        return seconds, True
    if code not in ok_codes:
        sys.exit("command failed (%d): %s" % (code, " ".join(cmd)))
    return seconds, False


def timed_pair(first, second, runs, ok_codes, cpu=False, timeout=None):
    """Medians of `runs` runs of each command, run in turns (first, second,
    first, ...) after one untimed run of each: a drift of the host's speed
    then weighs on both alike, and neither pays for warming the caches
    alone. Where `first` runs past `timeout` it is not run again: its time
    so far stands (a lower bound) beside the median of `second` alone."""
    run_once(second, ok_codes, cpu)
    seconds, late = run_once(first, ok_codes, cpu, timeout)
    if late:
        return seconds, statistics.median([run_once(second, ok_codes, cpu)[0] for _ in range(runs)]), True
    a, b = [], []
    for _ in range(runs):
        seconds, late = run_once(first, ok_codes, cpu, timeout)
        a.append(seconds)
        b.append(run_once(second, ok_codes, cpu)[0])
        if late:
            break
    return statistics.median(a), statistics.median(b), late


MISSING = re.compile(r"fatal error: '([^']+)' file not found")


def with_stand_ins(floor, stand_ins):
    """The floor command, parsing headers it does not find as empty files
    under `stand_ins`, as warplint does (the same names, at most 8)."""
    cmd = list(floor)
    for _ in range(8):
        p = subprocess.run(cmd, capture_output=True, text=True)
        m = MISSING.search(p.stderr)
        if not m or m.group(1).startswith("/") or ".." in m.group(1):
            return cmd
        path = os.path.join(stand_ins, m.group(1))
        if os.path.exists(path):
            return cmd
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").close()
        if "-idirafter" not in cmd or stand_ins not in cmd:
            cmd[1:1] = ["-idirafter", stand_ins]
    return cmd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", default=os.path.join(root, "build", "bin", "warplint"))
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cuda-toolkit", action="store_true")
    ap.add_argument("--cpu", action="store_true", help="compare CPU seconds, not wall time")
    ap.add_argument("-p", help="compile database directory for the files")
    ap.add_argument("--timeout", type=float, help="seconds before a warplint run is stopped")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(root, "examples", "*.cu")) +
                              glob.glob(os.path.join(root, "tests", "lit", "rules", "*.cu")) +
                              glob.glob(os.path.join(root, "bench", "inputs", "*.cu")))
    mode = ["--no-cuda-toolkit"] if a.no_cuda_toolkit else []
    if a.p:
        mode += ["-p", a.p]
    stopped = []
    ratios = []
    total_w = total_f = 0.0
    print("%-40s %10s %10s %7s" % ("file", "warplint", "floor", "ratio"))
    for f in files:
        line = subprocess.run([a.warplint, "check", f, "--print-clang-command"] + mode,
                              capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
        floor = shlex.split(line)
        floor[0] = a.clang
        # warplint exits 1 on findings; clang exits 1 on host-side errors it tolerates.
        with tempfile.TemporaryDirectory(prefix="floor-stand-ins-") as stand_ins:
            w, c, late = timed_pair([a.warplint, "check", f, "--format", "json"] + mode,
                                    with_stand_ins(floor, stand_ins), a.runs, (0, 1), a.cpu, a.timeout)
        if late:
            stopped.append(f)
        total_w += w
        total_f += c
        ratios.append(w / c)
        print("%-40s %9.3fs %9.3fs %6.2fx%s" % (os.path.relpath(f, root)[-40:], w, c, w / c,
                                              " (stopped at the timeout)" if late else ""), flush=True)
    print("%-40s %9.3fs %9.3fs %6.2fx" % ("TOTAL (%s, median of %d runs each)" % ("CPU" if a.cpu else "wall", a.runs),
                                          total_w, total_f, total_w / total_f))
    if ratios:
        r = sorted(ratios)
        p90 = r[min(len(r) - 1, int(round(0.9 * (len(r) - 1))))]
        print("per-file ratio: median %.2fx, p90 %.2fx, max %.2fx over %d files; above 3x: %d" %
              (statistics.median(r), p90, r[-1], len(r), sum(x > 3 for x in r)))
    for f in stopped:
        print("stopped at the timeout (%gs): %s" % (a.timeout, f))


if __name__ == "__main__":
    main()
