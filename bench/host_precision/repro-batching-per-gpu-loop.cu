// False positive of host-transfer-batching found in the fourth precision pass
// (README.md, "Fourth pass"): our own reduction of the pattern, not public code.
//
// A loop over the GPUs (count from cudaGetDeviceCount, cudaSetDevice(g) in the
// body) puts one small value on each GPU and reads one back from each. The
// pieces live on different devices, in buffers allocated on those devices: no
// single copy can replace them. The rule already skips such loops when neither
// the copy's size nor the loop's count is known (the Tartan NCCL tests); here the
// size is known (sizeof(float)) and the count is not, and both copies are
// reported (warplint 7540ed8) as "a different piece each iteration".
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  int gpus = 0;
  cudaGetDeviceCount(&gpus);
  float *d_sum[16];
  for (int g = 0; g < gpus && g < 16; ++g) {
    cudaSetDevice(g);
    cudaMalloc(&d_sum[g], 1024 * sizeof(float));
    float seed = 1.0f + g;
    cudaMemcpy(d_sum[g], &seed, sizeof(float), cudaMemcpyHostToDevice);  // reported
  }
  // ... a collective over d_sum[] would run here ...
  for (int g = 0; g < gpus && g < 16; ++g) {
    float got;
    cudaSetDevice(g);
    cudaMemcpy(&got, d_sum[g], sizeof(float), cudaMemcpyDeviceToHost);  // reported
    printf("GPU %d: %f\n", g, got);
  }
  return 0;
}
