// A per-warp tree loop in a header, for tests/lit/fixes/warp-tail-loop-helper-header.cu.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void headerTree(float *buf, cg::thread_block blk) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  const unsigned t = blk.thread_rank();
  float run = buf[t];
  for (int i = 16; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      run += buf[t + i];
      buf[t] = run;
    }
    cg::sync(tile);
  }
}
