# Fifth pass (README.md, "Fifth pass"): runs a warplint build over corpus folders with run.py's inputs
# and flags, only files with at least MINCOPIES (default 4) textual copy calls (a run of 4 copies needs
# 4), one file at a time under nice -n 10; resumable (OUT.jsonl.done lists the files done).
# usage: [RULES=...] pass5_run.py WARPLINT OUT.jsonl CORPUS_DIR...
import json, os, re, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as R
R.RULES = os.environ.get("RULES", "host-transfer-batching")
pat = re.compile(r"\b(cudaMemcpy(Async|ToSymbol(Async)?|FromSymbol(Async)?)?|cuMemcpy(HtoD|DtoH)(Async)?(_v2)?)\s*\(")
minc = int(os.environ.get("MINCOPIES", "4"))
wl, out = sys.argv[1:3]
done = set()
if os.path.exists(out + ".done"):
    done = set(l.strip() for l in open(out + ".done"))
with open(out, "a") as o, open(out + ".done", "a") as d:
    for corpus in sys.argv[3:]:
        jobs = [j for j in R.inputs(corpus) if len(pat.findall(open(j[1], errors="replace").read())) >= minc]
        print("corpus", corpus, len(jobs), "files", time.strftime("%H:%M:%S"), flush=True)
        for j in jobs:
            if j[1] in done:
                continue
            c, p, fs, err = R.run(wl, j)
            if err:
                print("FAILED", p, err, flush=True)
            for x in fs:
                x["corpus_dir"] = corpus
                x["file"] = os.path.relpath(x["file"], corpus)
                o.write(json.dumps(x, sort_keys=True) + "\n")
            o.flush()
            d.write(j[1] + "\n"); d.flush()
print("end", time.strftime("%H:%M:%S"), flush=True)
