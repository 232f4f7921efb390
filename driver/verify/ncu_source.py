"""Read Nsight Compute source-page CSV exports (python3 stdlib only).

`ncu -i REP --page source --csv --print-source cuda,sass` prints, per source
file of each kernel, two header rows ("File Path", "Function Name"), a column
row starting with "Line No", then for each CUDA line one row carrying the
line's totals followed by one row per SASS instruction of that line (empty
"Line No"). This module keeps the SASS rows and sums them per CUDA line and
address space, so that the shared and global traffic of a line stay apart.
"""
import csv
import os

# Counter noise: ncu reports a few excess shared wavefronts on conflict-free
# code (40,894 against 65 million on an 8192^2 padded transpose). A line is
# a measured bank conflict when its wavefronts exceed the ideal by 5%.
SHARED_NOISE = 0.05
# A line is measured uncoalesced by the rule's own threshold (G_3): at least
# twice the ideal sectors and at least two excess sectors per request, less
# this tolerance.
GLOBAL_TOL = 0.1


def _num(s):
    s = (s or "").strip().replace(",", "")
    if s in ("", "-"):
        return 0.0
    try:
        return float(s)
    except ValueError:
        return 0.0


class LineCounters:
    """Per (source file, line) sums over the SASS instructions of one kernel."""

    __slots__ = ("shared_wavefronts", "shared_ideal", "shared_requests",
                 "shared_ops", "global_sectors", "global_ideal",
                 "global_requests", "global_tag_requests", "global_thread_insts",
                 "global_ops", "global_sizes", "local_sectors", "local_requests",
                 "source")

    def __init__(self):
        self.shared_wavefronts = 0.0
        self.shared_ideal = 0.0
        self.shared_requests = 0.0
        self.shared_ops = []
        self.global_sectors = 0.0
        self.global_ideal = 0.0
        self.global_requests = 0.0
        self.global_tag_requests = 0.0
        self.global_thread_insts = 0.0
        self.global_ops = []
        # Bits a thread moves per executed global instruction (ncu's "Access
        # Size"; the opcode's width suffix where the column is absent).
        self.global_sizes = []
        self.local_sectors = 0.0
        self.local_requests = 0.0
        self.source = ""

    def shared_ratio(self):
        return self.shared_wavefronts / self.shared_ideal if self.shared_ideal else None

    def global_ratio(self):
        return self.global_sectors / self.global_ideal if self.global_ideal else None

    def sectors_per_request(self):
        return self.global_sectors / self.global_requests if self.global_requests else None

    def ideal_per_request(self):
        return self.global_ideal / self.global_requests if self.global_requests else None

    def wavefronts_per_request(self):
        return self.shared_wavefronts / self.shared_requests if self.shared_requests else None


def read_source_csv(path):
    """Returns (function_name, {(basename, line): LineCounters})."""
    lines = {}
    func = ""
    cur_file = ""
    header = None
    cur_line = None
    with open(path, newline="") as fh:
        for row in csv.reader(fh):
            if not row:
                continue
            if len(row) == 2 and row[0] == "File Path":
                cur_file = os.path.basename(row[1])
                header = None
                continue
            if len(row) == 2 and row[0] == "Function Name":
                func = row[1]
                continue
            if row[0] == "Line No":
                # "Source" appears twice (CUDA text, then SASS text): the last
                # one wins, which holds the SASS text on instruction rows.
                header = {name: i for i, name in enumerate(row)}
                continue
            if header is None:
                continue
            if row[0].strip():
                cur_line = int(row[0])
                key = (cur_file, cur_line)
                lc = lines.setdefault(key, LineCounters())
                lc.source = row[1].strip()
                continue
            if cur_line is None:
                continue
            lc = lines[(cur_file, cur_line)]
            get = lambda name: row[header[name]] if name in header and header[name] < len(row) else ""
            space = get("Address Space").strip()
            sass = get("Source").strip()
            execd = _num(get("Instructions Executed"))
            if space.startswith("Shared"):
                lc.shared_wavefronts += _num(get("L1 Wavefronts Shared"))
                lc.shared_ideal += _num(get("L1 Wavefronts Shared Ideal"))
                lc.shared_requests += execd
                lc.shared_ops.append(opcode(sass))
            elif space.startswith("Global"):
                lc.global_sectors += _num(get("L2 Theoretical Sectors Global"))
                lc.global_ideal += _num(get("L2 Theoretical Sectors Global Ideal"))
                # Requests: warp-level instructions executed. ("L1 Tag
                # Requests Global" counts tag lookups, one per 128-byte line
                # touched, not one per warp instruction.)
                lc.global_requests += execd
                lc.global_tag_requests += _num(get("L1 Tag Requests Global"))
                lc.global_thread_insts += _num(get("Predicated-On Thread Instructions Executed"))
                lc.global_ops.append(opcode(sass))
                if execd:
                    lc.global_sizes.append(int(_num(get("Access Size"))) or access_bits(sass))
            elif space.startswith("Local"):
                lc.local_sectors += _num(get("L2 Theoretical Sectors Local"))
                lc.local_requests += execd
    return func, lines


