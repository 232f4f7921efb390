#!/usr/bin/env python3
"""warplint verify: check warplint's findings against Nsight Compute.

    warplint verify [options] FILE... -- PROGRAM [ARGS...]
    warplint verify --before-after [options] BEFORE.cu -- PROGRAM [ARGS...]

Runs `warplint check` on FILE..., runs PROGRAM under ncu (one report per
kernel that warplint saw, first launch of each, source counters only),
exports the per-instruction source page and reports, per finding, whether
the counters confirmed it or contradicted it, and which lines show excess
shared wavefronts or global sectors that no finding names. Build PROGRAM
with -lineinfo so that ncu can map instructions to lines.

With --before-after it measures what a fix is worth instead: the program
built from BEFORE.cu and the one built from the fixed source (--after-program,
or --pair BASELINE:CHANGED kernels of one program) under ncu, per-kernel
time before and after, the measured speedup against warplint's predicted
one, and the model's component fractions against ncu's throughputs
(driver/verify/before_after.py; `warplint verify --before-after --help`).

Needs an NVIDIA GPU and ncu; without them it says so and exits 2
(--csv-dir replays recorded CSVs without either).
Exit status: 0 every finding confirmed and nothing missed, 1 otherwise,
2 usage error or no GPU/ncu. python3 standard library only.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_source  # noqa: E402

RULE_SPACE = {"shared-bank-conflict": "shared", "global-uncoalesced": "global"}


def find_ncu(explicit):
    cands = [explicit, os.environ.get("NCU"), shutil.which("ncu"), "/usr/local/cuda/bin/ncu"]
    cands += sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"), reverse=True)
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def have_gpu():
    smi = shutil.which("nvidia-smi")
    if smi:
        r = subprocess.run([smi, "-L"], capture_output=True, text=True)
        if r.returncode == 0 and "GPU" in r.stdout:
            return True
    return os.path.exists("/dev/nvidia0")


def run_check(warplint, files, flags):
    cmd = [warplint, "check", "--format", "json", *files]
    dump = [warplint, "check", "--dump-model", *files]
    if flags:
        cmd += ["--", *flags]
        dump += ["--", *flags]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("warplint: error: check failed:\n" + r.stderr[-3000:])
    d = subprocess.run(dump, capture_output=True, text=True)
    model = json.loads(d.stdout) if d.returncode in (0, 1) and d.stdout.strip() else []
    return json.loads(r.stdout), model


def profile(ncu, prog, kernels, workdir, launches, log):
    """One ncu report per kernel name: its first `launches[name]` launches."""
    csvs = []
    for i, name in enumerate(sorted(kernels)):
        rep = os.path.join(workdir, "k%d" % i)
        cmd = [ncu, "--section", "SourceCounters", "--section", "MemoryWorkloadAnalysis_Tables",
               "--import-source", "yes", "-f", "-o", rep,
               "-k", "regex:^%s$" % name, "--launch-count", str(launches.get(name, 1)), *prog]
        r = subprocess.run(cmd, capture_output=True, text=True)
        log.write(" ".join(cmd) + "\n" + r.stdout[-2000:] + r.stderr[-2000:] + "\n")
        if not os.path.exists(rep + ".ncu-rep"):
            continue
        out = os.path.join(workdir, "k%d.sass.csv" % i)
        with open(out, "w") as fh:
            subprocess.run([ncu, "-i", rep + ".ncu-rep", "--page", "source", "--csv",
                            "--print-source", "cuda,sass"], stdout=fh, stderr=log)
        csvs.append(out)
    return csvs


def line_numbers(lc, space):
    if space == "shared":
        return {"ratio": lc.shared_ratio() or 0.0, "wavefronts": lc.shared_wavefronts,
                "ideal": lc.shared_ideal, "requests": lc.shared_requests,
                "excess": lc.shared_wavefronts - lc.shared_ideal}
    return {"ratio": lc.global_ratio() or 0.0, "sectors": lc.global_sectors,
            "ideal": lc.global_ideal, "requests": lc.global_requests,
            "per_request": lc.sectors_per_request(),
            "excess": lc.global_sectors - lc.global_ideal}


def has_traffic(lc, space):
    return (lc.shared_ideal > 0) if space == "shared" else (lc.global_requests > 0)


def judge(report, model, reps, files):
    findings = defaultdict(list)
    for f in report.get("findings", []):
        if f["rule"] in RULE_SPACE:
            findings[(os.path.basename(f["file"]), f["line"])].append(f)
    model_lines = {"shared": defaultdict(list), "global": defaultdict(list)}
    for unit in model:
        for ki, k in enumerate(unit.get("kernels", [])):
            for a in k.get("accesses", []):
                if a["space"] in model_lines:
                    key = (os.path.basename(a["loc"]["file"]), a["loc"]["line"])
                    model_lines[a["space"]][key].append((ki, k["name"], a))
    corpus = {os.path.basename(f) for f in files}
    moves = ncu_source.repair_attribution(reps, model_lines, corpus)
    # worst report per (line, space)
    meas = {}
    for name, func, lines in reps:
        for key, lc in lines.items():
            if key[0] not in corpus:
                continue
            for space in ("shared", "global"):
                if not has_traffic(lc, space):
                    continue
                m = line_numbers(lc, space)
                m["kernel"] = ncu_source.kernel_base(func)
                m["source"] = lc.source
                old = meas.get((key, space))
                if old is None or m["ratio"] > old["ratio"]:
                    meas[(key, space)] = m
    out = {"confirmed": [], "contradicted": [], "not_measured": [], "missed": [],
           "line_moves": ["%s:%d -> %s:%d (%s)" % (a[0], a[1], b[0], b[1], sp) for _, sp, a, b in moves]}
    for key, fl in sorted(findings.items()):
        for f in fl:
            space = RULE_SPACE[f["rule"]]
            m = meas.get((key, space))
            item = {"file": key[0], "line": key[1], "rule": f["rule"], "kernel": f.get("kernel"),
                    "message": f["message"], "measured": m}
            if m is None:
                out["not_measured"].append(item)
            elif ncu_source.measured_positive(space, m):
                out["confirmed"].append(item)
            else:
                out["contradicted"].append(item)
    flagged = {(k, RULE_SPACE[f["rule"]]) for k, fl in findings.items() for f in fl}
    for (key, space), m in sorted(meas.items()):
        if (key, space) in flagged or not ncu_source.measured_positive(space, m):
            continue
        known = all(a.get("index_known") for _, _, a in model_lines[space].get(key, []))
        out["missed"].append({"file": key[0], "line": key[1], "space": space, "measured": m,
                              "why": ("warplint saw no access of this space on the line"
                                      if key not in model_lines[space] else
                                      "affine access judged conflict-free/coalesced" if known else
                                      "index not affine (data-dependent or reassigned): not analyzed")})
    out["missed"].sort(key=lambda x: -x["measured"]["excess"])
    return out


def describe(m, space):
    if m is None:
        return "no traffic measured"
    if space == "shared":
        return "%.0f wavefronts for %.0f ideal (%.2fx), %.0f requests" % (
            m["wavefronts"], m["ideal"], m["ratio"], m["requests"])
    return "%.0f sectors for %.0f ideal (%.2fx), %.2f sectors/request" % (
        m["sectors"], m["ideal"], m["ratio"], m["per_request"] or 0)


def print_text(res, fh):
    for title, key in (("confirmed by the counters", "confirmed"),
                       ("contradicted by the counters", "contradicted"),
                       ("not measured (line not executed, or kernel not launched)", "not_measured")):
        items = res[key]
        print("%s: %d" % (title, len(items)), file=fh)
        for it in items:
            print("  %s:%d [%s] %s\n      measured: %s" % (
                it["file"], it["line"], it["rule"], it["message"].split(";")[0],
                describe(it["measured"], RULE_SPACE[it["rule"]])), file=fh)
    print("measured hot spots warplint did not flag: %d" % len(res["missed"]), file=fh)
    for it in res["missed"]:
        print("  %s:%d (%s) %s\n      %s; `%s`" % (it["file"], it["line"], it["space"],
                                                  describe(it["measured"], it["space"]), it["why"],
                                                  it["measured"]["source"][:80]), file=fh)
    if res["line_moves"]:
        print("line-table repairs: " + ", ".join(res["line_moves"]), file=fh)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    head = argv[:argv.index("--")] if "--" in argv else argv
    if "--before-after" in head:
        import before_after
        return before_after.run(argv)
    if "--" not in argv:
        if "-h" in argv or "--help" in argv:
            print(__doc__)
            return 0
        print("warplint: error: verify needs `-- PROGRAM [ARGS...]` after the source files\n\n"
              "usage: warplint verify [options] FILE... -- PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    cut = argv.index("--")
    prog = argv[cut + 1:]
    ap = argparse.ArgumentParser(prog="warplint verify", add_help=True,
                                 description="Check warplint's findings against Nsight Compute.")
    ap.add_argument("files", nargs="*", help="CUDA sources the program was built from")
    ap.add_argument("--warplint", default=os.environ.get("WARPLINT", "warplint"))
    ap.add_argument("--findings", help="use this `check --format json` output instead of running check")
    ap.add_argument("--model", help="with --findings: the matching `check --dump-model` output")
    ap.add_argument("--compiler-flags", default="", help="flags for check, space separated")
    ap.add_argument("--ncu", help="path of ncu (default: $NCU, PATH, /usr/local/cuda/bin)")
    ap.add_argument("--launches", type=int, default=1, help="launches profiled per kernel (default 1)")
    ap.add_argument("--csv-dir", help="reuse ncu CSVs from this folder (*.sass.csv); no GPU needed")
    ap.add_argument("--keep", help="keep reports and CSVs in this folder")
    ap.add_argument("--format", choices=["text", "json"], default="text")
    args = ap.parse_args(argv[:cut])
    if not prog and not args.csv_dir:
        print("warplint: error: no program after `--`", file=sys.stderr)
        return 2
    files = [os.path.abspath(f) for f in args.files]

    ncu = None
    if not args.csv_dir:
        ncu = find_ncu(args.ncu)
        gpu = have_gpu()
        if not ncu or not gpu:
            print("warplint: verify needs an NVIDIA GPU and Nsight Compute (ncu) on this machine; "
                  "found: GPU %s, ncu %s. Run it where both are, or use `warplint check` for the "
                  "static findings alone." % ("yes" if gpu else "no", ncu or "no"), file=sys.stderr)
            return 2

    if args.findings:
        report = json.load(open(args.findings))
        model = json.load(open(args.model)) if args.model else []
    else:
        if not files:
            print("warplint: error: no source files given", file=sys.stderr)
            return 2
        report, model = run_check(args.warplint, files, args.compiler_flags.split())
    if not files:
        files = sorted({f["file"] for f in report.get("findings", [])} |
                       {u["file"] for u in model})

    kernels = defaultdict(int)
    for unit in model:
        for k in unit.get("kernels", []):
            if k.get("global", True):
                kernels[k["name"]] += 1
    for f in report.get("findings", []):
        kernels.setdefault(f.get("kernel") or "", 1)
    kernels.pop("", None)

    work = args.keep or tempfile.mkdtemp(prefix="warplint-verify-")
    os.makedirs(work, exist_ok=True)
    if args.csv_dir:
        csvs = sorted(glob.glob(os.path.join(args.csv_dir, "*.sass.csv")))
    else:
        with open(os.path.join(work, "ncu.log"), "w") as log:
            launches = {k: max(args.launches, n) for k, n in kernels.items()}
            csvs = profile(ncu, prog, kernels, work, launches, log)
    reps = []
    for c in csvs:
        func, lines = ncu_source.read_source_csv(c)
        reps.append((os.path.basename(c), func, lines))
    if not reps:
        print("warplint: error: ncu produced no report (see %s/ncu.log); was the program built "
              "with -lineinfo and does it launch the kernels?" % work, file=sys.stderr)
        return 2
    res = judge(report, model, reps, files)
    res["reports"] = len(reps)
    if args.format == "json":
        json.dump(res, sys.stdout, indent=1, default=str)
        print()
    else:
        print("warplint verify: %d kernel reports from ncu" % len(reps))
        print_text(res, sys.stdout)
    if not args.keep and not args.csv_dir:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if not res["contradicted"] and not res["missed"] else 1


if __name__ == "__main__":
    sys.exit(main())
