#!/usr/bin/env python3
"""Applies the fixes of a SARIF log the way a SARIF consumer would, for the
sarif-fixes lit test: each result's first fix, replacements by byteOffset /
byteLength, after checking that the line/column region names the same bytes.

usage: apply_sarif_fixes.py LOG.sarif
"""
import json
import sys
import urllib.parse


def path_of(location, bases):
    """An artifactLocation as a path: an absolute file:// URI, or one relative
    to a uriBaseId that run.originalUriBaseIds defines."""
    uri = location["uri"]
    if "uriBaseId" in location:
        uri = bases[location["uriBaseId"]]["uri"] + uri
    if not uri.startswith("file://"):
        sys.exit(f"cannot resolve {location}")
    return urllib.parse.unquote(uri[len("file://"):])


def byte_offset(text, line, column):
    """SARIF line/column (UTF-16 code units) -> byte offset in UTF-8 `text`."""
    data = text.encode("utf-8")
    pos = 0
    for _ in range(line - 1):
        pos = data.index(b"\n", pos) + 1
    units = 1
    while units < column:
        c = data[pos]
        width = 1 if c < 0x80 else 2 if c < 0xE0 else 3 if c < 0xF0 else 4
        units += 2 if width == 4 else 1
        pos += width
    return pos


def main():
    with open(sys.argv[1]) as f:
        log = json.load(f)
    edits = {}
    fixes = 0
    bases = log["runs"][0].get("originalUriBaseIds", {})
    for result in log["runs"][0]["results"]:
        if not result.get("fixes"):
            continue
        fixes += 1
        for change in result["fixes"][0]["artifactChanges"]:
            path = path_of(change["artifactLocation"], bases)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for r in change["replacements"]:
                region = r["deletedRegion"]
                start, length = region["byteOffset"], region["byteLength"]
                begin = byte_offset(text, region["startLine"], region["startColumn"])
                end = byte_offset(text, region["endLine"], region["endColumn"])
                if (begin, end) != (start, start + length):
                    sys.exit(f"{path}: region {region} names bytes {begin}..{end}")
                edits.setdefault(path, set()).add((start, length, r["insertedContent"]["text"]))
    if not fixes:
        sys.exit("the log has no fixes")
    for path, reps in edits.items():
        with open(path, "rb") as f:
            data = f.read()
        # As the rewriter: from the end; at one offset the replacement before the insertion.
        for start, length, text in sorted(reps, key=lambda e: (-e[0], -e[1])):
            data = data[:start] + text.encode("utf-8") + data[start + length:]
        with open(path, "wb") as f:
            f.write(data)
    print(f"applied {fixes} fixes to {len(edits)} files")


if __name__ == "__main__":
    main()
