// warp_reduce_before.cu with warp-shuffle-candidate's advice: the warp tail
// keeps its partial sum in a register and moves it with __shfl_down_sync
// (all 32 lanes take part: mask 0xffffffff). Lane 0 adds the same values in
// the same order as the volatile shared-memory tail, so the block sums are
// bit-identical; the tail's 6 shared stores and 12 shared loads a warp
// become 2 loads and 5 shuffles. Usage: warp_reduce_after [OUT.bin]
#include "../rewrites/bench_util.h"

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
    float v = sdata[tid] + sdata[tid + 32];
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

#include "warp_reduce_host.h"
