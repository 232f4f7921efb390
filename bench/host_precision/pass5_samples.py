"""Writes the fifth pass's hand-check record (README.md, "Fifth pass"): every
host-transfer-batching finding of the runs, with its place, repository@commit,
message, the copies' source lines, and the verdict and reason read by hand.

usage: pass5_samples.py VERDICTS COMMITS OUT FINDINGS.jsonl...
FINDINGS: runs of bench/host_precision/run.py's flags by the fifth pass's runner
(each finding carries corpus_dir, the folder its file is relative to).
VERDICTS: lines "file|line|verdict|reason" (file relative to its corpus folder).
COMMITS: lines "OWNER+NAME SHA" (the staged mirror's HEAD; HeCBench,
NVIDIA+cuda-samples and yuhc+gpu-rodinia by those folder names).
A finding of the same repository file seen twice (a folder staged under two
corpora) is counted once. Prints the counts; exits 1 if a finding has no verdict.
"""
import json
import os
import sys

verdicts_path, commits_path, out = sys.argv[1:4]
verdicts = {}
for line in open(verdicts_path):
    if line.startswith("#") or not line.strip():
        continue
    f, ln, v, why = line.rstrip("\n").split("|", 3)
    verdicts[(f, int(ln))] = (v, why)
commits = dict(l.split()[:2] for l in open(commits_path) if l.strip() and not l.startswith("#"))

rows, seen = [], set()
for path in sys.argv[4:]:
    for line in open(path):
        f = json.loads(line)
        if f["rule"] != "host-transfer-batching" or (f["file"], f["line"]) in seen:
            continue
        seen.add((f["file"], f["line"]))
        src = open(os.path.join(f["corpus_dir"], f["file"]), errors="replace").read().split("\n")
        lines = [p["line"] for p in f["details"].get("run", [])] or [f["line"]]
        rows.append((f, [src[n - 1].strip() for n in lines if 0 < n <= len(src)]))
rows.sort(key=lambda r: (r[0]["file"], r[0]["line"]))

missing, counts = 0, {}
with open(out, "w") as o:
    o.write("# host-transfer-batching, fifth pass: every finding of the fifth pass's build on the files run\n"
            "# (README.md, 'Fifth pass'), each read by hand; verdict 'correct (...)' counts as correct\n")
    for n, (f, code) in enumerate(rows):
        v, why = verdicts.get((f["file"], f["line"]), ("UNCHECKED", ""))
        missing += v == "UNCHECKED"
        key = "correct" if v.startswith("correct") else v
        counts[key] = counts.get(key, 0) + 1
        repo = f["file"].split("/")[0]
        name = "zjin-lcf/HeCBench" if repo == "HeCBench" else repo.replace("+", "/", 1)
        kind = "run" if f["details"].get("run") else "loop"
        o.write("%2d %s:%d  [%s, %s]\n" % (n, f["file"], f["line"], kind, f["severity"]))
        o.write("    REPO: %s@%s\n" % (name, commits.get(repo, "?")))
        o.write("    MSG: %s\n" % f["message"][:400])
        for c in code:
            o.write("    COPY: %s\n" % c[:200])
        o.write("    VERDICT: %s: %s\n" % (v, why))
    o.write("# %d findings: %s\n" % (len(rows), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
print(len(rows), counts, "unchecked", missing)
sys.exit(1 if missing else 0)
