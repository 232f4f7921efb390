#!/usr/bin/env python3
"""Per-kernel aggregates of an Nsight Compute metrics CSV.

Reads what `ncu --csv --page raw --metrics ... [--log-file F]` writes: one
header row ("ID", "Kernel Name", ..., then one column per metric), usually a
row of units under it, then one row per profiled launch. Also reads the
long "details" layout (`--csv` without `--page raw`: one row per launch and
metric, with "Metric Name", "Metric Unit", "Metric Value" columns).
Everything that is not such a row is skipped: ncu's "==PROF==" / "==WARNING=="
lines, the program's own output when it shares the file, blank lines.

Values are converted to base units: times to nanoseconds, bytes to bytes,
rates per second to per second, cycles to cycles; percentages stay percent.
Numbers may carry thousands separators ("1,649,824"); "n/a" becomes None.

    launches = read_csv(path)            # [Launch], in file order
    per_kernel = by_kernel(launches)     # {base name: KernelStats}, first-seen order
    per_kernel["crBaseline"].mean_ns     # mean gpu__time_duration.sum a launch

Also a command: `python3 ncu_kernels.py FILE.csv... [--json] [--by-grid]`
prints each file's kernels (launches, total and mean time, grids).
python3 standard library only.
"""
import csv
import io
import json
import re
import sys
from collections import OrderedDict

DURATION = "gpu__time_duration.sum"

# The metrics `warplint verify --before-after` asks ncu for: the list of
# tests/gpu/gains/ncu_metrics.txt (a test keeps the two equal).
METRICS = [
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg",
    "sm__cycles_elapsed.avg.per_second",
    "launch__grid_size",
    "launch__block_size",
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_blocks",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed.sum",
    "sm__inst_issued.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sectors.sum",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "idc__requests.sum",
]

# Columns of the raw page that are not metrics (ncu 2023-2025 spell them so).
ID_COLUMNS = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
              "Block Size", "Grid Size", "Device", "CC", "Kernel Time", "Section Name",
              "Metric Name", "Metric Unit", "Metric Value", "Rule Name", "Rule Type",
              "Rule Description", "Estimated Speedup Type", "Estimated Speedup"}

_TIME = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
         "second": 1e9, "s": 1e9}
_SCALE = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 1024.0, "Mi": 1024.0 ** 2,
          "Gi": 1024.0 ** 3, "Ti": 1024.0 ** 4}
_PER = {"second": 1.0, "msecond": 1e3, "usecond": 1e6, "nsecond": 1e9}


def unit_factor(unit):
    """(factor, base unit) that turns a value in `unit` into base units."""
    u = (unit or "").strip()
    if u in _TIME:
        return _TIME[u], "ns"
    if "/" in u:  # byte/second, cycle/nsecond, Gbyte/second, inst/cycle
        num, den = u.split("/", 1)
        f, base = unit_factor(num)
        if den in _PER:
            return f * _PER[den], base + "/s"
        return f, base + "/" + den
    if u.lower().endswith("hz"):  # Ghz, MHz
        return _SCALE.get(u[:-2].upper().replace("I", "i"), 1.0), "cycle/s"
    m = re.fullmatch(r"(Ki|Mi|Gi|Ti|K|M|G|T)?(byte|cycle|sector|inst|request|warp|thread|block|"
                     r"wavefront|transaction|register)s?", u)
    if m:
        return _SCALE[m.group(1) or ""], m.group(2)
    return 1.0, u  # %, "", counts without unit


def parse_number(text):
    t = (text or "").strip().strip('"')
    if t in ("", "n/a", "N/A", "nan", "-"):
        return None
    try:
        return float(t.replace(",", ""))
    except ValueError:
        return None


def parse_dims(text):
    """"(32, 8, 1)" -> (32, 8, 1); None when not that shape."""
    nums = re.findall(r"\d+", text or "")
    return tuple(int(n) for n in nums) if nums else None


def kernel_base(name):
    """Bare function name of a demangled kernel name: 'void ns::k<int>(float *, int)' -> 'k'."""
    n = (name or "").strip()
    # drop the parameter list: the last balanced (...) at the end
    if n.endswith(")"):
        depth = 0
        for i in range(len(n) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(n[i], 0)
            if depth == 0:
                n = n[:i]
                break
    # drop template arguments
    out, depth = [], 0
    for ch in n:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    n = "".join(out).strip()
    n = n.split()[-1] if n.split() else n  # return type ('void k')
    return n.split("::")[-1]


class Launch:
    """One profiled launch: its ID, kernel names, grid/block and metrics in base units."""

    def __init__(self, lid, name, grid, block):
        self.id = lid
        self.name = name
        self.kernel = kernel_base(name)
        self.grid = grid
        self.block = block
        self.metrics = {}
        self.units = {}

    @property
    def duration_ns(self):
        return self.metrics.get(DURATION)

    def get(self, metric, default=None):
        v = self.metrics.get(metric)
        return default if v is None else v

    def to_json(self):
        return {"id": self.id, "kernel": self.kernel, "name": self.name, "grid": self.grid,
                "block": self.block, "metrics": self.metrics}


class KernelStats:
    """The launches of one kernel (or one kernel and grid): sums and means."""

    def __init__(self, key, launches):
        self.key = key
        self.launches = list(launches)

    @property
    def count(self):
        return len(self.launches)

    @property
    def total_ns(self):
        return sum(l.duration_ns or 0.0 for l in self.launches)

    @property
    def mean_ns(self):
        timed = [l.duration_ns for l in self.launches if l.duration_ns is not None]
        return sum(timed) / len(timed) if timed else None

    def mean(self, metric):
        vals = [l.metrics[metric] for l in self.launches if l.metrics.get(metric) is not None]
        return sum(vals) / len(vals) if vals else None

    def sum(self, metric):
        vals = [l.metrics[metric] for l in self.launches if l.metrics.get(metric) is not None]
        return sum(vals) if vals else None

    def weighted_mean(self, metric):
        """Mean of a rate or percentage weighted by each launch's duration."""
        num = den = 0.0
        for l in self.launches:
            v, d = l.metrics.get(metric), l.duration_ns
            if v is not None and d:
                num += v * d
                den += d
        return num / den if den else self.mean(metric)

    @property
    def grids(self):
        return sorted({l.grid for l in self.launches if l.grid}, key=str)

    def to_json(self, with_launches=False):
        names = sorted({m for l in self.launches for m in l.metrics})
        out = OrderedDict([("kernel", self.key if isinstance(self.key, str) else self.key[0]),
                           ("launches", self.count), ("total_ns", self.total_ns),
                           ("mean_ns", self.mean_ns), ("grids", self.grids),
                           ("mean", {m: self.mean(m) for m in names})])
        if not isinstance(self.key, str):
            out["grid"] = self.key[1]
        if with_launches:
            out["per_launch"] = [l.to_json() for l in self.launches]
        return out


def _rows(text):
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("==")]
    return list(csv.reader(io.StringIO("\n".join(lines))))


