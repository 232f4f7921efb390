// False positive of host-transfer-batching found in the fourth precision pass
// (README.md, "Fourth pass"): our own reduction of the pattern, not public code.
//
// A solver loop launches a kernel each iteration and reads back the 4-byte norm
// that launch wrote. The launch gives the block size as a braced list, which nvcc
// accepts (this file compiles with `nvcc -c`) but clang 19 rejects with
// "expected expression": the launch disappears from the AST, the loop looks
// launch-free, and the readback is reported as "a different piece each
// iteration" (warplint 7540ed8: one finding at the cudaMemcpyAsync line).
// With `block` instead of `{8, 8, 1}` the launch is seen and nothing is reported.
#include <cuda_runtime.h>

template <int BX, int BY>
__global__ void relax(float *x, float *norm, int n) {
  int i = blockIdx.x * BX * BY + threadIdx.y * BX + threadIdx.x;
  if (i < n) {
    x[i] *= 0.5f;
    atomicAdd(norm, x[i]);
  }
}

int main() {
  const int n = 1 << 20;
  float *d_x, *d_norm[2], *h_norm[2];
  cudaMalloc(&d_x, n * sizeof(float));
  for (int k = 0; k < 2; ++k) {
    cudaMalloc(&d_norm[k], sizeof(float));
    cudaMallocHost(&h_norm[k], sizeof(float));
  }
  cudaStream_t s;
  cudaStreamCreate(&s);
  dim3 grid(n / 64);
  int iter = 0;
  bool more = true;
  while (more && iter < 1000) {
    int cur = iter % 2;
    relax<8, 8><<<grid, {8, 8, 1}, 0, s>>>(d_x, d_norm[cur], n);  // the launch clang drops
    cudaMemcpyAsync(h_norm[cur], d_norm[cur], sizeof(float), cudaMemcpyDeviceToHost, s);  // reported
    cudaStreamSynchronize(s);
    more = *h_norm[cur] > 1e-3f;
    ++iter;
  }
  return 0;
}
