// warp-shuffle-candidate's helper fix checks the calls of the file it
// analyzes only, so a helper written in a header (which other files may
// include and call) is left as it is, with the reason, even where this
// file's one call is safe.
// RUN: rm -rf %t && mkdir -p %t && cp %S/Inputs/warp-helper/block_tail.cuh %t/ && cp %s %t/use.cu
// RUN: %not %warplint check --fail-min-gain 0 %t/use.cu --rules warp-shuffle-candidate --fix --color=never > %t/log 2>&1
// RUN: %FileCheck --input-file=%t/log %s --implicit-check-not="warplint: fix"
// RUN: diff %S/Inputs/warp-helper/block_tail.cuh %t/block_tail.cuh
// CHECK: note: no shuffle fix: the helper 'headerTail' is rewritten only when every call of it is proven exact; it is written in '{{.*}}block_tail.cuh', not in the file analyzed: other files that include it may call it, and only this file's calls are checked
#include "block_tail.cuh"

__global__ void headerSums(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    headerTail(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

void launch(const float *in, float *out, int n) { headerSums<<<n / 64, 64>>>(in, out); }