def parse(text):
    """[Launch] from the text of a raw-page or details-page ncu CSV."""
    rows = _rows(text)
    head = None
    for i, r in enumerate(rows):
        if "ID" in r and "Kernel Name" in r:
            head = i
            break
    if head is None:
        return []
    cols = rows[head]
    ix = {c: j for j, c in enumerate(cols)}
    body = rows[head + 1:]
    if "Metric Name" in ix and "Metric Value" in ix:
        return _parse_details(body, ix)
    units = {}
    if body and len(body[0]) == len(cols) and parse_number(body[0][ix["ID"]]) is None:
        units = {c: body[0][j] for j, c in enumerate(cols)}
        body = body[1:]
    launches = []
    for r in body:
        if len(r) != len(cols) or not r[ix["ID"]].strip().isdigit():
            continue  # a program's line, a repeated header, a truncated row
        l = Launch(int(r[ix["ID"]]), r[ix["Kernel Name"]],
                   parse_dims(r[ix["Grid Size"]]) if "Grid Size" in ix else None,
                   parse_dims(r[ix["Block Size"]]) if "Block Size" in ix else None)
        for c, j in ix.items():
            if c in ID_COLUMNS:
                continue
            v = parse_number(r[j])
            f, base = unit_factor(units.get(c, ""))
            l.metrics[c] = None if v is None else v * f
            l.units[c] = base
        launches.append(l)
    return launches


def _parse_details(body, ix):
    by_id = OrderedDict()
    for r in body:
        if len(r) <= max(ix.values()) or not r[ix["ID"]].strip().isdigit():
            continue
        lid = int(r[ix["ID"]])
        l = by_id.get(lid)
        if l is None:
            l = by_id[lid] = Launch(lid, r[ix["Kernel Name"]],
                                    parse_dims(r[ix["Grid Size"]]) if "Grid Size" in ix else None,
                                    parse_dims(r[ix["Block Size"]]) if "Block Size" in ix else None)
        name = r[ix["Metric Name"]]
        v = parse_number(r[ix["Metric Value"]])
        f, base = unit_factor(r[ix["Metric Unit"]] if "Metric Unit" in ix else "")
        l.metrics[name] = None if v is None else v * f
        l.units[name] = base
    return list(by_id.values())


def read_csv(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return parse(fh.read())


def by_kernel(launches, by_grid=False):
    """{kernel base name (or (name, grid) with by_grid): KernelStats}, in first-seen order."""
    groups = OrderedDict()
    for l in launches:
        key = (l.kernel, l.grid) if by_grid else l.kernel
        groups.setdefault(key, []).append(l)
    return OrderedDict((k, KernelStats(k, v)) for k, v in groups.items())


def read_kernels(path, by_grid=False):
    return by_kernel(read_csv(path), by_grid)


def _fmt_grid(g):
    return "x".join(str(x) for x in g) if g else "-"


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="ncu_kernels.py",
                                 description="Per-kernel launches and times of ncu raw-page CSVs.")
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--json", action="store_true", help="JSON instead of a table")
    ap.add_argument("--by-grid", action="store_true", help="one row per kernel and grid size")
    ap.add_argument("--launches", action="store_true", help="with --json: every launch's metrics")
    args = ap.parse_args(argv)
    out = OrderedDict()
    for path in args.csv:
        ks = read_kernels(path, args.by_grid)
        out[path] = [k.to_json(args.launches) for k in ks.values()]
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    for path, ks in out.items():
        print(path)
        print("  %-24s %9s %8s %12s %12s  %s" % ("kernel", "grid", "launches", "total_ms",
                                                "mean_ms", "grids"))
        for k in ks:
            print("  %-24s %9s %8d %12.4f %12s  %s" % (
                k["kernel"], _fmt_grid(k.get("grid")), k["launches"], k["total_ns"] / 1e6,
                "%.4f" % (k["mean_ns"] / 1e6) if k["mean_ns"] is not None else "-",
                " ".join(_fmt_grid(g) for g in k["grids"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
