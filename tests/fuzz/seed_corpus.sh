#!/usr/bin/env bash
# Builds the fuzzer's seed corpus in OUT_DIR (default build-fuzz/seeds,
# ignored by git): our own CUDA files (examples/, tests/lit/, tests/e2e/,
# tests/gpu/) and, when the public mirrors are present (the `fetch` tool's
# bare git dirs under MIRRORS, default /work/.mirror), a few small kernels of
# NVIDIA cuda-samples, Rodinia and HeCBench read from them in place. Public
# files are staged in OUT_DIR only, never committed.
# Usage: tests/fuzz/seed_corpus.sh [OUT_DIR] [MIRRORS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-fuzz/seeds}
mirrors=${2:-/work/.mirror}
max_bytes=${SEED_MAX_BYTES:-24000} # larger inputs make each execution slow
mkdir -p "$out"

# A seed's name is its path with / turned into _, so seeds never collide.
add() { # FILE NAME
  local size
  size=$(stat -c %s "$1")
  [ "$size" -le "$max_bytes" ] && cp "$1" "$out/$2"
  return 0
}

count_before=$(find "$out" -type f | wc -l)
while IFS= read -r f; do
  add "$root/$f" "own_${f//\//_}"
done < <(cd "$root" && find examples tests/lit tests/e2e tests/gpu -name '*.cu' -o -name '*.cuh' | sort)

# path-in-repo list per mirror: small, varied kernels (shared tiles,
# reductions, scans, stencils, atomics, templates, textures).
public() { # MIRROR_DIR PREFIX PATH...
  local git_dir=$mirrors/$1/repo prefix=$2
  shift 2
  [ -d "$git_dir" ] || { echo "seed_corpus: no mirror $1, skipped" >&2; return 0; }
  local tmp
  tmp=$(mktemp -d)
  git --git-dir="$git_dir" archive HEAD "$@" 2>/dev/null | tar -x -C "$tmp" || true
  while IFS= read -r f; do
    local rel=${f#"$tmp"/}
    add "$f" "${prefix}_${rel//\//_}"
  done < <(find "$tmp" -type f | sort)
  rm -rf "$tmp"
}
public NVIDIA+cuda-samples cs \
  Samples/0_Introduction/matrixMul/matrixMul.cu \
  Samples/2_Concepts_and_Techniques/histogram/histogram256.cu \
  Samples/2_Concepts_and_Techniques/histogram/histogram64.cu \
  Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu \
  Samples/2_Concepts_and_Techniques/scan/scan.cu \
  Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu \
  Samples/2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction.cu \
  Samples/6_Performance/transpose/transpose.cu
public yuhc+gpu-rodinia rod \
  cuda/backprop/backprop_cuda_kernel.cu cuda/bfs/kernel.cu cuda/gaussian/gaussian.cu \
  cuda/hotspot/hotspot.cu cuda/hotspot3D/opt1.cu cuda/huffman/hist.cu cuda/huffman/scanLargeArray_kernel.cu \
  cuda/hybridsort/bucketsort_kernel.cu cuda/lud/cuda/lud_kernel.cu cuda/nw/needle_kernel.cu \
  cuda/pathfinder/pathfinder.cu cuda/srad/srad_v1/srad_kernel.cu cuda/streamcluster/streamcluster_cuda.cu
public zjin-lcf+HeCBench hb \
  src/atomicReduction-cuda/reduction.cu src/bitonic-sort-cuda/main.cu src/convolution1D-cuda/main.cu \
  src/histogram-cuda/histogram_gmem_atomics.h src/jacobi-cuda/main.cu src/matrix-rotate-cuda/main.cu \
  src/scan-cuda/main.cu src/stencil1d-cuda/stencil_1d.cu src/stencil3d-cuda/main.cu src/softmax-cuda/main.cu \
  src/adam-cuda/main.cu src/affine-cuda/main.cu src/aligned-types-cuda/main.cu src/atomicCAS-cuda/main.cu
echo "seed_corpus: $(($(find "$out" -type f | wc -l) - count_before)) new seeds, $(find "$out" -type f | wc -l) in $out"
