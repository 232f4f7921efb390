"""`warplint verify --before-after`: what a fix was worth, measured, against
what warplint predicted.

    warplint verify --before-after --after-program PROG_AFTER [--after-args "ARGS"]
        [--after-source AFTER.cu] [--kernel NAME]... [--finding RULE[,RULE]]
        [--record DIR] [--csv-dir DIR] [--format text|json] BEFORE.cu -- PROG_BEFORE [ARGS...]
    warplint verify --before-after --pair BASELINE:CHANGED [--pair ...] FILE.cu -- PROGRAM [ARGS...]

Two programs (the source as written and the source with the fix) are each
run once under Nsight Compute (`--csv --page raw`, `--clock-control none`,
the metrics of ncu_kernels.METRICS, at most --max-launches launches); a
kernel of the first is compared with the kernel of the same name in the
second. With --pair and no --after-program, one program holds both the
baseline kernel and the changed one (the case studies), and each pair is
compared inside one ncu run. --csv-dir DIR reads DIR/before.ncu.csv (and
DIR/after.ncu.csv) instead of running anything: no GPU needed. --record DIR
keeps the CSVs under those names.

The prediction comes from `warplint check --format json` on the "before"
source: the kernel's `units[].costs[].all_fixes_speedup`, or with --finding
RULE the product of `details.predicted_kernel_speedup` over the kernel's
findings of those rules. A prediction agrees with the measurement when it is
within 15% of it and on the same side of 1.10x. The second table puts the
model's component fractions (issue, shared, l1, l2, dram) beside ncu's
throughputs (percent of peak, read as fractions) and names the dominant
component on each side.

Exit status: 0 every kernel with a prediction agrees, 1 one does not,
2 usage error, no GPU/ncu, or nothing measured.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_kernels  # noqa: E402

WITHIN = 0.15      # |predicted / measured - 1| at most this
THRESHOLD = 1.10   # a fix worth making: both sides of this line must agree
COMPONENTS = OrderedDict([
    ("issue", "sm__inst_issued.avg.pct_of_peak_sustained_elapsed"),
    ("shared", "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed"),
    ("l1", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("l2", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("dram", "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
])
# l1tex__throughput counts the shared-memory wavefronts too: when they are
# most of it (at least this share), ncu's dominant unit is called "shared".
SHARED_SHARE_OF_L1 = 0.9


def build_parser():
    ap = argparse.ArgumentParser(prog="warplint verify --before-after", add_help=True,
                                 description="Measure a fix (two programs, or kernel pairs of one) "
                                             "under ncu against warplint's predicted speedup.")
    ap.add_argument("--before-after", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("files", nargs="*", help="the \"before\" CUDA source (predictions come from it)")
    ap.add_argument("--warplint", default=os.environ.get("WARPLINT", "warplint"))
    ap.add_argument("--after-program", help="the program built from the fixed source")
    ap.add_argument("--after-args", default="", help="its arguments, one shell-quoted string")
    ap.add_argument("--after-source", help="the fixed source: its model times and fractions too")
    ap.add_argument("--pair", action="append", default=[], metavar="BEFORE:AFTER",
                    help="compare kernel BEFORE with kernel AFTER (one program without "
                         "--after-program); repeatable")
    ap.add_argument("--kernel", action="append", default=[], metavar="NAME",
                    help="only this kernel (repeatable; also narrows ncu with -k)")
    ap.add_argument("--finding", default="", metavar="RULE[,RULE]",
                    help="predict with these rules' findings instead of all_fixes_speedup")
    ap.add_argument("--by-grid", action="store_true",
                    help="compare launches of each grid size apart (the i-th grid size of the "
                         "before kernel with the i-th of the after kernel)")
    ap.add_argument("--findings", help="use this `check --format json` output of the before source")
    ap.add_argument("--after-findings", help="the same for --after-source")
    ap.add_argument("--compiler-flags", default="", help="flags for check, space separated")
    ap.add_argument("--ncu", help="path of ncu (default: $NCU, PATH, /usr/local/cuda/bin)")
    ap.add_argument("--max-launches", type=int, default=200, help="ncu -c (default 200)")
    ap.add_argument("--metrics-file", help="one metric a line instead of the built-in list")
    ap.add_argument("--csv-dir", help="read before.ncu.csv / after.ncu.csv here; no GPU needed")
    ap.add_argument("--record", help="save the ncu CSVs here as before.ncu.csv / after.ncu.csv")
    ap.add_argument("--format", choices=["text", "json"], default="text")
    return ap


# ---------------------------------------------------------------- predictions

def run_check(warplint, files, flags):
    cmd = [warplint, "check", "--format", "json", *files]
    if flags:
        cmd += ["--", *flags]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout.strip():
        raise SystemExit("warplint: error: check failed (exit %d):\n%s" % (r.returncode, r.stderr[-3000:]))
    return json.loads(r.stdout)


def kernel_costs(report):
    """{kernel base name: cost block} from units[].costs[]; {} when the report has none."""
    out = {}
    for unit in (report or {}).get("units", []) or []:
        for c in unit.get("costs", []) or []:
            if isinstance(c, dict) and c.get("kernel"):
                out.setdefault(ncu_kernels.kernel_base(c["kernel"]), c)
    return out


def kernel_findings(report):
    out = {}
    for f in (report or {}).get("findings", []) or []:
        k = ncu_kernels.kernel_base(f.get("kernel") or "")
        if k:
            out.setdefault(k, []).append(f)
    return out


def predict(kernel, costs, findings, rules):
    """(speedup or None, where it came from)."""
    if rules:
        vals = [f.get("details", {}).get("predicted_kernel_speedup")
                for f in findings.get(kernel, []) if f.get("rule") in rules]
        vals = [v for v in vals if isinstance(v, (int, float))]
        if not vals:
            return None, "no prediction (no %s finding with predicted_kernel_speedup)" % ",".join(sorted(rules))
        p = 1.0
        for v in vals:
            p *= v
        return p, "product of %d %s prediction%s" % (len(vals), ",".join(sorted(rules)), "s" if len(vals) > 1 else "")
    c = costs.get(kernel)
    v = c.get("all_fixes_speedup") if c else None
    if isinstance(v, (int, float)):
        return float(v), "all_fixes_speedup"
    if not c:
        return None, "no prediction (no cost block)"
    if c.get("not_computed"):
        return None, "no prediction (cost not computed: %s)" % c["not_computed"]
    return None, "no prediction (no all_fixes_speedup)"


def judge(measured, predicted):
    if measured is None or predicted is None or measured <= 0:
        return None
    within = abs(predicted / measured - 1.0) <= WITHIN
    same_side = (predicted >= THRESHOLD) == (measured >= THRESHOLD)
    return {"within_15pct": within, "same_side_of_1.10x": same_side, "agree": within and same_side}


# ---------------------------------------------------------------- measurements

def find_ncu(explicit):
    import glob
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


def profile(ncu, prog, kernels, out_csv, metrics, max_launches, log):
    cmd = [ncu, "--clock-control", "none", "-c", str(max_launches)]
    if kernels:
        cmd += ["-k", "regex:^(%s)$" % "|".join(sorted(kernels))]
    cmd += ["--csv", "--page", "raw", "--metrics", ",".join(metrics), "--log-file", out_csv, *prog]
    r = subprocess.run(cmd, capture_output=True, text=True)
    log.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + r.stdout[-2000:] + r.stderr[-2000:] + "\n")
    return r.returncode


def groups(stats, by_grid):
    """{kernel: [KernelStats]}: one group a kernel, or one a grid size in first-seen order."""
    out = OrderedDict()
    for key, ks in stats.items():
        name = key[0] if by_grid else key
        out.setdefault(name, []).append(ks)
    return out


def component_row(ks):
    vals = OrderedDict()
    for comp, metric in COMPONENTS.items():
        v = ks.weighted_mean(metric) if ks else None
        vals[comp] = None if v is None else v / 100.0
    return vals


def dominant(vals, ncu_side=False):
    have = {k: v for k, v in vals.items() if isinstance(v, (int, float))}
    if not have:
        return None
    top = max(have, key=lambda k: have[k])
    if ncu_side and top == "l1" and have.get("shared", 0.0) >= SHARED_SHARE_OF_L1 * have["l1"]:
        return "shared"
    return top


# ---------------------------------------------------------------- the mode

def run(argv):
    ap = build_parser()
    if "--" in argv:
        cut = argv.index("--")
        opts, prog = argv[:cut], argv[cut + 1:]
    else:
        opts, prog = argv, []
    args = ap.parse_args(opts)
    pairs = []
    for p in args.pair:
        if p.count(":") != 1 or not all(p.split(":")):
            ap.error("--pair takes BEFORE_KERNEL:AFTER_KERNEL, not %r" % p)
        pairs.append(tuple(p.split(":")))
    two_programs = bool(args.after_program) or bool(
        args.csv_dir and os.path.isfile(os.path.join(args.csv_dir, "after.ncu.csv")))
    if not two_programs and not pairs:
        ap.error("needs --after-program PROG (two programs; with --csv-dir, an after.ncu.csv) "
                 "or --pair BEFORE:AFTER (kernels of one program)")
    if not prog and not args.csv_dir:
        ap.error("no program after `--`")
    rules = {r for r in args.finding.split(",") if r}
    metrics = ncu_kernels.METRICS
    if args.metrics_file:
        metrics = [m for m in open(args.metrics_file).read().split() if m]

    # predictions first: a usage error should not cost a profiling run
    if args.findings:
        report = json.load(open(args.findings))
    elif args.files:
        report = run_check(args.warplint, [os.path.abspath(f) for f in args.files], args.compiler_flags.split())
    else:
        ap.error("no source file (or --findings) to take predictions from")
    after_report = None
    if args.after_findings:
        after_report = json.load(open(args.after_findings))
    elif args.after_source:
        after_report = run_check(args.warplint, [os.path.abspath(args.after_source)], args.compiler_flags.split())
    costs, findings = kernel_costs(report), kernel_findings(report)
    after_costs = kernel_costs(after_report) if after_report else {}

    # the measurements
    csvs = OrderedDict()
    if args.csv_dir:
        csvs["before"] = os.path.join(args.csv_dir, "before.ncu.csv")
        if two_programs:
            csvs["after"] = os.path.join(args.csv_dir, "after.ncu.csv")
        for side, path in csvs.items():
            if not os.path.isfile(path):
                print("warplint: error: --csv-dir: %s not found" % path, file=sys.stderr)
                return 2
    else:
        ncu, gpu = find_ncu(args.ncu), have_gpu()
        if not ncu or not gpu:
            print("warplint: verify needs an NVIDIA GPU and Nsight Compute (ncu) on this machine; "
                  "found: GPU %s, ncu %s. Replay recorded CSVs with --csv-dir." %
                  ("yes" if gpu else "no", ncu or "no"), file=sys.stderr)
            return 2
        work = args.record or tempfile.mkdtemp(prefix="warplint-before-after-")
        os.makedirs(work, exist_ok=True)
        # ncu -k: the kernels named, else those the check report speaks of
        narrow = set(args.kernel) or (set(costs) | set(findings) if not pairs else set())
        with open(os.path.join(work, "ncu.log"), "w") as log:
            if two_programs:
                runs = [("before", prog, narrow | {b for b, _ in pairs}),
                        ("after", [args.after_program, *shlex.split(args.after_args)],
                         narrow | {a for _, a in pairs})]
            else:
                runs = [("before", prog, narrow | {k for p in pairs for k in p})]
            for side, cmd, ks in runs:
                path = os.path.join(work, "%s.ncu.csv" % side)
                rc = profile(ncu, cmd, ks, path, metrics, args.max_launches, log)
                if rc != 0 or not os.path.isfile(path):
                    print("warplint: error: ncu failed on the %s program (exit %d; see %s)" %
                          (side, rc, os.path.join(work, "ncu.log")), file=sys.stderr)
                    return 2
                csvs[side] = path

    stats = {side: ncu_kernels.read_kernels(path, by_grid=args.by_grid) for side, path in csvs.items()}
    if not args.csv_dir and not args.record:
        shutil.rmtree(work, ignore_errors=True)
        csvs = OrderedDict((side, "(not kept: --record DIR keeps it)") for side in csvs)
    before_g = groups(stats["before"], args.by_grid)
    after_g = groups(stats["after"], args.by_grid) if "after" in stats else before_g
    if not pairs:
        pairs = [(k, k) for k in before_g if k in after_g]
    if args.kernel:
        pairs = [p for p in pairs if p[0] in args.kernel or p[1] in args.kernel]

    res = OrderedDict([("mode", "before-after"), ("csv", csvs),
                       ("prediction", "findings: " + ",".join(sorted(rules)) if rules else "all_fixes_speedup"),
                       ("pairs", []), ("components", [])])
    for b, a in pairs:
        bl, al = before_g.get(b, []), after_g.get(a, [])
        n = max(len(bl), len(al), 1)
        for i in range(n):
            bs = bl[i] if i < len(bl) else None
            as_ = al[i] if i < len(al) else None
            bm = bs.mean_ns if bs else None
            am = as_.mean_ns if as_ else None
            meas = bm / am if bm and am else None
            pred, src = predict(b, costs, findings, rules)
            row = OrderedDict([
                ("before_kernel", b), ("after_kernel", a),
                ("grid", [bs.key[1] if bs else None, as_.key[1] if as_ else None] if args.by_grid else None),
                ("launches", [bs.count if bs else 0, as_.count if as_ else 0]),
                ("before_ms", bm / 1e6 if bm else None), ("after_ms", am / 1e6 if am else None),
                ("before_total_ms", bs.total_ns / 1e6 if bs else None),
                ("after_total_ms", as_.total_ns / 1e6 if as_ else None),
                ("measured_speedup", meas), ("predicted_speedup", pred), ("prediction_source", src)])
            tb = (costs.get(b) or {}).get("time_us")
            after_cost = after_costs.get(a) if after_report else (None if two_programs else costs.get(a))
            ta = (after_cost or {}).get("time_us")
            row["model_time_ratio"] = tb / ta if isinstance(tb, (int, float)) and isinstance(ta, (int, float)) and ta else None
            # the model's other views of the same kernel, for reference
            for key in ("all_fixes_speedup", "all_findings_speedup", "rule_speedups", "bottleneck"):
                row["model_" + key] = (costs.get(b) or {}).get(key)
            row["verdict"] = judge(meas, pred)
            if meas is None:
                row["verdict_text"] = "not measured"
            elif row["verdict"] is None:
                row["verdict_text"] = "no prediction"
            else:
                v = row["verdict"]
                row["verdict_text"] = "agree" if v["agree"] else "DISAGREE (%s)" % ", ".join(
                    w for w, ok in (("off by more than 15%", v["within_15pct"]),
                                    ("other side of 1.10x", v["same_side_of_1.10x"])) if not ok)
            res["pairs"].append(row)
            for side, k, ks, cst in (("before", b, bs, costs.get(b)), ("after", a, as_, after_cost)):
                model = OrderedDict((c, (cst or {}).get("fractions", {}).get(c)) for c in COMPONENTS) if cst else None
                meas_c = component_row(ks) if ks else None
                md = dominant(model) if model else None
                nd = dominant(meas_c, ncu_side=True) if meas_c else None
                res["components"].append(OrderedDict([
                    ("side", side), ("kernel", k), ("grid", ks.key[1] if ks and args.by_grid else None),
                    ("model", model), ("model_bottleneck", (cst or {}).get("bottleneck")),
                    ("model_dominant", md), ("ncu", meas_c), ("ncu_dominant", nd),
                    ("agree", (md == nd) if md and nd else None)]))
    measured = [p for p in res["pairs"] if p["measured_speedup"] is not None]
    judged = [p for p in measured if p["verdict"]]
    res["summary"] = OrderedDict([("pairs", len(res["pairs"])), ("measured", len(measured)),
                                  ("with_prediction", len(judged)),
                                  ("agree", sum(1 for p in judged if p["verdict"]["agree"])),
                                  ("disagree", sum(1 for p in judged if not p["verdict"]["agree"]))])
    if args.record and args.csv_dir:
        os.makedirs(args.record, exist_ok=True)
        for side, path in csvs.items():
            dest = os.path.join(args.record, "%s.ncu.csv" % side)
            if os.path.abspath(dest) != os.path.abspath(path):
                shutil.copyfile(path, dest)
    if args.format == "json":
        json.dump(res, sys.stdout, indent=1)
        print()
    else:
        print_text(res, sys.stdout)
    if not measured:
        print("warplint: error: no kernel pair was measured (kernel names: before %s, after %s)" %
              (", ".join(before_g) or "none", ", ".join(after_g) or "none"), file=sys.stderr)
        return 2
    return 1 if res["summary"]["disagree"] else 0


def _x(v):
    return "%.2fx" % v if isinstance(v, (int, float)) else "-"


def _ms(v):
    return "%.4f" % v if isinstance(v, (int, float)) else "-"


def _f(v):
    return "%.2f" % v if isinstance(v, (int, float)) else "-"


def print_text(res, fh):
    print("warplint verify --before-after: %d kernel pair(s); ncu: %s; prediction: %s" % (
        len(res["pairs"]), ", ".join(res["csv"].values()), res["prediction"]), file=fh)
    print("%-36s %9s %10s %10s %9s %9s  %s" % ("kernel (before -> after)", "launches", "before ms",
                                              "after ms", "measured", "predicted", "verdict"), file=fh)
    for p in res["pairs"]:
        name = p["before_kernel"] if p["before_kernel"] == p["after_kernel"] else \
            "%s -> %s" % (p["before_kernel"], p["after_kernel"])
        if p["grid"]:
            grids = [ncu_kernels._fmt_grid(g) for g in p["grid"] if g]
            name += " [grid %s]" % "/".join(sorted(set(grids), key=grids.index))
        print("%-36s %9s %10s %10s %9s %9s  %s" % (
            name, "%d/%d" % tuple(p["launches"]), _ms(p["before_ms"]), _ms(p["after_ms"]),
            _x(p["measured_speedup"]), _x(p["predicted_speedup"]), p["verdict_text"]), file=fh)
        if p["model_time_ratio"] is not None:
            print("%-36s model time before/after: %s" % ("", _x(p["model_time_ratio"])), file=fh)
    print("", file=fh)
    print("model component shares (each component's time over their sum) vs ncu throughputs "
          "(fraction of peak); the dominant one on each side:", file=fh)
    print("%-30s %-6s %6s %6s %6s %6s %6s   %s" % ("kernel (side)", "", *COMPONENTS, "dominant"), file=fh)
    for c in res["components"]:
        label = "%s (%s)" % (c["kernel"], c["side"]) if not c["grid"] else \
            "%s [%s] (%s)" % (c["kernel"], ncu_kernels._fmt_grid(c["grid"]), c["side"])
        m, n = c["model"], c["ncu"]
        print("%-30s %-6s %6s %6s %6s %6s %6s   %s" % (
            label, "model", *(_f(m.get(k)) if m else "-" for k in COMPONENTS),
            (c["model_dominant"] or "no model") + (" (bottleneck: %s)" % c["model_bottleneck"]
                                                   if c["model_bottleneck"] else "")), file=fh)
        print("%-30s %-6s %6s %6s %6s %6s %6s   %s%s" % (
            "", "ncu", *(_f(n.get(k)) if n else "-" for k in COMPONENTS), c["ncu_dominant"] or "not measured",
            "" if c["agree"] is None else ("  agree" if c["agree"] else "  DISAGREE")), file=fh)
    s = res["summary"]
    print("\n%d pair(s) measured, %d with a prediction: %d agree, %d disagree (within 15%% and the "
          "same side of 1.10x)" % (s["measured"], s["with_prediction"], s["agree"], s["disagree"]), file=fh)
