#!/usr/bin/env python3
"""Speed benchmark over a fixed sample of public files (issue 19), not a test.

Stages each file's program directory from the HeCBench mirror (the `fetch`
tool's bare git dir; nothing is copied into the repository) into --stage, then
runs bench/parse_floor.py --cpu over the files: warplint check's CPU time
against the parse floor (`clang++-19 -fsyntax-only --cuda-device-only`, same
flags), per file, with total, median, p90 and max of the per-file ratios.

The sample: every file issue 19 names as slow (first block), the two it names
for the local-memory rule, and every 20th HeCBench *-cuda/main.cu from the
third (sorted paths of the mirror at f27000a).

usage: bench/speed_sample.py [--mirror DIR] [--stage DIR] [--warplint BIN] [--runs N] [--timeout S]
"""
import argparse, os, subprocess, sys

# The static analysis alone: where a toolkit is installed the default
# `--ptxas auto` would add nvcc compiles (cached) to some files' times and
# findings; a caller may still set WARPLINT_PTXAS itself.
os.environ.setdefault("WARPLINT_PTXAS", "off")

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SAMPLE = """
src/convolution3D-cuda/main.cu src/convolution3D-hip/main.cu src/sw4ck-cuda/curvilinear4sg.cu
src/channelSum-hip/main.cu src/ccs-hip/main.cu src/vol2col-cuda/main.cu src/d3q19-bgk-cuda/main.cu
src/bilateral-cuda/main.cu
src/hadamard-cuda/main.cu src/ssm-cuda/main.cu
src/adam-cuda/main.cu src/atomicCost-cuda/main.cu src/bscan-cuda/main.cu src/cmembench-cuda/main.cu
src/d2q9-bgk-cuda/main.cu src/dxtc2-cuda/main.cu src/filter-cuda/main.cu src/gels-cuda/main.cu
src/hellinger-cuda/main.cu src/kiss-cuda/main.cu src/log2-cuda/main.cu src/maxpool3d-cuda/main.cu
src/mixbench-cuda/main.cu src/nlll-cuda/main.cu src/perplexity-cuda/main.cu src/radixsort2-cuda/main.cu
src/rotary-cuda/main.cu src/sddmm-batch-cuda/main.cu src/sparkler-cuda/main.cu src/storeKVCache-cuda/main.cu
src/tridiagonal-cuda/main.cu src/zerocopy-cuda/main.cu
""".split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", default="/work/.mirror/zjin-lcf+HeCBench/repo")
    ap.add_argument("--stage", default="/tmp/speed-sample")
    ap.add_argument("--warplint", default=os.path.join(root, "build", "bin", "warplint"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    dirs = sorted({os.path.dirname(f) for f in SAMPLE})
    os.makedirs(a.stage, exist_ok=True)
    for d in dirs:
        if not os.path.isdir(os.path.join(a.stage, d)):
            archive = subprocess.run(["git", "--git-dir", a.mirror, "archive", "HEAD", d],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", a.stage], input=archive, check=True)
    files = [os.path.join(a.stage, f) for f in SAMPLE]
    sys.exit(subprocess.call([sys.executable, os.path.join(root, "bench", "parse_floor.py"), "--cpu",
                              "--runs", str(a.runs), "--timeout", str(a.timeout), "--warplint", a.warplint] + files))


if __name__ == "__main__":
    main()
