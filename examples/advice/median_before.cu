// A 3x3 median filter over a float image: each thread gathers its 9
// neighbours (clamped at the borders) into a private array and sorts it by
// insertion to take the middle value. The insertion's `while` loop moves
// elements to data-dependent positions, so nvcc places `win` in local
// memory and warplint reports private-array-local-memory (L_3: a
// compare-exchange network or a simpler operation instead of the sort).
// median_after.cu applies that advice. Usage: median_before [OUT.bin]
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
  for (int a = 1; a < 9; ++a) {
    float v = win[a];
    int j = a - 1;
    while (j >= 0 && win[j] > v) {
      win[j + 1] = win[j];
      --j;
    }
    win[j + 1] = v;
  }
  out[y * width + x] = win[4];
}

#include "median_host.h"
