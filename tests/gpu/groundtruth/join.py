#!/usr/bin/env python3
"""Join warplint's static findings with Nsight Compute's per-line counters.

Local side of the ground-truth loop (python3 stdlib only, no GPU):

    python3 tests/gpu/groundtruth/join.py [--ncu DIR] [--warplint BIN] [--json OUT]
        [--programs P1,P2,...] [--rules R1,R2,...]

reads the committed ncu CSVs (DIR, default tests/gpu/groundtruth/ncu-h100),
runs `warplint check --format json` and `--dump-model` on the corpus files the
CSVs name, and prints per rule TP/FP/FN/TN per (file, line), precision,
recall, the exact-degree / exact-sector rate and every disagreement.

Definitions (also in tests/gpu/RESULTS.md):
- unit: one (file, line) and one rule; the corpus keeps at most one access
  pattern per address space on a line. Kernels that share a line (template
  instantiations) are each measured in their own report; the line takes the
  worst report, and the prediction takes the worst instantiation.
- measured positive, shared-bank-conflict: L1 Wavefronts Shared over
  L1 Wavefronts Shared Ideal of the line's shared instructions is at least
  1 + SHARED_NOISE (5% excess wavefronts).
- measured positive, global-uncoalesced: the rule's own threshold applied to
  the counters: L2 Theoretical Sectors Global at least 2x (less GLOBAL_TOL) the
  ideal, and at least 2 (less GLOBAL_TOL) excess sectors per request
  (requests: L1 Tag Requests Global).
- exact: the predicted wavefronts/ideal (shared) or sectors per request
  (global) of the line, a weighted mean over its accesses (a read-modify-write
  counts twice), within EXACT_TOL (relative) of the measured value. Only lines
  whose accesses all have affine (known) addresses are scored; lines whose
  worst case is one loop iteration are scored separately (the counters
  average over iterations, the rule names the worst one).
- measured positive, global-narrow-access (with --rules ...,global-narrow-access):
  every executed global instruction of the line moves one byte a thread
  (ncu's Access Size 8). The rule names a pointer once per kernel (a window
  of byte statements or loop, or one byte a lane), so a narrow finding of a
  kernel counts as predicting every line of that kernel with a one-byte
  global access to the pointers it names.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "driver", "verify"))
import ncu_source  # noqa: E402

from ncu_source import (SHARED_NOISE, GLOBAL_TOL, kernel_base,  # noqa: E402,F401
                        measured_positive, repair_attribution)
EXACT_TOL = 0.05
RULE_SPACE = {"shared-bank-conflict": "shared", "global-uncoalesced": "global",
              "global-narrow-access": "narrow"}
LEGACY_RULES = "shared-bank-conflict,global-uncoalesced"


def find_warplint():
    for b in ("build-gt", "build", "build-lead"):
        p = os.path.join(ROOT, b, "bin", "warplint")
        if os.access(p, os.X_OK):
            return p
    return "warplint"


def run_warplint(bin_, files):
    chk = subprocess.run([bin_, "check", "--format", "json", *files],
                         capture_output=True, text=True)
    if chk.returncode not in (0, 1):
        sys.exit("warplint check failed (%d): %s" % (chk.returncode, chk.stderr[-2000:]))
    dump = subprocess.run([bin_, "check", "--dump-model", *files],
                          capture_output=True, text=True)
    if dump.returncode not in (0, 1):
        sys.exit("warplint --dump-model failed (%d): %s" % (dump.returncode, dump.stderr[-2000:]))
    return json.loads(chk.stdout), json.loads(dump.stdout)


def predictions(report, model):
    """findings[rule][(file, line)] -> [finding]; model_lines[space][(file, line)] ->
    [(kernel entry, access)]; model_lines["narrow"] holds the one-byte global
    accesses."""
    findings = defaultdict(lambda: defaultdict(list))
    for f in report["findings"]:
        findings[f["rule"]][(os.path.basename(f["file"]), f["line"])].append(f)
    model_lines = {"shared": defaultdict(list), "global": defaultdict(list),
                   "narrow": defaultdict(list)}
    for unit in model:
        for ki, k in enumerate(unit["kernels"]):
            for a in k.get("accesses", []):
                sp = a["space"]
                if sp not in model_lines:
                    continue
                key = (os.path.basename(a["loc"]["file"]), a["loc"]["line"])
                model_lines[sp][key].append((ki, k["name"], a))
                if sp == "global" and a.get("width") == 1:
                    model_lines["narrow"][key].append((ki, k["name"], a))
    return findings, model_lines


def narrow_coverage(findings, model):
    """(file, line) -> [finding] for every line a global-narrow-access finding
    speaks for: the one-byte global accesses, in the finding's kernel, to the
    pointers it names (all pointers of its byte window, or its subject)."""
    cover = defaultdict(list)
    for key, fl in findings.get("global-narrow-access", {}).items():
        for f in fl:
            for unit in model:
                for k in unit["kernels"]:
                    if k["name"] != f["kernel"]:
                        continue
                    names = {f["details"].get("subject")}
                    for w in k.get("byte_pack_windows", []):
                        ptrs = w.get("pointers", [])
                        if any((os.path.basename(p["loc"]["file"]), p["loc"]["line"]) == key for p in ptrs):
                            names |= {p["name"] for p in ptrs}
                    for a in k.get("accesses", []):
                        if a["space"] == "global" and a.get("width") == 1 and a.get("base") in names:
                            ak = (os.path.basename(a["loc"]["file"]), a["loc"]["line"])
                            if f not in cover[ak]:
                                cover[ak].append(f)
    return cover


def predicted_line_value(space, entries):
    """Worst over kernel entries of the weighted mean per line.
    Returns (value, ideal, all_known, loop_varying, kernels)."""
    per_kernel = defaultdict(list)
    known = True
    looping = False
    for ki, name, a in entries:
        if not a.get("index_known") or not a.get("evals"):
            known = False
            continue
        e = a["evals"][a.get("worst", 0)]
        if "iteration" in e:
            looping = True
        w = (1 if a.get("read") else 0) + (1 if a.get("write") else 0) or 1
        per_kernel[(ki, name)].append((w, e))
    lanes = min((e.get("active_lanes", 32) for lst in per_kernel.values() for _, e in lst), default=32)
    best = None
    for (_, _), lst in per_kernel.items():
        tw = sum(w for w, _ in lst)
        if space == "shared":
            num = sum(w * e["wavefronts"] for w, e in lst)
            den = sum(w * e["ideal_wavefronts"] for w, e in lst)
            val = num / den if den else None
            ideal = 1.0
        else:
            val = sum(w * e["sectors"] for w, e in lst) / tw
            ideal = sum(w * e["ideal_sectors"] for w, e in lst) / tw
        if val is not None and (best is None or val > best[0]):
            best = (val, ideal)
    kernels = sorted({name for _, name, _ in entries})
    if best is None:
        return None, None, known, looping, kernels, lanes
    return best[0], best[1], known, looping, kernels, lanes


def measured(space, reps, key):
    """Worst report for this line: dict with the counters, or None."""
    best = None
    for name, func, lines in reps:
        lc = lines.get(key)
        if lc is None:
            continue
        if space == "narrow":
            if not lc.global_sizes:
                continue
            r = 1.0 if ncu_source.narrow_positive(lc) else 0.0
            m = {"ratio": r, "bits": sorted(set(lc.global_sizes)), "requests": lc.global_requests,
                 "ops": sorted(set(lc.global_ops)), "report": name, "function": func,
                 "source": lc.source}
        elif space == "shared":
            if not lc.shared_ideal:
                continue
            r = lc.shared_ratio()
            m = {"ratio": r, "wavefronts": lc.shared_wavefronts, "ideal": lc.shared_ideal,
                 "requests": lc.shared_requests, "per_request": lc.wavefronts_per_request(),
                 "ops": sorted(set(lc.shared_ops)), "report": name, "function": func,
                 "source": lc.source}
        else:
            if not lc.global_requests:
                continue
            r = lc.global_ratio() or 0.0
            m = {"ratio": r, "sectors": lc.global_sectors, "ideal": lc.global_ideal,
                 "requests": lc.global_requests, "per_request": lc.sectors_per_request(),
                 "ideal_per_request": lc.ideal_per_request(),
                 "thread_insts": lc.global_thread_insts,
                 "ops": sorted(set(lc.global_ops)), "report": name, "function": func,
                 "source": lc.source}
        if best is None or r > best["ratio"]:
            best = m
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ncu", default=os.path.join(HERE, "ncu-h100"))
    ap.add_argument("--warplint", default=find_warplint())
    ap.add_argument("--corpus", default=os.path.join(ROOT, "tests", "gpu", "corpus"))
    ap.add_argument("--json", help="write every unit with its numbers here")
    ap.add_argument("--programs", help="only these corpus programs' reports (comma-separated; default all)")
    ap.add_argument("--rules", default=LEGACY_RULES,
                    help="rules to score (comma-separated; default %s; global-narrow-access too)" % LEGACY_RULES)
    args = ap.parse_args()
    rules = {r: RULE_SPACE[r] for r in args.rules.split(",")}

    reps = ncu_source.load_reports(args.ncu, set(args.programs.split(",")) if args.programs else None)
    if not reps:
        sys.exit("no ncu reports in %s%s" % (args.ncu, " for " + args.programs if args.programs else ""))
    files = sorted({k[0] for _, _, lines in reps for k in lines})
    paths = [os.path.join(args.corpus, f) for f in files
             if os.path.exists(os.path.join(args.corpus, f))]
    report, model = run_warplint(args.warplint, paths)
    findings, model_lines = predictions(report, model)
    moves = repair_attribution(reps, model_lines, {os.path.basename(p) for p in paths})
    if "global-narrow-access" in rules:
        findings["global-narrow-access"] = narrow_coverage(findings, model)

    units = []
    for rule, space in rules.items():
        keys = set(model_lines[space])
        for _, _, lines in reps:
            for k, lc in lines.items():
                if (space == "shared" and lc.shared_ideal) or (space == "global" and lc.global_requests) or \
                        (space == "narrow" and lc.global_sizes):
                    keys.add(k)
        corpus = {os.path.basename(p) for p in paths}
        for key in sorted(keys):
            if key[0] not in corpus:
                continue
            m = measured(space, reps, key)
            if m is None:
                continue  # never executed: nothing to compare
            pv, pideal, known, looping, kernels, lanes = predicted_line_value(space, model_lines[space].get(key, []))
            fl = findings[rule].get(key, [])
            # A finding whose address has warp-uniform unknowns (a symbolic
            # pitch) states its numbers for the values it names; the model's
            # worst evaluation is the mildest over the values tried.
            if space == "global" and fl and "condition" in fl[0].get("details", {}) \
                    and fl[0]["details"].get("sectors"):
                pv = float(max(f["details"].get("sectors", 0) for f in fl))
            pred = bool(fl)
            meas = measured_positive(space, m)
            u = {"rule": rule, "file": key[0], "line": key[1], "kernels": kernels,
                 "source": m["source"], "predicted": pred, "measured": meas,
                 "known": known and key in model_lines[space], "loop_varying": looping,
                 "pred_value": pv, "pred_ideal": pideal, "m": m,
                 "finding": fl[0]["message"] if fl else None}
            u["verdict"] = {(True, True): "TP", (True, False): "FP",
                            (False, True): "FN", (False, False): "TN"}[(pred, meas)]
            if space == "narrow":
                # bytes a thread per instruction: the model's access width, ncu's Access Size
                u["pred_value"] = min(a.get("width", 4) for _, _, a in model_lines["global"][key]) \
                    if model_lines["global"].get(key) else None
                u["pred_ideal"] = None
                u["meas_value"] = min(m["bits"]) / 8.0
                u["exact"] = None
                units.append(u)
                continue
            mv = m["ratio"] if space == "shared" else m["per_request"]
            if space == "global" and m["thread_insts"]:
                # Guarded lines: warps whose lanes are all predicated off still
                # execute the instruction; count as requests only the warp
                # instructions with lanes on (thread instructions / lanes on).
                active = m["thread_insts"] / lanes
                if 0 < active < m["requests"]:
                    mv = m["sectors"] / active
                    u["active_requests"] = active
            u["meas_value"] = mv
            if u["known"] and pv is not None:
                u["exact"] = abs(pv - mv) <= EXACT_TOL * max(pv, mv)
            else:
                u["exact"] = None
            units.append(u)

    out = sys.stdout
    print("# warplint vs ncu, %d reports, %s" % (len(reps), args.warplint), file=out)
    print("\nLine-table repairs (traffic moved to the access's own line):\n", file=out)
    for name, space, a, b in moves:
        print("- %s: %s traffic on %s:%d moved to %s:%d" % (name, space, a[0], a[1], b[0], b[1]), file=out)
    unmeasured = [(r, k) for r, sp in rules.items() for k in findings[r]
                  if measured(sp, reps, k) is None]
    print("\nFindings on lines with no measured traffic of their space: %s" %
          (", ".join("%s %s:%d" % (r, k[0], k[1]) for r, k in unmeasured) or "none"), file=out)
    summary = {}
    for rule, space in rules.items():
        us = [u for u in units if u["rule"] == rule]
        c = defaultdict(int)
        for u in us:
            c[u["verdict"]] += 1
        ca = defaultdict(int)
        for u in us:
            if u["known"]:
                ca[u["verdict"]] += 1
        prec = c["TP"] / (c["TP"] + c["FP"]) if c["TP"] + c["FP"] else float("nan")
        rec = c["TP"] / (c["TP"] + c["FN"]) if c["TP"] + c["FN"] else float("nan")
        reca = ca["TP"] / (ca["TP"] + ca["FN"]) if ca["TP"] + ca["FN"] else float("nan")
        scored = [u for u in us if u["exact"] is not None and not u["loop_varying"]]
        loops = [u for u in us if u["exact"] is not None and u["loop_varying"]]
        ex = sum(1 for u in scored if u["exact"])
        exl = sum(1 for u in loops if u["exact"])
        summary[rule] = {"TP": c["TP"], "FP": c["FP"], "FN": c["FN"], "TN": c["TN"],
                         "precision": prec, "recall": rec, "recall_affine": reca,
                         "exact": ex, "scored": len(scored), "exact_loop": exl,
                         "scored_loop": len(loops)}
        print("\n## %s\n" % rule, file=out)
        print("| TP | FP | FN | TN | precision | recall | recall (affine lines) | exact (affine, loop-invariant) | exact (loop-varying) |", file=out)
        print("|---|---|---|---|---|---|---|---|---|", file=out)
        print("| %d | %d | %d | %d | %.1f%% | %.1f%% | %.1f%% | %d/%d = %.1f%% | %d/%d |" % (
            c["TP"], c["FP"], c["FN"], c["TN"], 100 * prec, 100 * rec, 100 * reca,
            ex, len(scored), 100.0 * ex / len(scored) if scored else float("nan"),
            exl, len(loops)), file=out)
        unit = {"shared": "wavefronts/ideal", "global": "sectors/request",
                "narrow": "bytes a thread an instruction"}[space]
        print("\nDisagreements (%s: predicted vs measured):\n" % unit, file=out)
        print("| file:line | kernel | verdict | predicted | measured | SASS | source |", file=out)
        print("|---|---|---|---|---|---|---|", file=out)
        for u in us:
            bad = u["verdict"] in ("FP", "FN") or u["exact"] is False
            if not bad:
                continue
            tag = u["verdict"] + ("" if u["exact"] is not False else ", inexact") + (", loop" if u["loop_varying"] else "") + ("" if u["known"] else ", unknown index")
            pv = "-" if u["pred_value"] is None else "%.2f" % u["pred_value"]
            mv = "%.2f" % u["meas_value"] if u["meas_value"] is not None else "-"
            if space == "global":
                mv += " (ideal %.2f)" % (u["m"]["ideal_per_request"] or 0)
                if u["pred_ideal"] is not None:
                    pv += " (ideal %.2f)" % u["pred_ideal"]
            print("| %s:%d | %s | %s | %s | %s | %s | `%s` |" % (
                u["file"], u["line"], ",".join(u["kernels"]) or u["m"]["function"].split("(")[0],
                tag, pv, mv, " ".join(u["m"]["ops"]), u["source"][:70].replace("|", "\\|")), file=out)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"summary": summary, "units": units,
                       "thresholds": {"shared_noise": SHARED_NOISE, "global_tol": GLOBAL_TOL,
                                      "exact_tol": EXACT_TOL}}, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
