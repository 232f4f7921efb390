#!/usr/bin/env python3
"""Reach benchmark (not a test): how much of real code warplint's model reaches.

Runs `warplint check --dump-model` on every file (of a compile database with
-p, or the files given) and prints:
  - the share of __global__ kernels whose block shape came from the code, by
    origin (launch, pointer, member assignment, launch_bounds, ..., default);
  - the share of shared and global accesses that got a warp evaluation (an
    access instance no thread of the block takes under its own constants,
    class "not executed", is counted apart);
  - for the accesses left unevaluated, a histogram of the reason classes the
    analyzer gave, and the number left with no reason at all (unexplained).
Kernels and accesses in headers seen by several files are counted once.
Targets (issue 10): >= 90% shapes from code, >= 90% evaluated, 0 unexplained.

usage: bench/reach.py [-p BUILD_DIR] [FILES...] [--warplint PATH] [-j N]
                      [--json OUT.json] [--examples N] [--timeout S] [--targets]
"""
import argparse, collections, concurrent.futures, json, os, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
slow = []  # (seconds, file) of each file that finished


def database_files(build_dir):
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    files = []
    for e in entries:
        path = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        if path.endswith(".cu") and path not in files:
            files.append(path)
    return files


def dump_model(warplint, build_dir, path, timeout=None):
    cmd = [warplint, "check", "--dump-model"]
    if build_dir:
        cmd += ["-p", build_dir]
    cmd.append(path)
    start = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        slow.append((time.time() - start, path))
    except subprocess.TimeoutExpired:
        return [], "timed out after %ds" % timeout
    try:
        return json.loads(r.stdout), None
    except json.JSONDecodeError:
        return [], "exit %d, no model: %s" % (r.returncode, r.stderr.strip().splitlines()[-1:] or "")


def loc_key(loc):
    return (loc.get("file", ""), loc.get("line", 0), loc.get("column", 0))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", dest="build_dir")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--warplint", default=os.path.join(root, "build", "bin", "warplint"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", help="write the counts here as JSON")
    ap.add_argument("--examples", type=int, default=0, help="show N example accesses per unevaluated class")
    ap.add_argument("--timeout", type=int, help="seconds per file; a file that takes longer counts as without a model")
    ap.add_argument("--targets", action="store_true", help="exit 1 unless the issue-10 targets are met")
    args = ap.parse_args()

    files = list(args.files)
    if args.build_dir and not files:
        files = database_files(args.build_dir)
    if not files:
        ap.error("no files: give -p BUILD_DIR or FILES")

    kernels = {}   # key -> origin
    kernel_where = {}  # key -> "file:line: name"
    accesses = {}  # key -> (evaluated, class, reason, text)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        for path, (units, err) in zip(files, pool.map(lambda f: dump_model(args.warplint, args.build_dir, f, args.timeout), files)):
            if err:
                failed.append((path, err))
                continue
            for unit in units:
                if not unit.get("parsed", False):
                    failed.append((path, unit.get("fatal_error", "not parsed")))
                for k in unit.get("kernels", []):
                    kkey = loc_key(k["loc"]) + (k["name"], k.get("template_args", ""))
                    if k.get("global"):
                        # A kernel file analyzed alone and again through the file that
                        # includes and launches it: the shape from code wins.
                        origin = k.get("block_origin") or "(none)"
                        if kernels.get(kkey, "default") in ("default", "(none)"):
                            kernels[kkey] = origin
                            kernel_where[kkey] = "%s:%d: %s" % (k["loc"].get("file", ""), k["loc"].get("line", 0), k["name"])
                    for a in k.get("accesses", []):
                        if a.get("space") not in ("shared", "global"):
                            continue
                        akey = loc_key(a["loc"]) + kkey
                        why = a.get("unevaluated", {})
                        entry = (bool(a.get("evals")), why.get("class", ""), why.get("reason", ""),
                                 "%s:%d: %s" % (a["loc"]["file"], a["loc"]["line"], a.get("text", "")))
                        old = accesses.get(akey)
                        # The same access evaluated in one instantiation counts as reached.
                        if old is None or (entry[0] and not old[0]):
                            accesses[akey] = entry

    origins = collections.Counter(kernels.values())
    n_k = len(kernels)
    from_code = n_k - origins.get("default", 0) - origins.get("(none)", 0)
    # An access instance that no thread of the block takes under the
    # instance's own constants ("not executed": the blockSize >= 512 step of
    # a reduction instantiated with 64) has no warp to evaluate; it is
    # counted apart and left out of the share, which is also printed with it.
    not_executed = sum(1 for e in accesses.values() if not e[0] and e[1] == "not executed")
    n_a = len(accesses) - not_executed
    evaluated = sum(1 for e in accesses.values() if e[0])
    classes = collections.Counter(e[1] or "(unexplained)" for e in accesses.values()
                                  if not e[0] and e[1] != "not executed")
    unexplained = classes.get("(unexplained)", 0)

    def pct(a, b):
        return 100.0 * a / b if b else 0.0

    print("files: %d (%d without a model)" % (len(files), len(failed)))
    print("kernels (__global__): %d, block shape from the code: %d (%.1f%%)" % (n_k, from_code, pct(from_code, n_k)))
    for origin, n in origins.most_common():
        print("  %-24s %5d  %5.1f%%" % (origin, n, pct(n, n_k)))
        if args.examples and origin in ("default", "(none)"):
            for key in [key for key, o in kernels.items() if o == origin][: args.examples]:
                print("      %s" % kernel_where[key])
    print("shared+global accesses: %d executed + %d not executed in their instance (no thread passes the guards)"
          % (n_a, not_executed))
    print("evaluated: %d of %d executed (%.1f%%); %.1f%% counting the not-executed ones as unevaluated"
          % (evaluated, n_a, pct(evaluated, n_a), pct(evaluated, n_a + not_executed)))
    for cls, n in classes.most_common():
        print("  unevaluated: %-34s %5d  %5.1f%%" % (cls, n, pct(n, n_a)))
        if args.examples:
            shown = [e for e in accesses.values() if not e[0] and (e[1] or "(unexplained)") == cls][: args.examples]
            for e in shown:
                print("      %s  [%s]" % (e[3], e[2]))
    print("unexplained: %d" % unexplained)
    for path, err in failed[:10]:
        print("  no model: %s (%s)" % (path, err))
    for seconds, path in sorted(slow, reverse=True)[:5]:
        if seconds >= 60:
            print("  slow: %s took %.0fs" % (path, seconds))

    result = {"files": len(files), "files_without_model": len(failed), "kernels": n_k,
              "kernels_shape_from_code": from_code, "origins": dict(origins), "accesses": n_a,
              "accesses_not_executed": not_executed,
              "accesses_evaluated": evaluated, "unevaluated_classes": dict(classes), "unexplained": unexplained}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2, sort_keys=True)
    if args.targets:
        ok = pct(from_code, n_k) >= 90 and pct(evaluated, n_a) >= 90 and unexplained == 0
        print("targets (>= 90% shapes, >= 90% evaluated, 0 unexplained):", "met" if ok else "NOT met")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
