// warp-shuffle-candidate's fix of a per-warp tree loop in a __device__ helper
// written in a header: the calls this file shows are all the calls only when
// no other file beside the header includes it. Fixed when the header sits
// alone with this file; refused, naming the other includer, when another
// file of its directory includes it too.
// RUN: rm -rf %t && mkdir -p %t/alone %t/shared
// RUN: cp %S/Inputs/warp-loop-helper/tile_tree.cuh %t/alone/ && cp %s %t/alone/use.cu
// RUN: %not %warplint check --fail-min-gain 0 %t/alone/use.cu --rules warp-shuffle-candidate --fix --color=never > %t/alone.log 2>&1
// RUN: %FileCheck --input-file=%t/alone.log %s --check-prefix=ALONE
// RUN: grep -c "__shfl_down_sync(0xffffffff" %t/alone/tile_tree.cuh | grep -qx 2
// RUN: cp %S/Inputs/warp-loop-helper/tile_tree.cuh %t/shared/ && cp %s %t/shared/use.cu
// RUN: echo '#include "tile_tree.cuh"' > %t/shared/other.cu
// RUN: %not %warplint check --fail-min-gain 0 %t/shared/use.cu --rules warp-shuffle-candidate --fix --color=never > %t/shared.log 2>&1
// RUN: %FileCheck --input-file=%t/shared.log %s --check-prefix=SHARED --implicit-check-not="warplint: fixed"
// RUN: diff %S/Inputs/warp-loop-helper/tile_tree.cuh %t/shared/tile_tree.cuh
// ALONE: warplint: fixed {{.*}}tile_tree.cuh{{.*}}: move the per-warp tree loop over 'buf' {{.*}} (in the __device__ function 'headerTree')
// SHARED: note: no shuffle fix: a per-warp tree written as a loop: the loop in the __device__ function 'headerTree' is rewritten only when every call of it is proven exact; 'other.cu', beside it, includes it too, and only this file's calls are checked
#include "tile_tree.cuh"

__global__ void headerSums(const float *in, float *out) {
  __shared__ float s[128];
  cg::thread_block blk = cg::this_thread_block();
  s[blk.thread_rank()] = in[blockIdx.x * 128 + blk.thread_rank()];
  cg::sync(blk);
  headerTree(s, blk);
  cg::sync(blk);
  if (blk.thread_rank() == 0)
    out[blockIdx.x] = s[0] + s[32] + s[64] + s[96];
}

void launch(const float *in, float *out) { headerSums<<<64, 128>>>(in, out); }
