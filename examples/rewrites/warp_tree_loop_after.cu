// Block sums of 512 floats a block with the per-warp tree written as a loop
// over a 32-lane cooperative-groups tile, the shape cuda-samples'
// simpleCudaGraphs and threadFenceReduction use: every warp halves its 32
// partial sums in shared memory (`if (lane < i) { part = s[t + i]; run +=
// part; s[t] = run; } cg::sync(warp);`), then thread 0 adds the warps' results.
// warplint reports warp-shuffle-candidate on the loop and its --fix rewrites it
// (warp_tree_loop_after.cu is exactly `warplint check --fix` of this file):
// the running sum moved with __shfl_down_sync, each lane adding the same
// values in the same order, the lanes under 16 storing once what they last
// stored, so every element of the array, and the block sums, are bit-identical.
// Usage: warp_tree_loop_before [OUT.bin]
#include "bench_util.h"

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int kThreads = 256;

__global__ void blockSums(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float sdata[kThreads];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  unsigned t = threadIdx.x;
  size_t i = size_t(blockIdx.x) * (2 * kThreads) + t;
  float run = in[i] + in[i + kThreads];
  sdata[t] = run;
  cg::sync(block);
  float part;
  {
    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and sdata ends with the same elements
    float wl_other = __shfl_down_sync(0xffffffff, sdata[t], 16);
    if (warp.thread_rank() < 16) {
      part = wl_other;
      run += part;
    }
    for (int k = 8; k > 0; k >>= 1) {
      wl_other = __shfl_down_sync(0xffffffff, run, k);
      if (warp.thread_rank() < k) {
        part = wl_other;
        run += part;
      }
    }
    if (warp.thread_rank() < 16)
      sdata[t] = run;
    cg::sync(warp);
  }
  cg::sync(block);
  if (t == 0) {
    float total = 0.0f;
    for (int w = 0; w < kThreads; w += 32)
      total += sdata[w];
    out[blockIdx.x] = total;
  }
}

#include "../advice/warp_reduce_host.h"
