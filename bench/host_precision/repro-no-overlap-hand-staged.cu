// False positive of host-transfer-no-overlap found in the fourth precision pass
// (README.md, "Fourth pass"): our own reduction of the pattern, not public code.
//
// The staged rewrite the rule asks for, written out by hand with two chunks:
// the first half of the buffer goes in, through the kernel and back on stream
// a, the second half (pointers + half) on stream b, with no wait in between, so
// each half's copies overlap the other half's kernel. The rule looks at one
// stream at a time and reports each half (warplint 7540ed8: two findings, at the
// two cudaMemcpyAsync lines that copy in) as an unstaged copy-kernel-copy.
// Fixed in 59ffae4 (fifth pass): no finding; lit host-transfer-no-overlap-hand-staged.cu.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i];
}

int main() {
  const int n = 1 << 22;  // 16 MiB of floats
  const int half = n / 2;
  float *h, *d;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaMemcpyAsync(d, h, half * sizeof(float), cudaMemcpyHostToDevice, a);  // reported
  scale<<<half / 256, 256, 0, a>>>(d, half);
  cudaMemcpyAsync(h, d, half * sizeof(float), cudaMemcpyDeviceToHost, a);
  cudaMemcpyAsync(d + half, h + half, half * sizeof(float), cudaMemcpyHostToDevice, b);  // reported
  scale<<<half / 256, 256, 0, b>>>(d + half, half);
  cudaMemcpyAsync(h + half, d + half, half * sizeof(float), cudaMemcpyDeviceToHost, b);
  cudaDeviceSynchronize();
  return 0;
}
