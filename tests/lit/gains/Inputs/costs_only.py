"""Prints the per-kernel cost blocks of a `warplint check --format json`
report read from stdin, one indented JSON object each, so that FileCheck
sees them without the findings (whose details name kernels too)."""
import json
import sys

for unit in json.load(sys.stdin).get("units", []):
    for cost in unit.get("costs", []):
        print(json.dumps(cost, indent=1))
