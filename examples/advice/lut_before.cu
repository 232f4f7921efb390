// Converts 8-bit RGBA pixels to linear floats through a 256-entry transfer
// curve (a gamma decode). The curve sits in `__constant__` memory, but each
// lane looks up its own pixel's bytes: the lanes of a warp read up to 32
// different addresses, which the constant cache serves one at a time, and
// warplint reports constant-divergent-access. lut_after.cu takes the
// rule's advice: the curve in global memory, read through a
// `const float *__restrict__` parameter. Usage: lut_before [OUT.bin]
#include "../rewrites/bench_util.h"

__constant__ float curve[256];

__global__ void decodePixels(const uchar4 *__restrict__ px, float4 *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uchar4 p = px[i];
  out[i] = make_float4(curve[p.x], curve[p.y], curve[p.z], p.w * (1.f / 255.f));
}

#define LUT_IN_CONSTANT 1
#include "lut_host.h"
