// A visible helper that prefetches or advises the managed buffers it is
// handed, then launches, decides where their pages are out of the caller's
// sight (here: only under some flags, as benchmark suites do): the caller's
// host initialization followed by the helper is not reported. A helper that
// only launches is a kernel over them and still is.
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void step(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}

constexpr int N = 1 << 22;

void runPrefetching(float *a, int n, bool prefetch, int device) {
  if (prefetch) {
    cudaMemLocation loc = {cudaMemLocationTypeDevice, device};
    cudaMemPrefetchAsync(a, n * sizeof(float), loc, 0, 0);
  }
  step<<<n / 256, 256>>>(a, n);
  cudaDeviceSynchronize();
}

void runOnly(float *a, int n) {
  step<<<n / 256, 256>>>(a, n);
  cudaDeviceSynchronize();
}

void caller(bool prefetch) {
  float *a, *b;
  cudaMallocManaged(&a, N * sizeof(float));
  cudaMallocManaged(&b, N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    a[i] = 1.0f;
    b[i] = 1.0f;
  }
  runPrefetching(a, N, prefetch, 0);
  // CHECK: :[[@LINE+1]]:3: warning: kernel 'runOnly()' uses managed memory 'b' that the host touched at line {{[0-9]+}} with no cudaMemPrefetchAsync or cudaMemAdvise in between
  runOnly(b, N);
  cudaFree(a);
  cudaFree(b);
}
