// Prefetches and advice written for CUDA 12 and older pass a device number
// where CUDA 13 takes a cudaMemLocation: under the CUDA 13 headers such a call
// does not resolve (clang keeps it as a recovery expression), but it still
// says the buffer is prefetched or advised there, so managed-memory-no-prefetch
// must not report the launch or the host reads that it covers. Without the
// toolkit (bundled declarations, the old signatures) the calls resolve: same
// result either way.
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void add(const float *x, const float *y, float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}

constexpr int N = 1 << 22;

// ---- negatives: old-style prefetch and advice ---------------------------

float prefetchedOldApi() {
  float *x, *y, *z;
  size_t bytes = N * sizeof(float);
  cudaMallocManaged(&x, bytes);
  cudaMallocManaged(&y, bytes);
  cudaMallocManaged(&z, bytes);
  int dev = 0;
  for (int i = 0; i < N; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  cudaMemPrefetchAsync(x, bytes, dev);
  cudaMemPrefetchAsync(y, bytes, dev, 0);
  add<<<N / 256, 256>>>(x, y, z, N);
  cudaDeviceSynchronize();
  cudaMemPrefetchAsync(z, bytes, cudaCpuDeviceId);
  cudaDeviceSynchronize();
  return z[0];
}

float advisedOldApi() {
  float *x, *y, *z;
  size_t bytes = N * sizeof(float);
  cudaMallocManaged(&x, bytes);
  cudaMallocManaged(&y, bytes);
  cudaMallocManaged(&z, bytes);
  cudaMemAdvise(x, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
  cudaMemAdvise(y, bytes, cudaMemAdviseSetReadMostly, 0);
  for (int i = 0; i < N; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  cudaMemPrefetchAsync(z, bytes, 0);
  add<<<N / 256, 256>>>(x, y, z, N);
  cudaDeviceSynchronize();
  cudaMemPrefetchAsync(z, bytes, cudaCpuDeviceId);
  cudaDeviceSynchronize();
  return z[0];
}

// ---- positive: an old-style prefetch of another buffer covers nothing --

float otherBufferPrefetched() {
  float *x, *y, *z;
  size_t bytes = N * sizeof(float);
  cudaMallocManaged(&x, bytes);
  cudaMallocManaged(&y, bytes);
  cudaMallocManaged(&z, bytes);
  for (int i = 0; i < N; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  cudaMemPrefetchAsync(x, bytes, 0);
  cudaMemPrefetchAsync(z, bytes, 0);
  // CHECK: :[[@LINE+1]]:3: warning: kernel 'add' uses managed memory 'y' that the host touched at line {{[0-9]+}} with no cudaMemPrefetchAsync or cudaMemAdvise in between
  add<<<N / 256, 256>>>(x, y, z, N);
  cudaDeviceSynchronize();
  cudaMemPrefetchAsync(z, bytes, cudaCpuDeviceId);
  cudaDeviceSynchronize();
  return z[0];
}
