"""Prints one line per kernel of a `warplint check --dump-model` document:
name, block origin and the shapes tried, so that FileCheck tests can match
them in order (the JSON keys are sorted, which puts the name after them)."""
import json
import sys

for unit in json.load(sys.stdin):
    for note in unit.get("frontend_notes", []):
        print("frontend note:", note["message"])
    for k in unit.get("kernels", []):
        shapes = " ".join("(%d, %d, %d)" % tuple(s) for s in k.get("block_shapes", []))
        print("%s%s: %s %s" % (k["name"], k.get("template_args", ""), k["block_origin"], shapes))
