// Block sums of 512 floats a block (Harris's reduction with the first add
// during the load): a tree behind __syncthreads down to 64 values, then one
// warp finishes through volatile shared memory, lanes reading what other
// lanes of the warp just stored. warplint reports warp-shuffle-candidate on
// the warp tail; warp_reduce_after.cu takes the advice: the last six steps
// in a register with __shfl_down_sync, which adds the same values in the
// same order for lane 0, so the block sums are bit-identical.
// Usage: warp_reduce_before [OUT.bin]
#include "../rewrites/bench_util.h"

constexpr int kThreads = 256;

__device__ void warpReduce(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
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
    warpReduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

#include "warp_reduce_host.h"
