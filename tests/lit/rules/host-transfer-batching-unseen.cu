// RUN: %not %warplint check %s --rules host-transfer-batching --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'
//
// Loops whose work the host analysis cannot all see, or whose pieces no single
// copy could replace: host-transfer-batching stays silent there (the fourth
// precision pass, bench/host_precision/README.md), and still reports the plain
// row loop at the end.

#include <cuda_runtime.h>

__global__ void relax(float *x, float *norm, int n) {
  int i = blockIdx.x * 64 + threadIdx.y * 8 + threadIdx.x;
  if (i < n) {
    x[i] *= 0.5f;
    atomicAdd(norm, x[i]);
  }
}

// A launch with a braced block size, which nvcc accepts and clang rejects
// ("expected expression"): the launch is not in the AST, so the loop may
// launch. The 4-byte readback each iteration drains that launch.
void solve(float *d_x, float **d_norm, float **h_norm, int n, cudaStream_t s) {
  int iter = 0;
  bool more = true;
  while (more && iter < 1000) {
    int cur = iter % 2;
    relax<<<n / 64, {8, 8, 1}, 0, s>>>(d_x, d_norm[cur], n);
    cudaMemcpyAsync(h_norm[cur], d_norm[cur], sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    more = *h_norm[cur] > 1e-3f;
    ++iter;
  }
}

// One iteration per GPU: each piece goes to a different device.
void seedEachGpu(float **d_sum) {
  int gpus = 0;
  cudaGetDeviceCount(&gpus);
  for (int g = 0; g < gpus && g < 16; ++g) {
    cudaSetDevice(g);
    float seed = 1.0f + g;
    cudaMemcpy(d_sum[g], &seed, sizeof(float), cudaMemcpyHostToDevice);
  }
  for (int g = 0; g < gpus && g < 16; ++g) {
    float got;
    cudaSetDevice(g);
    cudaMemcpy(&got, d_sum[g], sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// Still a batch: rows of one host block, one copy each, no launch.
void uploadRows(float *d, const float *h, int rows) {
  for (int r = 0; r < rows; ++r)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-1]] copies a different piece each iteration
    cudaMemcpy(d + r * 256, h + r * 256, 256 * sizeof(float), cudaMemcpyHostToDevice);
}
// The parse error is reported, not hidden:
// CHECK: note: compile error: expected expression
