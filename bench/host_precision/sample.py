"""Draws a random sample of one rule's findings for the hand check and prints,
for each, the copy's line and the allocation's line (from the rewrite note, so
an allocation in another file is shown from that file), and whether the copy's
file registers host memory anywhere (cudaHostRegister would pin it).
usage: sample.py CORPUS_DIR RULE N SEED FINDINGS.jsonl...
DEDUPE=1: a finding at the same code line of a file whose code (comments and blanks removed) is identical to an earlier one's (sorted by place)
is dropped before sampling (courses that keep the same program in several languages or as
exercise and solution would fill a sample with copies); the count dropped is printed."""
import hashlib
import json
import os
import random
import re
import sys

corpus, rule, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
found = []
for path in sys.argv[5:]:
    for line in open(path):
        f = json.loads(line)
        if f["rule"] == rule:
            found.append(f)
found.sort(key=lambda f: (f["file"], f["line"], f["column"]))
def code_key(f):
    """The file's code without comments and blank space (a translated course keeps the code and
    changes the comments, which moves lines), the finding's line the same way, and its message
    without line numbers."""
    text = open(os.path.join(corpus, f["file"]), errors="replace").read()
    lines = text.split("\n")
    strip = lambda t: re.sub(r"\s+", "", re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", t, flags=re.S)))
    line = strip(lines[f["line"] - 1]) if 0 < f["line"] <= len(lines) else ""
    return (hashlib.sha1(strip(text).encode()).hexdigest(), line, re.sub(r"\d+", "#", f["message"]))


if os.environ.get("DEDUPE"):
    seen, kept = set(), []
    for f in found:
        key = code_key(f)
        if key not in seen:
            seen.add(key)
            kept.append(f)
    print("# DEDUPE: %d of %d findings are copies (the same code line and message in a file whose code, comments and blanks removed, is identical) and were dropped" %
          (len(found) - len(kept), len(found)))
    found = kept
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
