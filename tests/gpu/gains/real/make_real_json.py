#!/usr/bin/env python3
"""Turn the device results of tests/gpu/gains/real/device_run.sh into the
recorded ground truth: tests/gpu/gains/h100/real/ (raw ncu CSVs, the warplint
findings of every before file, output checks, environment) and
tests/gpu/gains/real.json (one entry per pair).

  python3 tests/gpu/gains/real/make_real_json.py RESULTS_DIR [RESULTS_DIR...]
          [--repeat DIR]

RESULTS_DIR: an unpacked real_results*.tar.gz (a later one replaces an earlier
one's pairs); --repeat: a second set of ncu runs of some pairs (SUFFIX=_r2),
recorded beside the first as a run-to-run check. The staged pairs
(.realprogs/<pair>/, from stage.sh) give the commit, the warplint command, the
findings and which of them the after applies.

Measured speedup of a kernel = mean gpu__time_duration.sum a launch before /
mean a launch after (the launch counts of the two builds are equal here).
"""
import argparse
import csv
import datetime
import gzip
import json
import os
import re
import shutil
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
STAGE = os.path.join(ROOT, ".realprogs")
OUTDIR = os.path.join(ROOT, "tests", "gpu", "gains", "h100", "real")
REL_OUT = "tests/gpu/gains/h100/real"


def read_conf(path):
    """pair.conf is bash (NAME='value' lines); read the assignments."""
    conf = {}
    for line in open(path):
        m = re.match(r"^([A-Z_]+)=(.*)$", line.rstrip("\n"))
        if m:
            v = m.group(2)
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                v = v[1:-1]
            conf[m.group(1)] = v
    return conf


def ncu_rows(path):
    """Per kernel (base name): list of (duration ns, bank conflicts) a launch."""
    rows = list(csv.reader(open(path, encoding="utf-8", errors="replace")))
    start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    out = defaultdict(list)
    if start is None:
        return out
    hdr, units = rows[start], rows[start + 1]
    ki, ti = hdr.index("Kernel Name"), hdr.index("gpu__time_duration.sum")
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}[units[ti]]
    bi = hdr.index("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum") \
        if "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum" in hdr else None
    for r in rows[start + 2:]:
        if len(r) < len(hdr):
            continue
        name = re.sub(r"^void ", "", r[ki]).split("(")[0].split("<")[0]
        bc = float(r[bi].replace(",", "")) if bi is not None and r[bi] else None
        out[name].append((float(r[ti].replace(",", "")) * scale, bc))
    return out


def env_of(results):
    txt = open(os.path.join(results, "env.txt")).read()
    date = re.search(r"date -u: (.*)", txt).group(1).strip()
    date = datetime.datetime.strptime(date, "%a %b %d %I:%M:%S %p UTC %Y").strftime("%Y-%m-%dT%H:%M:%SZ")
    gpu = re.search(r"^(NVIDIA [^,]+), ([0-9.]+), [^,]+, ([0-9]+) MHz", txt, re.M)
    ncu = re.search(r"Version ([0-9.]+)", txt)
    nvcc = re.search(r"release [0-9.]+, V([0-9.]+)", txt)
    return {"device": gpu.group(1), "driver": gpu.group(2), "max_sm_clock_mhz": int(gpu.group(3)),
            "ncu": ncu.group(1) if ncu else None, "nvcc": nvcc.group(1) if nvcc else None, "date": date}


def applied_findings(pair, conf, findings):
    """Which findings of the before file the after applies: the fixes warplint
    reports as applied (matched to the finding on that line), or for a hand
    edit every finding of the rule on the array it pads."""
    by_place = {}
    for f in findings["findings"]:
        by_place.setdefault((os.path.basename(f["file"]), f["line"], f["rule"]), f)
    out = []
    if conf.get("HAND_SED"):
        array = re.search(r"float (\w+)\\\[", conf["HAND_SED"]).group(1)
        for f in findings["findings"]:
            if f["rule"] == conf["RULES"] and f["details"].get("array") == array:
                out.append({"rule": f["rule"], "line": f["line"], "kernel": f["kernel"], "array": array,
                            "file": os.path.basename(f["file"]),
                            "predicted_kernel_speedup": f["details"].get("predicted_kernel_speedup")})
        return out
    for line in open(os.path.join(STAGE, pair, "fix.log")):
        m = re.match(r"warplint: fixed (\S+?):(\d+):\d+: (.*) \[([a-z-]+)\]$", line.strip())
        if not m:
            continue
        key = (os.path.basename(m.group(1)), int(m.group(2)), m.group(4))
        f = by_place.get(key)
        out.append({"rule": m.group(4), "line": int(m.group(2)), "kernel": f["kernel"] if f else None,
                    "file": key[0], "edit": m.group(3),
                    "predicted_kernel_speedup": f["details"].get("predicted_kernel_speedup") if f else None})
    return out


