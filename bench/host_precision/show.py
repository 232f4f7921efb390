"""Prints each finding of findings.jsonl with the source lines around it and
around the places its notes name, for the hand check (README.md).
usage: show.py CORPUS_DIR FINDINGS.jsonl RULE [CONTEXT]"""
import json
import sys

corpus, path, rule = sys.argv[1:4]
ctx = int(sys.argv[4]) if len(sys.argv) > 4 else 4
for n, line in enumerate(open(path)):
    f = json.loads(line)
    if f["rule"] != rule:
        continue
    src = open(corpus + "/" + f["file"], errors="replace").read().split("\n")
    print("=" * 100)
    print("#%d %s:%d %s" % (n, f["file"], f["line"], f["message"]))
    for note in f.get("notes", []):
        print("   note:", note["message"][:200])
    lo, hi = max(0, f["line"] - 1 - ctx), min(len(src), f["line"] + ctx)
    for i in range(lo, hi):
        print("%5d%s %s" % (i + 1, ">" if i + 1 == f["line"] else " ", src[i][:150]))
