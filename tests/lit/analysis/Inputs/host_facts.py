"""Prints the host facts of --dump-model one line each, for FileCheck:
transfers (api, direction, each side's memory and allocator, size, stream,
loops with trip counts), launches (kernel, stream, traced buffers) and
managed-memory events, all in source order."""
import json
import sys

lines = []
for unit in json.load(sys.stdin):
    host = unit.get("host", {})
    for t in host.get("transfers", []):
        def side(o):
            s = o["memory"]
            if "allocator" in o:
                s += "/" + o["allocator"]
            if "unknown_reason" in o:
                s += " (" + o["unknown_reason"] + ")"
            return s
        loops = ",".join(l["kind"] + ":" + str(l.get("trip_count", "?")) for l in t["loops"])
        stream = "default" if t["stream"]["default"] else t["stream"].get("text", "")
        if t["stream"].get("varies_in_loop"):
            stream += "(varies)"
        lines.append((t["order"], "transfer %d %s %s dst=%s src=%s size=%s stream=%s loops=[%s]%s%s" % (
            t["loc"]["line"], t["api"], t["direction"], side(t["dst"]), side(t["src"]),
            t.get("size_bytes", "?"), stream, loops,
            " varies" if t.get("dst_varies_in_loop") or t.get("src_varies_in_loop") else "",
            "" if t["args_parsed"] else " unparsed")))
    for l in host.get("launches", []):
        bufs = ",".join("%s=%s" % (b["text"], b["origin"]["memory"]) for b in l.get("buffers", []))
        stream = "default" if l["stream"]["default"] else l["stream"].get("text", "")
        lines.append((l["order"], "launch %d %s stream=%s buffers=[%s]" % (l["loc"]["line"], l["kernel"], stream, bufs)))
    for e in host.get("managed", []):
        bound = " bytes<=%d" % e["touch_bytes_at_most"] if "touch_bytes_at_most" in e else ""
        lines.append((e["order"], "managed %d %s %s%s" % (e["loc"]["line"], e["kind"], e.get("variable", ""), bound)))
# In source order (the walker numbers every event as it meets it).
for _, line in sorted(lines):
    print(line)
