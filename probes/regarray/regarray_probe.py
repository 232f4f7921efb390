#!/usr/bin/env python3
"""Register-resident private arrays (seed 000 Table 3), measured with ptxas.

For three access patterns -- vector add (one loop), matrix multiply (three
nested loops) and sort (data-dependent swaps) -- kernels with a thread-private
array of growing size are compiled with `nvcc -Xptxas -v` for each target. An
array the compiler keeps in registers leaves no stack frame; one it places in
local memory shows up as stack-frame bytes. No GPU is needed.

usage: regarray_probe.py [--out FILE] [--check] [--nvcc PATH]
       regarray_probe.py --emit-ptx DIR [--nvcc PATH]
       regarray_probe.py --assemble DIR --ptxas PATH [--archs sm_70,...] [--ptx-version V] [--out FILE]
Exit 77 when no nvcc is found (ctest reports the test as skipped).

The second and third forms are for targets the installed nvcc dropped (CUDA 13
has no sm_70): nvcc writes target-neutral PTX for every size once, and any
ptxas assembles it per target (a CUDA 12 ptxas still knows sm_70). Running
the same PTX through CUDA 13's ptxas for sm_80/sm_90 checks that the route
agrees with the direct nvcc figures.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARCHS = ["sm_70", "sm_80", "sm_90"]
PATTERNS = {
    # name: (sizes, unit, kernel text with @N@)
    "vector_add": ([1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256], "elements", """
extern "C" __global__ void k_@N@(const float* a, const float* b, float* c) {
  float t[@N@];
  int base = blockIdx.x * blockDim.x * @N@ + threadIdx.x;
  for (int i = 0; i < @N@; ++i) t[i] = a[base + i * blockDim.x];
  for (int i = 0; i < @N@; ++i) t[i] += b[base + i * blockDim.x];
  for (int i = 0; i < @N@; ++i) c[base + i * blockDim.x] = t[i];
}
"""),
    "matrix_multiply": ([1, 2, 4, 6, 8, 12, 16], "n (n x n matrices)", """
extern "C" __global__ void k_@N@(const float* a, const float* b, float* c) {
  float A[@N@][@N@], B[@N@][@N@], C[@N@][@N@];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * @N@ * @N@;
  for (int i = 0; i < @N@; ++i)
    for (int j = 0; j < @N@; ++j) {
      A[i][j] = a[base + i * @N@ + j];
      B[i][j] = b[base + i * @N@ + j];
      C[i][j] = 0.f;
    }
  for (int i = 0; i < @N@; ++i)
    for (int j = 0; j < @N@; ++j)
      for (int k = 0; k < @N@; ++k) C[i][j] += A[i][k] * B[k][j];
  for (int i = 0; i < @N@; ++i)
    for (int j = 0; j < @N@; ++j) c[base + i * @N@ + j] = C[i][j];
}
"""),
    "sort": ([1, 2, 4, 8, 16, 32, 48, 64], "elements", """
