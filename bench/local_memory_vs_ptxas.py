#!/usr/bin/env python3
"""private-array-local-memory against ptxas's stack frames, per kernel.

Each listed file is compiled with `nvcc -arch=sm_90 -cubin -Xptxas -v` (its own
directory and its corpus's shared include directories on the path); files
nvcc rejects are skipped and counted. ptxas prints, for every entry function,
"N bytes stack frame, S bytes spill stores, L bytes spill loads". The rule is
run with `warplint check --rules private-array-local-memory --format json` and
scored per (file, kernel name), the instantiations of a template kernel taken
together (the largest frame):

A kernel has an array frame when ptxas's frame is larger than its spill
stores and the kernel's PTX (`nvcc -ptx`, compiled only for kernels with a
finding or such a frame, cached) declares a __local_depot: NVVM leaves there
the private arrays it could not promote to registers, while a frame without
a depot is ptxas's own (spills, or a library call it inlines, such as the
40-byte buffer of double sin/cos's slow path).

  finding and an array frame                true positive
  finding and no array frame                false positive
  no finding, an array frame, and a
  private array in the kernel's model
  (--dump-model)                            false negative
  no finding, no such frame                 true negative (kernels with a
                                            private array only)

A frame no larger than the spill stores is register spilling, not an array,
and is not counted as a miss; nor is a frame beyond the spills with no depot
(frame_without_depot). A frame with a depot in a kernel whose model shows
no private array (printf's argument buffer, a local struct whose address is
taken) is listed apart (frame_without_array).

  select   choose the file list (bench/local_memory_files.txt): every HeCBench
           *-cuda main.cu the rule warns on, a fixed-seed sample of 60 other
           main.cu files that declare a local array, and every Rodinia cuda/
           and cuda-samples .cu file that declares one
  score    compile (cached: ptxas's output does not depend on warplint) and
           score one warplint binary; --label names its result file

  python3 bench/local_memory_vs_ptxas.py select --hecbench HB --rodinia ROD --cuda-samples CS
  python3 bench/local_memory_vs_ptxas.py score --hecbench HB --rodinia ROD --cuda-samples CS \
      --warplint build/bin/warplint --label after -j 1
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "local_memory_files.txt")
NVCC = "/usr/local/cuda/bin/nvcc"

# A local array declaration in a function body: indented, a type, a name,
# at least one extent. Only to pick files; the rule's own model decides.
LOCAL_ARRAY = re.compile(
    r"^[ \t]+(?:const\s+)?(?:unsigned\s+)?[A-Za-z_][\w:<>]*\s+\**\w+\s*(?:\[[^\]\n]+\])+\s*(?:=[^;]*)?;", re.M)


def has_local_array(path):
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return False
    for m in LOCAL_ARRAY.finditer(text):
        line = m.group(0)
        if not re.search(r"__shared__|__constant__|\bstatic\b|\bextern\b|\breturn\b|\bdelete\b|\bnew\b", line):
            return True
    return False


def roots(args):
    return {"hecbench": args.hecbench, "rodinia": args.rodinia, "cuda-samples": args.cuda_samples}


def include_dirs(corpus, root, path):
    d = os.path.dirname(path)
    dirs = [d]
    if corpus == "hecbench":
        dirs.append(os.path.join(root, "src", "include"))
    elif corpus == "rodinia":
        dirs.append(os.path.dirname(d))
    elif corpus == "cuda-samples":
        dirs.append(os.path.join(root, "Common"))
    return [f for x in dirs for f in ("-I", x)]


def run(cmd, timeout, cwd=None):
    try:
        p = subprocess.run(["nice"] + cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"


def warplint_findings(warplint, corpus, root, path, extra=()):
    rc, out, err = run([warplint, "check", path, "--rules", "private-array-local-memory", "--format", "json",
                        "--fail-min-gain", "0", "--quiet", *extra, "--", *include_dirs(corpus, root, path)], 600)
    try:
        return rc, json.loads(out)
    except ValueError:
        return rc, None


def select(args):
    r = roots(args)
    hb = sorted(os.path.join(r["hecbench"], "src", d, "main.cu") for d in os.listdir(os.path.join(r["hecbench"], "src"))
                if d.endswith("-cuda") and os.path.exists(os.path.join(r["hecbench"], "src", d, "main.cu")))
    flagged = []
    # Results of an earlier (interrupted) scan, its "[i/n] W|. path" lines.
    done = {}
    for log in args.reuse:
        for line in open(log):
            if line.startswith("[") and len(line.split()) == 3:
                done[line.split()[2]] = line.split()[1] == "W"
    scanned = [p for p in hb if p in done or not args.prefilter or has_local_array(p)]

    def scan(path):
        if path in done:
            return path, done[path]
        rc, j = warplint_findings(args.warplint, "hecbench", r["hecbench"], path)
        return path, bool(j and j.get("findings"))

    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for i, (path, hit) in enumerate(pool.map(scan, scanned)):
            if hit:
                flagged.append(path)
            print(f"[{i + 1}/{len(scanned)}] {'W' if hit else '.'} {path}", file=sys.stderr)
    others = [p for p in hb if p not in flagged and has_local_array(p)]
    sample = sorted(random.Random(19).sample(others, min(60, len(others))))
    rows = [("hecbench", os.path.relpath(p, r["hecbench"]), "flagged") for p in flagged]
    rows += [("hecbench", os.path.relpath(p, r["hecbench"]), "sample") for p in sample]
    for corpus, sub in (("rodinia", "cuda"), ("cuda-samples", "Samples")):
        for dp, _, files in os.walk(os.path.join(r[corpus], sub)):
            for f in sorted(files):
                p = os.path.join(dp, f)
                if f.endswith(".cu") and has_local_array(p):
                    rows.append((corpus, os.path.relpath(p, r[corpus]), "local-array"))
    rows.sort()
    with open(LIST, "w") as out:
        out.write(f"# corpus path why -- written by `local_memory_vs_ptxas.py select` on "
                  f"{time.strftime('%Y-%m-%d', time.gmtime())} ({len(scanned)} of {len(hb)} HeCBench main.cu scanned, "
                  f"{len(flagged)} flagged, {len(others)} others with a local array)\n")
        for row in rows:
            out.write(" ".join(row) + "\n")
    print(f"{len(rows)} files -> {LIST}")


FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
ENTRY = re.compile(r"Compiling entry function '(\S+)'")
PROPS = re.compile(r"Function properties for (\S+)")


def demangle(names):
    if not names:
        return {}
    p = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return dict(zip(names, p.stdout.splitlines()))


def base_name(demangled):
    s = demangled.split("(")[0]
    s = s.split("<")[0]
    s = s.split(" ")[-1]
    return s.split("::")[-1]


def ptxas_kernels(text):
    """kernel base name -> (largest frame, its spill stores, instantiations)."""
    entries, frames, current = set(), {}, None
    for line in text.splitlines():
        if m := ENTRY.search(line):
            entries.add(m.group(1))
        elif m := PROPS.search(line):
            current = m.group(1)
        elif current and (m := FRAME.search(line)):
            frames[current] = (int(m.group(1)), int(m.group(2)))
            current = None
    names = demangle(sorted(entries))
    best = {}
    for mangled in entries:
        frame, spill = frames.get(mangled, (0, 0))
        b = base_name(names.get(mangled, mangled))
        cand = (frame - spill, frame, spill)
        n = best[b][1] + 1 if b in best else 1
        best[b] = (max(cand, best[b][0]) if b in best else cand, n)
    # the instantiation with the most non-spill frame bytes, then the largest frame
    return {b: (c[1], c[2], n) for b, (c, n) in best.items()}


def compile_file(cache, corpus, root, rel):
    key = os.path.join(cache, "nvcc", corpus, rel.replace("/", "__") + ".json")
    if os.path.exists(key):
        return json.load(open(key))
    path = os.path.join(root, rel)
    t = time.time()
    # Device code only (-cubin: no host compilation, half the time); dynamic
    # parallelism samples need relocatable device code.
    cmd = [NVCC, "-arch=sm_90", "-cubin", "-Xptxas", "-v", path, *include_dirs(corpus, root, path), "-o", "/dev/null"]
    rc, out, err = run(cmd, 600, cwd=os.path.dirname(path))
    if rc != 0 and ("-rdc" in err + out or "separate compilation" in err + out):
        rc, out, err = run(cmd[:1] + ["-rdc=true"] + cmd[1:], 600, cwd=os.path.dirname(path))
    res = {"rc": rc, "seconds": round(time.time() - t, 1), "kernels": ptxas_kernels(out + err) if rc == 0 else {},
           "error": "" if rc == 0 else (err.strip().splitlines() or ["?"])[-1][:300]}
    os.makedirs(os.path.dirname(key), exist_ok=True)
    json.dump(res, open(key, "w"))
    return res


DEPOT = re.compile(r"__local_depot\d+\[(\d+)\]")
PTX_ENTRY = re.compile(r"\.entry\s+(\S+?)\(")


def ptx_depots(cache, corpus, root, rel):
    """kernel base name -> the largest local depot its PTX declares (bytes).

    NVVM puts every private array it could not promote to registers in the
    function's __local_depot; ptxas's own spills and the frames of library
    calls it inlines (double sin/cos's 40-byte reduction buffer) are not
    there. ptxas can still promote a small depot to registers (frame 0)."""
    key = os.path.join(cache, "ptx", corpus, rel.replace("/", "__") + ".json")
    if os.path.exists(key):
        return json.load(open(key))
    path = os.path.join(root, rel)
    out = key[:-5] + ".ptx"
    os.makedirs(os.path.dirname(key), exist_ok=True)
    cmd = [NVCC, "-arch=sm_90", "-ptx", path, *include_dirs(corpus, root, path), "-o", out]
    rc, o, err = run(cmd, 600, cwd=os.path.dirname(path))
    if rc != 0 and ("-rdc" in err + o or "separate compilation" in err + o):
        rc, o, err = run(cmd[:1] + ["-rdc=true"] + cmd[1:], 600, cwd=os.path.dirname(path))
    depots = {}
    if rc == 0:
        current = None
        for line in open(out):
            if m := PTX_ENTRY.search(line):
                current = m.group(1)
                depots.setdefault(current, 0)
            elif current and (m := DEPOT.search(line)):
                depots[current] = max(depots[current], int(m.group(1)))
        os.remove(out)
    names = demangle(sorted(depots))
    res = {}
    for mangled, size in depots.items():
        b = base_name(names.get(mangled, mangled))
        res[b] = max(res.get(b, 0), size)
    json.dump({"rc": rc, "depots": res}, open(key, "w"))
    return {"rc": rc, "depots": res}


def model_arrays(warplint, corpus, root, path):
    """kernel name -> number of private arrays in its model (declared in it or its callees)."""
    rc, out, err = run([warplint, "check", path, "--dump-model", "--quiet", "--",
                        *include_dirs(corpus, root, path)], 600)
    try:
        units = json.loads(out)
    except ValueError:
        return {}
    res = {}
    for u in units if isinstance(units, list) else [units]:
        for k in u.get("kernels", []):
            n = len((k.get("private_memory") or {}).get("arrays", []))
            res[k.get("name")] = max(res.get(k.get("name"), 0), n)
    return res


def score(args):
    r = roots(args)
    rows = [l.split() for l in open(LIST) if l.strip() and not l.startswith("#")]
    cache = args.cache
    label = args.label

    def one(row):
        corpus, rel, why = row
        root = r[corpus]
        c = compile_file(cache, corpus, root, rel)
        res = {"corpus": corpus, "file": rel, "why": why, "nvcc_rc": c["rc"], "nvcc_error": c["error"]}
        if c["rc"] != 0:
            return res
        path = os.path.join(root, rel)
        if args.skip_frameless and not any(f > 0 for f, _, _ in c["kernels"].values()):
            # --ptxas-confirm silences every kernel with a 0-byte frame: no
            # finding is possible, and no kernel here has an array frame.
            res["kernels"] = {name: {"frame": 0, "spill": 0, "instantiations": inst, "findings": []}
                              for name, (_, _, inst) in c["kernels"].items()}
            res["skipped_frameless"] = True
            return res
        t = time.time()
        rc, j = warplint_findings(args.warplint, corpus, root, path, args.warplint_arg)
        res["warplint_rc"], res["warplint_seconds"] = rc, round(time.time() - t, 1)
        findings = {}
        for f in (j or {}).get("findings", []):
            findings.setdefault(f["kernel"], []).append(
                {"array": f["details"].get("array"), "line": f["line"],
                 "causes": [x.get("kind") + (":" + x["cause"] if "cause" in x else "")
                            for x in f["details"].get("causes", [])]})
        res["kernels"] = {}
        need_model = []
        for name, (frame, spill, inst) in c["kernels"].items():
            res["kernels"][name] = {"frame": frame, "spill": spill, "instantiations": inst,
                                    "findings": findings.pop(name, [])}
            if not res["kernels"][name]["findings"] and frame > spill:
                need_model.append(name)
        res["unmatched_findings"] = findings  # kernels ptxas did not list (device functions, host-only)
        # The PTX's local depots, for the kernels whose verdict depends on
        # where the frame comes from: a finding, or a frame beyond spills.
        if any(k["findings"] or k["frame"] > k["spill"] for k in res["kernels"].values()):
            d = ptx_depots(cache, corpus, root, rel)
            for name, k in res["kernels"].items():
                k["ptx_depot"] = d["depots"].get(name) if d["rc"] == 0 else None
        if need_model:
            arrays = model_arrays(args.warplint, corpus, root, path)
            for name in need_model:
                res["kernels"][name]["model_arrays"] = arrays.get(name, 0)
        return res

    results = []
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for i, res in enumerate(pool.map(one, rows)):
            results.append(res)
            print(f"[{i + 1}/{len(rows)}] {res['corpus']} {res['file']} nvcc={res['nvcc_rc']}", file=sys.stderr)
    tally = {"files": len(results), "nvcc_failed": 0, "warplint_failed": 0, "kernels": 0,
             "tp": 0, "fp": 0, "fn": 0, "tn": 0, "frame_without_array": 0, "frame_without_depot": 0, "spill_only": 0, "unmatched_findings": 0}
    cases = {"tp": [], "fp": [], "fn": []}
    for res in results:
        if res["nvcc_rc"] != 0:
            tally["nvcc_failed"] += 1
            continue
        if res.get("warplint_rc", 0) not in (0, 1):
            tally["warplint_failed"] += 1
        tally["unmatched_findings"] += sum(len(v) for v in res.get("unmatched_findings", {}).values())
        for name, k in res["kernels"].items():
            tally["kernels"] += 1
            where = (f"{res['corpus']}:{res['file']}:{name} frame={k['frame']} spill={k['spill']} "
                     f"depot={k.get('ptx_depot')}")
            # A private array in local memory: a frame beyond the spill
            # stores, and a local depot in the kernel's PTX (not a frame
            # ptxas made for spills or an inlined library call).
            array_frame = k["frame"] > k["spill"] and (k.get("ptx_depot") is None or k["ptx_depot"] > 0)
            if k["findings"]:
                kind = "tp" if array_frame else "fp"
                tally[kind] += 1
                cases[kind].append(where + " " + ",".join(sorted({c for f in k["findings"] for c in f["causes"]})))
            elif array_frame:
                if k.get("model_arrays", 0) > 0:
                    tally["fn"] += 1
                    cases["fn"].append(where)
                else:
                    tally["frame_without_array"] += 1
            elif k["frame"] > k["spill"]:
                tally["frame_without_depot"] += 1
            elif k["frame"] > 0:
                tally["spill_only"] += 1
            else:
                tally["tn"] += 0  # kernels without a private array are not counted as negatives
    tp, fp, fn = tally["tp"], tally["fp"], tally["fn"]
    tally["precision"] = round(tp / (tp + fp), 3) if tp + fp else None
    tally["recall"] = round(tp / (tp + fn), 3) if tp + fn else None
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    out = os.path.join(HERE, "results", f"local_memory_vs_ptxas-{label}.json")
    json.dump({"label": label, "warplint": args.warplint, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "tally": tally, "cases": cases, "files": results}, open(out, "w"), indent=1, sort_keys=True)
    print(json.dumps(tally, indent=1))
    for kind in ("fp", "fn"):
        for c in cases[kind]:
            print(kind.upper(), c)
    print("->", out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["select", "score"])
    ap.add_argument("--hecbench", required=True, help="HeCBench checkout (holds src/)")
    ap.add_argument("--rodinia", required=True, help="gpu-rodinia checkout (holds cuda/)")
    ap.add_argument("--cuda-samples", required=True, help="cuda-samples checkout (holds Samples/, Common/)")
    ap.add_argument("--warplint", default=os.path.join(HERE, "..", "build", "bin", "warplint"))
    ap.add_argument("--warplint-arg", action="append", default=[], help="extra argument to warplint check")
    ap.add_argument("--label", default="run")
    ap.add_argument("--cache", default="/tmp/local_memory_vs_ptxas")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--skip-frameless", action="store_true",
                    help="score: with --warplint-arg=--ptxas-confirm only, skip the files where ptxas gives every "
                         "kernel a 0-byte frame (the confirmation silences all of them)")
    ap.add_argument("--reuse", action="append", default=[], help="select: the log of an earlier scan to reuse")
    ap.add_argument("--prefilter", action="store_true",
                    help="select: scan only the files not in --reuse that declare a local array")
    args = ap.parse_args()
    (select if args.mode == "select" else score)(args)


if __name__ == "__main__":
    main()
