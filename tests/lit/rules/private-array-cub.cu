// REQUIRES: nvcc
// RUN: %warplint check %s --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
//
// Arrays handed to CUB's block-wide collectives by reference are followed
// into CUB's `__forceinline__` templates (the toolkit's headers), where every
// subscript is the counter of an unrolled loop: no finding, as ptxas agrees
// (nvcc 13.0 -arch=sm_90 -Xptxas -v: 0-byte stack frame for both kernels).
// HeCBench ssm's selective_scan_vllm_kernel passes its scan elements the
// same way; before, they were reported as escaping to "not analyzed" calls.
// CHECK: no findings
#include <cub/block/block_scan.cuh>

struct Pair {
  float a, b;
};
struct Compose {
  __device__ Pair operator()(const Pair &l, const Pair &r) const { return {l.a * r.a, r.a * l.b + r.b}; }
};

__global__ void scanItems(const int *in, int *out) {
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Scan::TempStorage storage;
  int items[4];
  for (int k = 0; k < 4; ++k)
    items[k] = in[threadIdx.x * 4 + k];
  Scan(storage).InclusiveSum(items, items);
  for (int k = 0; k < 4; ++k)
    out[threadIdx.x * 4 + k] = items[k];
}

__global__ void scanPairs(const float *a, const float *b, float *out) {
  using Scan = cub::BlockScan<Pair, 128, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage storage;
  Pair data[4], prefix[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    data[k] = {a[threadIdx.x * 4 + k], b[threadIdx.x * 4 + k]};
  Scan(storage).InclusiveScan(data, prefix, Compose{});
#pragma unroll
  for (int k = 0; k < 4; ++k)
    out[threadIdx.x * 4 + k] = prefix[k].b;
}
