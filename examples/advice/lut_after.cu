// lut_before.cu with constant-divergent-access's advice applied by hand: the
// transfer curve is an ordinary device allocation passed as
// `const float *__restrict__`, so the per-lane lookups go through the
// read-only data path, which serves distinct addresses of a warp in
// parallel. Same table, same lookups: the output is bit-identical.
// Usage: lut_after [OUT.bin]
#include "../rewrites/bench_util.h"

__global__ void decodePixels(const uchar4 *__restrict__ px, float4 *__restrict__ out, int n,
                             const float *__restrict__ curve) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uchar4 p = px[i];
  out[i] = make_float4(curve[p.x], curve[p.y], curve[p.z], p.w * (1.f / 255.f));
}

#define LUT_IN_CONSTANT 0
#include "lut_host.h"
