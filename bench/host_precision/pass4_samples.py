"""Writes the fourth pass's hand-check records (README.md, "Fourth pass"): for
one rule, every finding of the given runs with its place, repository@commit,
message, the copy's source line, and the verdict and reason read by hand.

usage: pass4_samples.py RULE VERDICTS COMMITS OUT RUN=CORPUS_DIR:FINDINGS.jsonl...
VERDICTS: lines "rule|file|line|verdict|reason" (rule without the "host-transfer-"
prefix; file as in the findings, relative to the corpus folder).
COMMITS: lines "OWNER+NAME SHA" (the mirror's HEAD that was staged); the
folders HeCBench, NVIDIA+cuda-samples and yuhc+gpu-rodinia are named here too.
Prints the counts (findings, correct, false) and exits 1 if a finding has no verdict.
"""
import json
import os
import sys

rule, verdicts_path, commits_path, out = sys.argv[1:5]
short = rule.replace("host-transfer-", "")
verdicts = {}
for line in open(verdicts_path):
    if line.startswith("#") or not line.strip():
        continue
    r, f, ln, v, why = line.rstrip("\n").split("|", 4)
    if r == short:
        verdicts[(f, int(ln))] = (v, why)
commits = dict(l.split()[:2] for l in open(commits_path) if l.strip() and not l.startswith("#"))

rows = []
for arg in sys.argv[5:]:
    run, rest = arg.split("=", 1)
    corpus, findings = rest.split(":", 1)
    for line in open(findings):
        f = json.loads(line)
        if f["rule"] != rule:
            continue
        repo = f["file"].split("/")[0]
        src = open(os.path.join(corpus, f["file"]), errors="replace").read().split("\n")
        rows.append((run, f, repo, src[f["line"] - 1].strip() if 0 < f["line"] <= len(src) else ""))
rows.sort(key=lambda r: (r[0] != "recount", r[1]["file"], r[1]["line"]))
# A file of the recount that a new run covers again (cuda-samples asyncAPI.cu) is counted once.
seen, kept = set(), []
for r in rows:
    if (r[1]["file"], r[1]["line"]) not in seen:
        seen.add((r[1]["file"], r[1]["line"]))
        kept.append(r)
rows = kept

missing, counts = 0, {}
with open(out, "w") as o:
    o.write("# %s, fourth pass: every finding of warplint 7540ed8 (the /opt/wl snapshot) on the runs named,\n"
            "# each read by hand (README.md, 'Fourth pass'); verdict 'correct (...)' counts as correct\n" % rule)
    for n, (run, f, repo, code) in enumerate(rows):
        v, why = verdicts.get((f["file"], f["line"]), ("UNCHECKED", ""))
        missing += v == "UNCHECKED"
        key = "correct" if v.startswith("correct") else v
        counts[key] = counts.get(key, 0) + 1
        o.write("%2d %s:%d  [%s]\n" % (n, f["file"], f["line"], run))
        name = "zjin-lcf/HeCBench" if repo == "HeCBench" else repo.replace("+", "/", 1)
        o.write("    REPO: %s@%s\n" % (name, commits.get(repo, "?")))
        o.write("    MSG: %s\n" % f["message"][:200])
        o.write("    COPY: %s\n" % code[:200])
        o.write("    VERDICT: %s: %s\n" % (v, why))
    o.write("# %d findings: %s\n" % (len(rows), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
print(rule, len(rows), counts, "unchecked", missing)
sys.exit(1 if missing else 0)
