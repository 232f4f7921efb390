"""Runs the host-side rules over public CUDA code and collects their findings
(issue 20's precision study; see bench/host_precision/README.md).

usage: run.py WARPLINT CORPUS_DIR OUT_DIR
CORPUS_DIR holds the extracted mirrors: NVIDIA+cuda-samples/ (every .cu, and
every .cpp that includes cuda_runtime), yuhc+gpu-rodinia/cuda/ (every .cu),
HeCBench/src/*-cuda/ (every .cu of the programs extracted there); any other
directory OWNER+NAME/ is a corpus of its own (the third pass's repositories):
every .cu, and every .cpp that includes cuda_runtime, with -I its directory,
-I the repository's root and -I each directory of it named common/include/inc
(teaching repos keep their error-check headers there).
Writes OUT_DIR/findings.jsonl (one finding a line) and OUT_DIR/counts.txt.
One file at a time by default (JOBS=1), under nice: the machine is shared.
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# RULES (environment): a subset of the rules, e.g. the fourth pass's two
RULES = os.environ.get("RULES", "host-pageable-transfer,host-transfer-batching,host-transfer-no-overlap,"
                       "managed-memory-no-prefetch")


def inputs(corpus):
    jobs = []  # (corpus name, file, extra flags)
    cs = os.path.join(corpus, "NVIDIA+cuda-samples")
    common = os.path.join(cs, "Common")
    for root, _, files in os.walk(cs):
        for f in sorted(files):
            p = os.path.join(root, f)
            if f.endswith(".cu") or (f.endswith(".cpp") and "cuda_runtime" in open(p, errors="replace").read()):
                jobs.append(("cuda-samples", p, ["-I", common, "-I", root]))
    rod = os.path.join(corpus, "yuhc+gpu-rodinia", "cuda")
    for root, _, files in os.walk(rod):
        for f in sorted(files):
            if f.endswith(".cu"):
                jobs.append(("rodinia", os.path.join(root, f), ["-I", root]))
    hec = os.path.join(corpus, "HeCBench", "src")
    for root, _, files in os.walk(hec):
        for f in sorted(files):
            if f.endswith(".cu"):
                jobs.append(("hecbench", os.path.join(root, f), ["-I", root, "-I", os.path.join(hec, "include")]))
    for repo in sorted(os.listdir(corpus)):
        top = os.path.join(corpus, repo)
        if repo in ("NVIDIA+cuda-samples", "yuhc+gpu-rodinia", "HeCBench") or not os.path.isdir(top):
            continue
        incs = [top] + sorted(os.path.join(r, d) for r, ds, _ in os.walk(top) for d in ds
                              if d.lower() in ("common", "include", "inc"))
        for root, _, files in os.walk(top):
            for f in sorted(files):
                p = os.path.join(root, f)
                if f.endswith(".cu") or (f.endswith(".cpp") and "cuda_runtime" in open(p, errors="replace").read()):
                    flags = ["-I", root]
                    for i in incs:
                        flags += ["-I", i]
                    jobs.append((repo, p, flags))
    wanted = os.environ.get("CORPORA")  # e.g. "rodinia,hecbench": a part of the study
    match = re.compile(os.environ.get("MATCH", ""))  # a regex on the path under CORPUS_DIR: a part of a corpus
    # NEED: a regex the file's text must match (e.g. "cudaMemcpy|cudaMallocManaged|__managed__"): files
    # with no copy and no managed memory cannot give a host finding, and skipping them saves the CPU.
    need = re.compile(os.environ["NEED"]) if os.environ.get("NEED") else None
    return sorted(j for j in jobs if (not wanted or j[0] in wanted.split(","))
                  and match.search(os.path.relpath(j[1], corpus))
                  and (not need or need.search(open(j[1], errors="replace").read())))


def run(warplint, job):
    corpus, path, flags = job
    cmd = ["nice", "-n", "10", warplint, "check", path, "--rules", RULES, "--format", "json", "--no-cost-model", "-j", "1",
           "--quiet", "--"] + flags
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300).stdout
        report = json.loads(out) if out.strip() else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        return corpus, path, [], "failed: %s" % type(e).__name__
    return corpus, path, report.get("findings", []), ""


def main():
    warplint, corpus, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    jobs = inputs(corpus)
    counts, failed = {}, []
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "1"))) as pool, \
            open(os.path.join(out, "findings.jsonl"), "w") as f:
        for corpus_name, path, findings, err in pool.map(lambda j: run(warplint, j), jobs):
            if err:
                failed.append((path, err))
            for x in findings:
                x["corpus"] = corpus_name
                x["file"] = os.path.relpath(x["file"], corpus)
                f.write(json.dumps(x, sort_keys=True) + "\n")
                counts[(corpus_name, x["rule"])] = counts.get((corpus_name, x["rule"]), 0) + 1
            f.flush()  # a run stopped early keeps what it found
    with open(os.path.join(out, "counts.txt"), "w") as c:
        c.write("files analyzed: %d (%d failed)\n" % (len(jobs), len(failed)))
        for (corpus_name, rule), n in sorted(counts.items()):
            c.write("%s %s %d\n" % (corpus_name, rule, n))
        for path, err in failed:
            c.write("failed %s %s\n" % (os.path.relpath(path, corpus), err))
    print(open(os.path.join(out, "counts.txt")).read())


if __name__ == "__main__":
    main()