def rel_findings(findings, pair):
    """The findings JSON with the staging paths cut to the file's name in the program."""
    s = json.dumps(findings, indent=1)
    for side in ("before", "after"):
        s = s.replace(os.path.join(STAGE, pair, side) + "/", "")
    return s + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--repeat")
    args = ap.parse_args()
    os.makedirs(OUTDIR, exist_ok=True)

    where = {}  # pair -> results dir (a later dir replaces an earlier one)
    envs = {}
    for i, res in enumerate(args.results):
        envs[res] = env_of(res)
        shutil.copy(os.path.join(res, "env.txt"), os.path.join(OUTDIR, "env_call%d.txt" % (i + 1)))
        shutil.copy(os.path.join(res, "driver.log"), os.path.join(OUTDIR, "driver_call%d.log" % (i + 1)))
        for fn in os.listdir(res):
            if fn.endswith("_check.json"):
                where[fn[:-len("_check.json")]] = res
    if args.repeat:
        shutil.copy(os.path.join(args.repeat, "driver.log"), os.path.join(OUTDIR, "driver_repeat.log"))

    entries, checks = [], {}
    for pair in sorted(where):
        res = where[pair]
        conf = read_conf(os.path.join(STAGE, pair, "pair.conf"))
        findings = json.load(open(os.path.join(STAGE, pair, "findings.json")))
        text = rel_findings(findings, pair)
        # Large reports (every template instantiation's findings) are gzipped.
        for old in (pair + ".findings.json", pair + ".findings.json.gz"):
            if os.path.exists(os.path.join(OUTDIR, old)):
                os.remove(os.path.join(OUTDIR, old))
        if len(text) > 256 * 1024:
            with gzip.open(os.path.join(OUTDIR, pair + ".findings.json.gz"), "wt") as fh:
                fh.write(text)
        else:
            with open(os.path.join(OUTDIR, pair + ".findings.json"), "w") as fh:
                fh.write(text)
        check = json.load(open(os.path.join(res, pair + "_check.json")))
        checks[pair] = check
        sass = open(os.path.join(res, pair + "_sass.txt")).readline().strip()
        ncu_rc = {s: open(os.path.join(res, "%s_%s_ncu.rc" % (pair, s))).read().strip()
                  if os.path.exists(os.path.join(res, "%s_%s_ncu.rc" % (pair, s))) else None
                  for s in ("before", "after")}
        csvs = {}
        for side in ("before", "after"):
            src = os.path.join(res, "%s_%s.ncu.csv" % (pair, side))
            if os.path.exists(src):
                shutil.copy(src, os.path.join(OUTDIR, "%s_%s.ncu.csv" % (pair, side)))
                csvs[side] = ncu_rows(src)
        e = {
            "pair": pair,
            "repo": conf["REPO"],
            "commit": open(os.path.join(STAGE, pair, "commit.txt")).read().strip(),
            "path": conf["SRC"] + "/" + conf["FILE"],
            "kernels": [],
            "applied": applied_findings(pair, conf, findings),
            "how": open(os.path.join(STAGE, pair, "how.txt")).read().strip(),
            "warplint_command": open(os.path.join(STAGE, pair, "command.txt")).read().strip(),
            "warplint_flags": ["--", "-I.realprogs/_cs_common"] if conf.get("CS_COMMON") else [],
            "staged_source": ".realprogs/%s/before/%s" % (pair, conf["FILE"]),
            "build": conf["BUILD"],
            "run": conf["RUN"],
            "ncu_command": "ncu %s--clock-control none -c %s -k regex:^(%s)$ --csv --page raw --metrics "
                           "$(paste -sd, tests/gpu/gains/ncu_metrics.txt) --log-file <pair>_<side>.ncu.csv %s"
                           % ((conf["NCU_EXTRA"] + " ") if conf.get("NCU_EXTRA") else "", conf["COUNT"],
                              conf["KERNELS"], conf["RUN"]),
            "sass": sass,
        }
        # Output check: the program's own PASS line where it prints one, and its
        # stdout without timing lines compared byte for byte in any case.
        if not check.get("built"):
            e["output_check"] = "not built"
        elif check["pass_before"] == "true" and check["pass_after"] == "true":
            e["output_check"] = "program PASS"
        elif check["pass_before"] == "" and check["stdout_identical_without_timing_lines"]:
            e["output_check"] = "bit-identical"
        else:
            e["output_check"] = "differs"
        e["output_check_detail"] = (
            "stdout without timing lines (%d lines) %s between before and after%s"
            % (check.get("compared_lines", 0),
               "identical" if check.get("stdout_identical_without_timing_lines") else "DIFFERENT",
               "; program's own check (%s) passed in both" % conf["PASS_RE"]
               if e["output_check"] == "program PASS" else ""))
        if len(csvs) == 2 and csvs["before"] and csvs["after"]:
            kernels = list(csvs["before"])
            e["kernels"] = kernels
            e["before_csv"] = "%s/%s_before.ncu.csv" % (REL_OUT, pair)
            e["after_csv"] = "%s/%s_after.ncu.csv" % (REL_OUT, pair)
            e["launches"], e["before_us"], e["after_us"], e["measured_speedup"] = {}, {}, {}, {}
            e["bank_conflicts_per_launch"] = {}
            for k in kernels:
                b, a = csvs["before"][k], csvs["after"].get(k, [])
                mb, ma = sum(x[0] for x in b) / len(b), sum(x[0] for x in a) / len(a)
                e["launches"][k] = [len(b), len(a)]
                e["before_us"][k], e["after_us"][k] = round(mb, 3), round(ma, 3)
                e["measured_speedup"][k] = round(mb / ma, 4)
                if b[0][1] is not None:
                    e["bank_conflicts_per_launch"][k] = [round(sum(x[1] for x in b) / len(b)),
                                                         round(sum(x[1] for x in a) / len(a))]
        else:
            e["kernels"] = conf["KERNELS"].split("|")
            e["measured_speedup"] = None
            e["failed"] = "ncu exit status before %s, after %s: no kernel measured (see %s_before_ncu.stderr)" % (
                ncu_rc["before"], ncu_rc["after"], pair)
            for side in ("before", "after"):
                src = os.path.join(res, "%s_%s_ncu.stderr" % (pair, side))
                if os.path.exists(src):
                    shutil.copy(src, os.path.join(OUTDIR, "%s_%s_ncu.stderr" % (pair, side)))
        if args.repeat and os.path.exists(os.path.join(args.repeat, pair + "_before.ncu.csv")):
            rep = {}
            for side in ("before", "after"):
                src = os.path.join(args.repeat, "%s_%s.ncu.csv" % (pair, side))
                shutil.copy(src, os.path.join(OUTDIR, "%s_%s_repeat.ncu.csv" % (pair, side)))
                rep[side] = ncu_rows(src)
            e["repeat"] = {}
            for k in e["kernels"]:
                b, a = rep["before"].get(k), rep["after"].get(k)
                if b and a:
                    mb, ma = sum(x[0] for x in b) / len(b), sum(x[0] for x in a) / len(a)
                    e["repeat"][k] = {"before_us": round(mb, 3), "after_us": round(ma, 3),
                                      "measured_speedup": round(mb / ma, 4),
                                      "before_vs_first_before": round(mb / e["before_us"][k], 4)}
        env = envs[res]
        e.update({"device": env["device"], "driver": env["driver"], "ncu": env["ncu"], "nvcc": env["nvcc"],
                  "max_sm_clock_mhz": env["max_sm_clock_mhz"], "date": env["date"]})
        entries.append(e)

    with open(os.path.join(OUTDIR, "output_checks.json"), "w") as fh:
        json.dump(checks, fh, indent=1, sort_keys=True)
        fh.write("\n")
    with open(os.path.join(ROOT, "tests", "gpu", "gains", "real.json"), "w") as fh:
        json.dump(entries, fh, indent=1)
        fh.write("\n")
    for e in entries:
        ms = e.get("measured_speedup") or {}
        print("%-18s %-40s %s %s" % (e["pair"], ", ".join("%s %.3fx" % (k, v) for k, v in ms.items()) or e.get("failed"),
                                     e["output_check"], e["sass"]))


if __name__ == "__main__":
    sys.exit(main())
