#!/usr/bin/env python3
"""Not a test: do two warplint binaries give byte-identical findings?

Runs `warplint check FILE --format json` (with `-p DB` for database files)
for each binary over the inputs a speed change must not alter: every
tests/lit input, tests/gpu/corpus/*.cu, examples/*.cu, and optionally a
compile database's files and a tree of plain .cu files (real code outside
the repository). Each run's stdout, stderr and exit status are stored under
OUT/<label>/, with the CPU seconds it took; then the two sides are compared
file by file and every difference is listed.

usage:
  bench/same_findings.py --before OLD_BINARY --after NEW_BINARY --out DIR \
      [-p DB] [--tree DIR]... [--timeout 600] [-j 2]
  bench/same_findings.py --compare-only --out DIR   (reuse stored runs)
"""
import argparse, concurrent.futures, glob, json, os, subprocess, sys, threading, time

# The static analysis alone: where a toolkit is installed the default
# `--ptxas auto` would add nvcc compiles (cached) to some files' times and
# findings; a caller may still set WARPLINT_PTXAS itself.
os.environ.setdefault("WARPLINT_PTXAS", "off")

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inputs(a):
    """(key, argv tail) for each input; key names the stored result."""
    out = []
    repo = sorted(glob.glob(os.path.join(root, "tests", "lit", "**", "*.cu"), recursive=True) +
                  glob.glob(os.path.join(root, "tests", "gpu", "corpus", "*.cu")) +
                  glob.glob(os.path.join(root, "examples", "*.cu")))
    for f in repo:
        out.append(("repo/" + os.path.relpath(f, root), [f]))
    if a.p:
        with open(os.path.join(a.p, "compile_commands.json")) as fh:
            files = sorted({os.path.realpath(os.path.join(e["directory"], e["file"]))
                            for e in json.load(fh) if e["file"].endswith(".cu")})
        for f in files:
            out.append(("db/" + f.lstrip("/"), ["-p", a.p, f]))
    for t in a.tree:
        for f in sorted(glob.glob(os.path.join(t, "**", "*.cu"), recursive=True)):
            out.append(("tree/" + os.path.realpath(f).lstrip("/"), [f]))
    return out


def run_one(binary, tail, timeout, tmp):
    """stdout, stderr, exit status (None on timeout), wall and CPU seconds."""
    t0 = time.perf_counter()
    with open(tmp + ".out", "wb") as o, open(tmp + ".err", "wb") as e:
        p = subprocess.Popen([binary, "check", "--format", "json"] + tail, stdout=o, stderr=e)
        killer = threading.Timer(timeout, p.kill)
        killer.start()
        _, status, usage = os.wait4(p.pid, 0)  # this child's own CPU time, under any load
        killer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
    rc = None if p.returncode == -9 else p.returncode
    out, err = open(tmp + ".out", "rb").read(), open(tmp + ".err", "rb").read()
    os.remove(tmp + ".out")
    os.remove(tmp + ".err")
    return out, err, rc, time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def store(dirname, key, out, err, rc, secs, cpu):
    path = os.path.join(dirname, key.replace("/", "__"))
    with open(path + ".json", "wb") as fh:
        fh.write(out)
    with open(path + ".meta", "w") as fh:
        json.dump({"rc": rc, "seconds": round(secs, 3), "cpu": round(cpu, 3), "stderr": err.decode(errors="replace")[-2000:]}, fh)


def side(binary, label, items, a):
    d = os.path.join(a.out, label)
    os.makedirs(d, exist_ok=True)

    def work(item):
        key, tail = item
        tmp = os.path.join(d, "tmp-%d" % threading.get_ident())
        out, err, rc, secs, cpu = run_one(binary, tail, a.timeout, tmp)
        store(d, key, out, err, rc, secs, cpu)
        return key, rc, cpu

    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for key, rc, secs in ex.map(work, items):
            if rc is None or secs > 20:
                print("  %s %s: %s after %.1f CPU s" % (label, key, "TIMEOUT" if rc is None else "rc %d" % rc, secs),
                      flush=True)


def compare(a):
    before, after = os.path.join(a.out, "before"), os.path.join(a.out, "after")
    keys = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(before, "*.json")))
    same = differ = missing = 0
    tb = ta = 0.0
    worst = []
    for k in keys:
        pa = os.path.join(after, k + ".json")
        if not os.path.exists(pa):
            missing += 1
            continue
        mb = json.load(open(os.path.join(before, k + ".meta")))
        ma = json.load(open(os.path.join(after, k + ".meta")))
        tb += mb["cpu"]
        ta += ma["cpu"]
        worst.append((mb["cpu"], ma["cpu"], k.replace("__", "/")))
        b, c = open(os.path.join(before, k + ".json"), "rb").read(), open(pa, "rb").read()
        if b == c and mb["rc"] == ma["rc"]:
            same += 1
        else:
            differ += 1
            print("DIFFERS: %s (rc %s -> %s, %d -> %d bytes)" % (k.replace("__", "/"), mb["rc"], ma["rc"],
                                                                  len(b), len(c)))
    print("%d inputs: %d identical, %d differ, %d not run after" % (len(keys), same, differ, missing))
    print("CPU seconds: before %.1f, after %.1f" % (tb, ta))
    worst.sort(reverse=True)
    print("slowest before (before -> after CPU seconds):")
    for b, c, k in worst[:10]:
        print("  %7.1f -> %7.1f  %s" % (b, c, k))
    return differ == 0 and missing == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before")
    ap.add_argument("--after")
    ap.add_argument("--out", required=True)
    ap.add_argument("-p", help="compile database directory whose .cu files are checked with -p")
    ap.add_argument("--tree", action="append", default=[], help="a folder whose .cu files are checked plainly")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", choices=["before", "after"], help="run one side only")
    ap.add_argument("--compare-only", action="store_true")
    a = ap.parse_args()
    if not a.compare_only:
        items = inputs(a)
        print("%d inputs" % len(items), flush=True)
        for label, binary in (("before", a.before), ("after", a.after)):
            if a.only and a.only != label:
                continue
            if not binary:
                sys.exit("--%s is needed" % label)
            side(binary, label, items, a)
    sys.exit(0 if compare(a) else 1)


if __name__ == "__main__":
    main()