def opcode(sass):
    """'@!P0 LDG.E.64 R2, desc[...]' -> 'LDG.E.64'."""
    toks = [t for t in sass.split() if not t.startswith("@")]
    return toks[0] if toks else "?"


def access_bits(sass):
    """Bits a thread moves, from the opcode's width suffix: LDG.E.U8 -> 8,
    STG.E.64 -> 64, LDG.E -> 32."""
    for part in opcode(sass).split(".")[1:]:
        if part in ("U8", "S8"):
            return 8
        if part in ("U16", "S16"):
            return 16
        if part in ("64", "128"):
            return int(part)
    return 32


def narrow_positive(lc):
    """A line is measured narrow when every executed global instruction on
    it moves one byte a thread (global-narrow-access)."""
    return bool(lc.global_sizes) and all(b == 8 for b in lc.global_sizes)


def load_reports(directory, programs=None):
    """All *.sass.csv under directory (of the named programs, the report
    name's part before the first dot, if given): [(report name, function,
    lines)]."""
    out = []
    for fn in sorted(os.listdir(directory)):
        if programs is not None and fn.split(".")[0] not in programs:
            continue
        if fn.endswith(".sass.csv") and not fn.startswith("probe_"):
            func, lines = read_source_csv(os.path.join(directory, fn))
            out.append((fn[: -len(".sass.csv")], func, lines))
    return out


def kernel_base(func):
    """'void stridedT<8>(const float *, float *)' -> 'stridedT'."""
    f = func.split("(")[0].strip().split()[-1] if func else ""
    return f.split("<")[0]


def _move(lc_from, lc_to, space):
    if space == "shared":
        for a in ("shared_wavefronts", "shared_ideal", "shared_requests"):
            setattr(lc_to, a, getattr(lc_to, a) + getattr(lc_from, a))
            setattr(lc_from, a, 0.0)
        lc_to.shared_ops += lc_from.shared_ops
        lc_from.shared_ops = []
    else:
        for a in ("global_sectors", "global_ideal", "global_requests", "global_tag_requests",
                  "global_thread_insts"):
            setattr(lc_to, a, getattr(lc_to, a) + getattr(lc_from, a))
            setattr(lc_from, a, 0.0)
        lc_to.global_ops += lc_from.global_ops
        lc_from.global_ops = []
        lc_to.global_sizes += lc_from.global_sizes
        lc_from.global_sizes = []


def repair_attribution(reps, model_lines, corpus_files):
    """The compiler's line table sometimes files a load under the next line
    (the use of the loaded value). Within one report, traffic on a line where
    warplint has no access of that space moves to the kernel's nearest
    access line of that space up to 3 lines above that has no traffic of its
    own. (Inlined header code such as `__ldg` is listed by ncu under both the
    header line and the call line; header lines are ignored.)"""
    moves = []
    for name, func, lines in reps:
        kb = kernel_base(func)
        for space in ("shared", "global"):
            has = (lambda lc: lc.shared_ideal > 0) if space == "shared" else (lambda lc: lc.global_requests > 0)
            klines = {k for k, ents in model_lines[space].items() if any(n == kb for _, n, _ in ents)}
            silent = sorted(k for k in klines if k not in lines or not has(lines[k]))
            for key in sorted(lines):
                lc = lines[key]
                if not has(lc) or key in model_lines[space]:
                    continue
                if key[0] not in corpus_files:
                    continue  # inlined header code: ncu lists it under the call line too
                near = [k for k in silent if k[0] == key[0] and key[1] - 3 <= k[1] < key[1]]
                target = max(near, key=lambda k: k[1]) if near else None
                if target is None:
                    continue
                dst = lines.setdefault(target, LineCounters())
                if not dst.source:
                    dst.source = "(moved from %s:%d)" % key
                _move(lc, dst, space)
                silent.remove(target)
                moves.append((name, space, key, target))
    return moves


def measured_positive(space, m):
    """m: {"ratio", "sectors", "ideal", "requests"} of one line and space
    (for "narrow", ratio 1 when the line's global accesses are all bytes)."""
    if m is None:
        return False
    if space == "narrow":
        return m["ratio"] >= 1.0  # every global instruction of the line moves one byte a thread
    if space == "shared":
        return m["ratio"] >= 1.0 + SHARED_NOISE
    excess = (m["sectors"] - m["ideal"]) / m["requests"]
    return m["ratio"] >= 2.0 - GLOBAL_TOL and excess >= 2.0 - GLOBAL_TOL
