// Converts planar RGB floats to YCbCr (BT.601, full range). Each block first
// copies its 256 pixels into shared arrays, waits at a barrier, then every
// thread converts the pixel it copied itself: no thread reads what another
// stored, so the staging costs stores, loads and a barrier and saves
// nothing, and warplint reports shared-staging-no-reuse. ycbcr_after.cu
// takes the advice: the values stay in registers. Usage: ycbcr_before [OUT.bin]
#include "../rewrites/bench_util.h"

constexpr int kThreads = 256;

__global__ void rgbToYcbcr(const float *__restrict__ r, const float *__restrict__ g, const float *__restrict__ b,
                           float *__restrict__ y, float *__restrict__ cb, float *__restrict__ cr) {
  __shared__ float rs[kThreads], gs[kThreads], bs[kThreads];
  int i = blockIdx.x * kThreads + threadIdx.x;
  rs[threadIdx.x] = r[i];
  gs[threadIdx.x] = g[i];
  bs[threadIdx.x] = b[i];
  __syncthreads();
  float R = rs[threadIdx.x], G = gs[threadIdx.x], B = bs[threadIdx.x];
  y[i] = 0.299f * R + 0.587f * G + 0.114f * B;
  cb[i] = 0.5f - 0.168736f * R - 0.331264f * G + 0.5f * B;
  cr[i] = 0.5f + 0.5f * R - 0.418688f * G - 0.081312f * B;
}

#include "ycbcr_host.h"
