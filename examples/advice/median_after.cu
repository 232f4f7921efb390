// median_before.cu with private-array-local-memory's advice (L_3) applied
// by hand: the insertion sort becomes an odd-even transposition network,
// nine passes of compare-exchanges whose subscripts are constants once the
// constant-trip loops unroll, so `win` stays in registers. The network
// sorts, so the middle element is the same value the insertion sort picks:
// the output is bit-identical. Usage: median_after [OUT.bin]
#include "../rewrites/bench_util.h"

__global__ void median3x3(const float *__restrict__ img, float *__restrict__ out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float win[9];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = min(max(x + dx, 0), width - 1);
      int sy = min(max(y + dy, 0), height - 1);
      win[(dy + 1) * 3 + (dx + 1)] = img[sy * width + sx];
    }
  // Pass p compares the pairs (j, j + 1) that start at j = p % 2.
#pragma unroll
  for (int p = 0; p < 9; ++p) {
#pragma unroll
    for (int j = p % 2; j < 8; j += 2) {
      float lo = fminf(win[j], win[j + 1]);
      float hi = fmaxf(win[j], win[j + 1]);
      win[j] = lo;
      win[j + 1] = hi;
    }
  }
  out[y * width + x] = win[4];
}

#include "median_host.h"
