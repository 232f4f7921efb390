// host-transfer-no-overlap and a launch of one block: a copy, a kernel of a
// single block and the copy back have nothing to split over streams (each
// chunk would need blocks of its own), so they are not reported; the same
// sequence over a grid of many blocks is.
// RUN: %not %warplint check %s --rules host-transfer-no-overlap --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:' --implicit-check-not='and cudaMemcpy back'

#include <cuda_runtime.h>

__global__ void twice(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

constexpr int N = 1 << 22;

void oneBlock() {
  float *hIn, *hOut, *dIn, *dOut;
  cudaMallocHost(&hIn, N * sizeof(float));
  cudaMallocHost(&hOut, N * sizeof(float));
  cudaMalloc(&dIn, N * sizeof(float));
  cudaMalloc(&dOut, N * sizeof(float));
  dim3 grid(1);
  dim3 block(256);
  cudaMemcpy(dIn, hIn, N * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<grid, block>>>(dOut, dIn, N);
  cudaMemcpy(hOut, dOut, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(dIn, hIn, N * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<1, 256>>>(dOut, dIn, N);
  cudaMemcpy(hOut, dOut, N * sizeof(float), cudaMemcpyDeviceToHost);
}

void manyBlocks() {
  float *hIn, *hOut, *dIn, *dOut;
  cudaMallocHost(&hIn, N * sizeof(float));
  cudaMallocHost(&hOut, N * sizeof(float));
  cudaMalloc(&dIn, N * sizeof(float));
  cudaMalloc(&dOut, N * sizeof(float));
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy of 16 MiB to 'dIn', kernel 'twice' (line [[@LINE+2]]) and cudaMemcpy back (line [[@LINE+3]]) run one after another on the default stream
  cudaMemcpy(dIn, hIn, N * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<N / 256, 256>>>(dOut, dIn, N);
  cudaMemcpy(hOut, dOut, N * sizeof(float), cudaMemcpyDeviceToHost);
}
