// Block sums of 512 floats a block, as warp_tail_before.cu, but the warp
// tail is a __device__ template helper over the block size with a guard on
// every step (`if (blockSize >= 64) ...`), called as `if (tid < 32)
// warpTail<kThreads>(sdata, tid)`: the shape real code keeps its tail in.
// warplint reports warp-shuffle-candidate on the helper's steps and its --fix
// rewrites the helper's body (warp_tail_helper_after.cu is exactly `warplint
// check --fix` of this file) once every call of the helper in the file is
// proven exact: the partial sum in a register moved with __shfl_down_sync,
// each guard kept on its step, lane 0 adding the same values in the same
// order, so the block sums are bit-identical (to warp_tail_before.cu's too).
// Usage: warp_tail_helper_before [OUT.bin]
#include "bench_util.h"

constexpr int kThreads = 256;

template <unsigned blockSize>
__device__ void warpTail(volatile float *s, unsigned tid) {
  if (blockSize >= 64) s[tid] += s[tid + 32];
  if (blockSize >= 32) s[tid] += s[tid + 16];
  if (blockSize >= 16) s[tid] += s[tid + 8];
  if (blockSize >= 8) s[tid] += s[tid + 4];
  if (blockSize >= 4) s[tid] += s[tid + 2];
  if (blockSize >= 2) s[tid] += s[tid + 1];
}

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
  if (tid < 32)
    warpTail<kThreads>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

#include "../advice/warp_reduce_host.h"
