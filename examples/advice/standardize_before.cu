// Standardizes many short series at once: thread i owns series i (16
// samples stored sample-major, so a warp's loads are coalesced), keeps its
// samples in a private array, and writes (x - mean) / stddev. The loops are
// held to `#pragma unroll 4` to limit code size, which leaves their counters
// as run-time values: nvcc places `x` in local memory and warplint reports
// private-array-local-memory with a fix, unrolling the loops fully.
// standardize_after.cu is exactly `warplint check --fix` of this file.
// Usage: standardize_before [OUT.bin]
#include "../rewrites/bench_util.h"

constexpr int kSamples = 16;

__global__ void standardize(const float *__restrict__ in, float *__restrict__ out, int series) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= series)
    return;
  float x[kSamples];
#pragma unroll 4
  for (int k = 0; k < kSamples; ++k)
    x[k] = in[size_t(k) * series + i];
  float mean = 0.f;
#pragma unroll 4
  for (int k = 0; k < kSamples; ++k)
    mean += x[k];
  mean *= 1.f / kSamples;
  float var = 0.f;
#pragma unroll 4
  for (int k = 0; k < kSamples; ++k) {
    float d = x[k] - mean;
    var += d * d;
  }
  float scale = rsqrtf(var * (1.f / kSamples) + 1e-6f);
#pragma unroll 4
  for (int k = 0; k < kSamples; ++k)
    out[size_t(k) * series + i] = (x[k] - mean) * scale;
}

#include "standardize_host.h"
