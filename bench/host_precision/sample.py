"""Draws a random sample of one rule's findings for the hand check and prints,
for each, the copy's line and the allocation's line (from the rewrite note, so
an allocation in another file is shown from that file), and whether the copy's
file registers host memory anywhere (cudaHostRegister would pin it).
usage: sample.py CORPUS_DIR RULE N SEED FINDINGS.jsonl..."""
import json
import os
import random
import sys

corpus, rule, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
found = []
for path in sys.argv[5:]:
    for line in open(path):
        f = json.loads(line)
        if f["rule"] == rule:
            found.append(f)
found.sort(key=lambda f: (f["file"], f["line"], f["column"]))
random.Random(seed).shuffle(found)


def src_line(path, line):
    try:
        return open(path, errors="replace").read().split("\n")[line - 1].strip()
    except (OSError, IndexError):
        return "?"


print("# %d of %d %s findings, random.Random(%d).shuffle after sorting by place" % (min(n, len(found)), len(found), rule, seed))
for i, f in enumerate(found[:n]):
    path = os.path.join(corpus, f["file"])
    print("%2d %s:%d" % (i, f["file"], f["line"]))
    print("    MSG: " + f["message"][:160])
    print("    COPY: " + src_line(path, f["line"]))
    for note in f.get("notes", []):
        if note["message"].startswith("rewrite:") and note.get("file"):
            where = os.path.relpath(note["file"], corpus) if note["file"].startswith("/") else note["file"]
            print("    ALLOC %s:%d: %s" % (os.path.basename(where), note["line"], src_line(note["file"], note["line"])))
    text = open(path, errors="replace").read()
    if "cudaHostRegister" in text:
        print("    NOTE: the file calls cudaHostRegister")