extern "C" __global__ void k_@N@(const float* in, float* out) {
  float t[@N@];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * @N@;
  for (int i = 0; i < @N@; ++i) t[i] = in[base + i];
  for (int i = 0; i < @N@; ++i)
    for (int j = 0; j + 1 < @N@ - i; ++j)
      if (t[j] > t[j + 1]) { float x = t[j]; t[j] = t[j + 1]; t[j + 1] = x; }
  for (int i = 0; i < @N@; ++i) out[base + i] = t[i];
}
"""),
}


def find_nvcc(explicit):
    if explicit:  # a named compiler is the only one tried
        return explicit if os.path.isfile(explicit) and os.access(explicit, os.X_OK) else None
    for c in [os.environ.get("CUDACXX"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"]:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def nvcc_version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    return next((l.strip() for l in out.splitlines() if "release" in l), out.strip())


def supported_archs(nvcc):
    out = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True).stdout
    return set(re.findall(r"compute_(\d+)", out))


def stack_frames(nvcc, arch, source, workdir):
    """Function name -> stack-frame bytes, from one ptxas -v run."""
    src = os.path.join(workdir, "k.cu")
    with open(src, "w") as f:
        f.write(source)
    r = subprocess.run([nvcc, f"-arch={arch}", "-O3", "-cubin", "-Xptxas", "-v", "-o",
                        os.path.join(workdir, "k.cubin"), src], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"nvcc failed for {arch}:\n{r.stderr[-2000:]}")
    return parse_frames(r.stderr)


def summarize(arch, name, sizes, unit, frames):
    """The result row for one target and pattern from kernel -> stack-frame bytes."""
    in_regs = [n for n in sizes if frames.get(f"k_{n}") == 0]
    largest = 0
    for n in sizes:  # largest size with no local memory at or below it
        if frames.get(f"k_{n}") != 0:
            break
        largest = n
    first_local = next((n for n in sizes if frames.get(f"k_{n}", 0) > 0), None)
    return {"arch": arch, "pattern": name, "largest_register_array": largest,
            "first_local_memory_size": first_local, "unit": unit,
            "sizes_tried": [sizes[0], sizes[-1]],
            "any_larger_in_registers": bool([n for n in in_regs if n > largest])}


def parse_frames(ptxas_stderr):
    frames, current = {}, None
    for line in ptxas_stderr.splitlines():
        m = re.search(r"Function properties for (\w+)", line)
        if m:
            current = m.group(1)
        m = re.search(r"(\d+) bytes stack frame", line)
        if m and current:
            frames[current] = int(m.group(1))
            current = None
    return frames


def dense_sizes(sizes):
    return list(range(1, max(sizes) + 1))


def emit_ptx(outdir, nvcc):
    """Target-neutral PTX (nvcc -O3 -ptx for the lowest virtual target it has) for every
    size 1..max of each pattern, one file per pattern."""
    os.makedirs(outdir, exist_ok=True)
    virtual = min(int(v) for v in supported_archs(nvcc))
    version = nvcc_version(nvcc)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (sizes, unit, body) in PATTERNS.items():
            src = os.path.join(tmp, f"{name}.cu")
            with open(src, "w") as f:
                f.write("".join(body.replace("@N@", str(n)) for n in dense_sizes(sizes)))
            out = os.path.join(outdir, f"{name}.ptx")
            r = subprocess.run([nvcc, f"-arch=compute_{virtual}", "-O3", "-ptx", src, "-o", out],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"nvcc failed for {name}:\n{r.stderr[-2000:]}")
    with open(os.path.join(outdir, "frontend.txt"), "w") as f:
        f.write(f"{version}, -arch=compute_{virtual} -O3 -ptx\n")
    print(f"regarray_probe: PTX (compute_{virtual}) for {len(PATTERNS)} patterns in {outdir}")
    return 0


def retarget(ptx_text, arch, ptx_version):
    """The same PTX for another target (and, for an older ptxas, another ISA version)."""
    text = re.sub(r"^\.target\s+sm_\d+\w*", f".target {arch}", ptx_text, count=1, flags=re.M)
    if ptx_version:
        text = re.sub(r"^\.version\s+[\d.]+", f".version {ptx_version}", text, count=1, flags=re.M)
    return text


def assemble(ptxdir, ptxas, out, archs, ptx_version):
    """ptxas -v over emit_ptx's files; the same summary as the nvcc path, over every size."""
    pv = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    pversion = pv[-1] if pv else ptxas
    with open(os.path.join(ptxdir, "frontend.txt")) as f:
        frontend = f.read().strip()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for arch in archs:
            for name, (sizes, unit, _) in PATTERNS.items():
                with open(os.path.join(ptxdir, f"{name}.ptx")) as f:
                    text = retarget(f.read(), arch, ptx_version)
                ptx = os.path.join(tmp, f"{arch}_{name}.ptx")
                with open(ptx, "w") as f:
                    f.write(text)
                r = subprocess.run([ptxas, f"-arch={arch}", "-O3", "-v", ptx, "-o",
                                    os.path.join(tmp, "k.cubin")], capture_output=True, text=True)
                if r.returncode != 0:
                    raise RuntimeError(f"ptxas failed for {arch} {name}:\n{r.stderr[-2000:]}")
                results.append(summarize(arch, name, dense_sizes(sizes), unit, parse_frames(r.stderr)))
    doc = {"probe": "register_arrays",
           "method": "nvcc -O3 -ptx once for the lowest virtual target, .target (and .version) "
                     "rewritten per target, then ptxas -O3 -v; a size is register-resident when "
                     "ptxas reports a 0-byte stack frame for its kernel",
           "frontend": frontend, "ptxas": pversion, "ptxas_path": ptxas,
           "ptx_version_rewritten_to": ptx_version,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "unsupported_archs": [], "results": results}
    text = json.dumps(doc, indent=2)
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")
    for r in results:
        print(f"{r['arch']:6} {r['pattern']:16} largest in registers: {r['largest_register_array']:>4} "
              f"{r['unit']} (first in local memory: {r['first_local_memory_size']})")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--check", action="store_true",
                    help="fail unless every supported target gave a result for every pattern")
    ap.add_argument("--nvcc")
    ap.add_argument("--emit-ptx", metavar="DIR", help="write target-neutral PTX for every size")
    ap.add_argument("--assemble", metavar="DIR", help="run --ptxas over PTX from --emit-ptx")
    ap.add_argument("--ptxas")
    ap.add_argument("--archs", default=",".join(ARCHS))
    ap.add_argument("--ptx-version", help="rewrite .version for an older ptxas (e.g. 8.7)")
    a = ap.parse_args()
    if a.emit_ptx:
        nvcc = find_nvcc(a.nvcc)
        if not nvcc:
            print("regarray_probe: no nvcc found", file=sys.stderr)
            return 77
        return emit_ptx(a.emit_ptx, nvcc)
    if a.assemble:
        if not a.ptxas:
            ap.error("--assemble needs --ptxas")
        return assemble(a.assemble, a.ptxas, a.out, a.archs.split(","), a.ptx_version)
    nvcc = find_nvcc(a.nvcc)
    if not nvcc:
        print("regarray_probe: no nvcc found; skipped", file=sys.stderr)
        return 77
    version = nvcc_version(nvcc)
    have = supported_archs(nvcc)
    results, unsupported = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ARCHS:
            if arch.split("_")[1] not in have:
                unsupported.append(arch)
                continue
            for name, (sizes, unit, body) in PATTERNS.items():
                # Coarse sizes first, then every size between the last
                # register-resident one and the first in local memory.
                source = "".join(body.replace("@N@", str(n)) for n in sizes)
                frames = stack_frames(nvcc, arch, source, tmp)
                last_ok = max([n for n in sizes if frames.get(f"k_{n}") == 0] or [0])
                first_bad = next((n for n in sizes if frames.get(f"k_{n}", 0) > 0), None)
                if first_bad and first_bad - last_ok > 1 and last_ok < first_bad:
                    fine = list(range(last_ok + 1, first_bad))
                    frames.update(stack_frames(nvcc, arch, "".join(body.replace("@N@", str(n)) for n in fine), tmp))
                    sizes = sorted(set(sizes) | set(fine))
                results.append(summarize(arch, name, sizes, unit, frames))
    doc = {"probe": "register_arrays",
           "method": "nvcc -O3 -cubin -Xptxas -v per target; a size is register-resident when ptxas "
                     "reports a 0-byte stack frame for its kernel",
           "nvcc": version, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "unsupported_archs": unsupported, "results": results}
    text = json.dumps(doc, indent=2)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    for r in results:
        print(f"{r['arch']:6} {r['pattern']:16} largest in registers: {r['largest_register_array']:>4} "
              f"{r['unit']} (first in local memory: {r['first_local_memory_size']})")
    for arch in unsupported:
        print(f"{arch:6} not supported by {version}")
    if a.check:
        supported = [x for x in ARCHS if x not in unsupported]
        if not supported or len(results) != len(supported) * len(PATTERNS):
            print("regarray_probe: check failed: missing results", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
