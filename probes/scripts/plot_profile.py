#!/usr/bin/env python3
"""Draw a profile's curves to PNG with matplotlib (Debian: python3-matplotlib).

usage: plot_profile.py PROFILE OUTDIR
Writes latency_vs_footprint.png, bank_conflicts.png, bandwidth_by_type.png,
tlb_latency.png and, where the profile has the cost-model probes,
throughput_vs_warps.png (seed 003 Fig. 2) and bandwidth_vs_in_flight.png (Fig. 3).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def values(prof, probe, name):
    for p in prof["probes"]:
        if p["id"] == probe:
            return [v for v in p["values"] if v["name"] == name]
    return []


def errbars(vs):
    med = [v["median"] for v in vs]
    return med, [[m - v["min"] for m, v in zip(med, vs)], [v["max"] - m for m, v in zip(med, vs)]]


def main():
    prof_path, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    with open(prof_path) as f:
        prof = json.load(f)
    dev = prof["device"]["name"]

    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    l1 = values(prof, "l1_latency_vs_footprint", "latency_cycles")
    med, err = errbars(l1)
    a.errorbar([v["params"]["footprint_kib"] for v in l1], med, yerr=err, marker="o", ms=3)
    a.set(xlabel="footprint (KiB)", ylabel="cycles per load", title="L1 path (ld.global.ca)")
    l2 = values(prof, "l2_latency_vs_footprint", "latency_cycles")
    med, err = errbars(l2)
    b.errorbar([v["params"]["footprint_mib"] for v in l2], med, yerr=err, marker="o", ms=3, color="C1")
    b.set(xlabel="footprint (MiB)", ylabel="cycles per load", title="L2 path (ld.global.cg)")
    for ax in (a, b):
        ax.grid(alpha=0.3)
    fig.suptitle(f"Pointer-chase latency against footprint, {dev}")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "latency_vs_footprint.png"), dpi=110)

    fig, a = plt.subplots(figsize=(7, 4))
    lat = [v for v in values(prof, "shared_bank_conflicts", "latency_cycles")]
    thr = [v for v in values(prof, "shared_bank_conflicts", "throughput_bytes_per_clk_per_sm")
           if "degree" in v["params"]]
    a.plot([v["params"]["degree"] for v in lat], [v["median"] for v in lat], "o-", ms=3,
           label="latency (cycles, one warp)")
    a.set(xlabel="bank-conflict degree", ylabel="cycles per load")
    b = a.twinx()
    degrees = [v["params"]["degree"] for v in thr]
    b.plot(degrees, [v["median"] for v in thr], "s-", ms=3, color="C1", label="throughput (B/clk/SM)")
    b.plot(degrees, [128.0 / d for d in degrees], ":", color="gray", label="128 / degree")
    b.set(ylabel="bytes per clock per SM", yscale="log")
    fig.legend(loc="upper center", ncol=3, fontsize=8)
    a.grid(alpha=0.3)
    fig.suptitle(f"Shared-memory bank conflicts, 4-byte loads, {dev}", y=0.02, va="bottom", fontsize=9)
    fig.tight_layout(rect=(0, 0.05, 1, 0.92))
    fig.savefig(os.path.join(outdir, "bank_conflicts.png"), dpi=110)

    fig, a = plt.subplots(figsize=(8, 4))
    bw = values(prof, "global_bandwidth_by_type", "bandwidth_gbps")
    med, err = errbars(bw)
    a.bar([v["params"]["type"] for v in bw], med, yerr=err, color=["C0"] * (len(bw) - 1) + ["C2"])
    theo = prof["device"]["theoretical_dram_bandwidth_gbps"]
    a.axhline(theo, ls=":", color="gray")
    a.text(0, theo, f" theoretical {theo:.0f} GB/s", va="bottom", fontsize=8)
    a.set(ylabel="GB/s (read + written)", title=f"Copy bandwidth by element type, 256 MiB, {dev}")
    a.tick_params(axis="x", labelrotation=30)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "bandwidth_by_type.png"), dpi=110)

    tlb = values(prof, "tlb_reach", "latency_cycles")
    if tlb:
        fig, a = plt.subplots(figsize=(8, 4))
        series = sorted({(v["params"].get("allocation", "cudamalloc"), v["params"]["stride_mib"]) for v in tlb})
        for alloc, stride in series:
            vs = [v for v in tlb if v["params"].get("allocation", "cudamalloc") == alloc
                  and v["params"]["stride_mib"] == stride]
            a.plot([v["params"]["pages"] for v in vs], [v["median"] for v in vs], "o-", ms=3,
                   label=f"{alloc}, {stride:g} MiB stride")
        a.set(xscale="log", xlabel="distinct pages chased", ylabel="cycles per load (L2 hit + translation)",
              title=f"TLB reach: one line per page, {dev}")
        a.legend(fontsize=8)
        a.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "tlb_latency.png"), dpi=110)
    try:
        cost_model_plots(prof, dev, outdir)
    except (KeyError, ValueError, IndexError) as e:  # a partial profile: the other plots stand
        print(f"cost-model plots skipped: {e!r}")
    return 0


def cost_model_plots(prof, dev, outdir):
    inst = values(prof, "inst_throughput_vs_warps", "warp_instructions_per_clk_per_sm")
    if inst:
        fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
        for cls in dict.fromkeys(v["params"]["class"] for v in inst):
            vs = [v for v in inst if v["params"]["class"] == cls]
            a.plot([v["params"]["warps_per_sm"] for v in vs], [v["median"] for v in vs], "o-", ms=3,
                   label=f"{cls} ({vs[0]['params']['sass']})")
        a.set(xscale="log", xlabel="warps per SM", ylabel="warp instructions per clock per SM",
              title="Instructions (Fig. 2 left)")
        a.legend(fontsize=7, loc="center right")
        shared = values(prof, "shared_throughput_vs_warps", "wavefronts_per_clk_per_sm")
        for d in dict.fromkeys(v["params"]["degree"] for v in shared):
            vs = [v for v in shared if v["params"]["degree"] == d]
            b.plot([v["params"]["warps_per_sm"] for v in vs], [v["median"] for v in vs], "o-", ms=3,
                   label=f"shared, degree {d:g}")
        l1 = [v for v in values(prof, "l1_bandwidth", "l1_hit_bytes_per_clk_per_sm")
              if v["params"]["width_bytes"] == 16]
        if l1:
            b.plot([v["params"]["warps_per_sm"] for v in l1], [v["median"] / 128 for v in l1], "s--", ms=3,
                   color="k", label="L1 hit, float4 (B/clk / 128)")
        b.set(xscale="log", xlabel="warps per SM", ylabel="wavefronts (128 B) per clock per SM",
              title="Shared memory and L1 (Fig. 2 right)")
        b.legend(fontsize=7)
        for ax in (a, b):
            ax.grid(alpha=0.3)
        fig.suptitle(f"Throughput against warps per SM, {dev}")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "throughput_vs_warps.png"), dpi=110)
    l2 = values(prof, "l2_bandwidth_vs_config", "read_bandwidth_gbps")
    dram = values(prof, "dram_bandwidth_vs_config", "read_bandwidth_gbps")
    if l2 or dram:
        fig, a = plt.subplots(figsize=(8, 4))
        for label, vs, style in (("L2 read, 8 MiB", l2, "o"), ("DRAM read, 1 GiB", dram, "s"),
                                 ("L2 write, 8 MiB", values(prof, "l2_bandwidth_vs_config",
                                                            "write_bandwidth_gbps"), "^")):
            if vs:
                a.plot([v["params"]["bytes_in_flight_per_sm"] / 1024 for v in vs], [v["median"] for v in vs],
                       style, ms=4, alpha=0.7, label=label)
        a.set(xscale="log", xlabel="bytes in flight per SM (KiB)", ylabel="GB/s",
              title=f"Bandwidth against bytes in flight (Fig. 3), {dev}")
        a.legend(fontsize=8)
        a.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "bandwidth_vs_in_flight.png"), dpi=110)


if __name__ == "__main__":
    sys.exit(main())
