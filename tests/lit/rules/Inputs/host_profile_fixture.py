"""Writes a test profile: the bundled H100 profile plus host-transfer probe
values, so that lit tests can check how the host rules quote them. The added
values are test fixtures, not measurements: the device name says so.
With --without-host-probes it writes the profile with no host probe at all,
to check what the rules say when the active profile lacks a measurement."""
import json
import sys

args = [a for a in sys.argv[1:] if a != "--without-host-probes"]
without = len(args) != len(sys.argv) - 1
src, dst = args
p = json.load(open(src))
p["profile_id"] = "host-fixture"
p["device"]["name"] = "FIXTURE-GPU"


def value(probe, name, params, median, unit):
    return {"name": name, "params": params, "unit": unit, "median": median, "min": median, "max": median,
            "q1": median, "q3": median, "runs": 7, "probe": probe, "method": "test fixture",
            "samples": [median] * 7}


bw = []
for direction in ("h2d", "d2h"):
    for memory, scale in (("pageable", 0.5), ("pinned", 1.0)):
        for n, gbps in ((4096, 2.0), (65536, 10.0), (1048576, 20.0), (16777216, 24.0), (268435456, 25.0)):
            bw.append(value("host_transfer_bandwidth", "bandwidth_gbps",
                            {"direction": direction, "memory": memory, "bytes": n}, gbps * scale, "GB/s"))
lat = []
for direction in ("h2d", "d2h"):
    for memory, us in (("pageable", 8.0), ("pinned", 4.0)):
        for n in (4, 256, 4096):
            lat.append(value("host_copy_latency", "time_us", {"direction": direction, "memory": memory, "bytes": n},
                             us + n / 4096.0, "us"))
ov = []
for s, ms in ((1, 10.0), (2, 6.0), (4, 5.0), (8, 4.5), (16, 4.8)):
    ov.append(value("copy_kernel_overlap_vs_streams", "time_ms", {"streams": s}, ms, "ms"))
    ov.append(value("copy_kernel_overlap_vs_streams", "speedup_vs_one_stream", {"streams": s}, 10.0 / ms, "x"))
mg = []
for mode, ms, gbps in (("none", 12.0, 20.0), ("prefetch", 2.0, 120.0), ("device_resident", 0.5, 480.0)):
    mg.append(value("managed_first_touch", "kernel_time_ms", {"prefetch": mode}, ms, "ms"))
    mg.append(value("managed_first_touch", "bandwidth_gbps", {"prefetch": mode}, gbps, "GB/s"))
# managed_host_touch after a kernel: host pass times by size (read, write), with and without a prefetch.
ht = []
for mib, scale in ((4, 1.0), (16, 4.0), (64, 16.0), (256, 64.0)):
    n = mib * 1048576
    for pas, none, pre, res in (("read", 3.0, 2.0, 1.0), ("write", 6.0, 4.0, 2.0)):
        ht.append(value("managed_host_touch", "host_time_ms", {"host_pass": pas, "bytes": n, "prefetch": "none"},
                        none * scale, "ms"))
        ht.append(value("managed_host_touch", "host_time_ms", {"host_pass": pas, "bytes": n, "prefetch": "prefetch"},
                        pre * scale, "ms"))
        ht.append(value("managed_host_touch", "host_resident_time_ms", {"host_pass": pas, "bytes": n},
                        res * scale, "ms"))
# The bundled profiles carry measured host probes now; drop them so that the
# rules quote the fixture values and the expectations stay independent of them.
fixture_ids = {"host_transfer_bandwidth", "host_copy_latency", "copy_kernel_overlap_vs_streams", "managed_first_touch",
               "managed_host_touch"}
p["probes"] = [probe for probe in p["probes"] if probe["id"] not in fixture_ids]
if without:
    p["profile_id"] = "host-fixture-without-host-probes"
    json.dump(p, open(dst, "w"), indent=1)
    sys.exit(0)
for pid, vals in (("host_transfer_bandwidth", bw), ("host_copy_latency", lat),
                  ("copy_kernel_overlap_vs_streams", ov), ("managed_first_touch", mg), ("managed_host_touch", ht)):
    p["probes"].append({"id": pid, "title": pid, "method": "test fixture", "wall_seconds": 0.0, "values": vals})
json.dump(p, open(dst, "w"), indent=1)
