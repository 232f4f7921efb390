// Block sums of 512 floats a block (Harris's reduction with the first add
// during the load): a tree behind __syncthreads down to 64 values, then warp
// 0 finishes through volatile shared memory, written out in the kernel.
// warplint reports warp-shuffle-candidate on the warp tail and its --fix
// rewrites it (warp_tail_after.cu is exactly `warplint check --fix` of this
// file): the partial sum in a register moved with __shfl_down_sync, lane 0
// adding the same values in the same order, so the block sums are
// bit-identical. The same kernel and host side as
// examples/advice/warp_reduce_before.cu, whose tail is a __device__ helper
// (advice only). Usage: warp_tail_before [OUT.bin]
#include "bench_util.h"

constexpr int kThreads = 256;

__global__ void blockSums(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float sdata[kThreads];
  unsigned tid = threadIdx.x;
  size_t i = size_t(blockIdx.x) * (2 * kThreads) + tid;
  sdata[tid] = in[i] + in[i + kThreads];
  __syncthreads();
  for (unsigned s = kThreads / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    // warp tail in a register (warplint --fix): lane 0 combines the same values in the same order
    float v = sdata[tid];
    v += sdata[tid + 32];
    v += __shfl_down_sync(0xffffffff, v, 16);
    v += __shfl_down_sync(0xffffffff, v, 8);
    v += __shfl_down_sync(0xffffffff, v, 4);
    v += __shfl_down_sync(0xffffffff, v, 2);
    v += __shfl_down_sync(0xffffffff, v, 1);
    if (tid == 0)
      sdata[0] = v;
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

#include "../advice/warp_reduce_host.h"
