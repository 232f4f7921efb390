// Host code that CUDA 12+ no longer accepts (texture references,
// cudaThreadSynchronize); the kernel itself is fine and is still analyzed.
#include <cuda_runtime.h>

texture<float, 1> legacyTex; // E2E-ERROR-TEXTURE

__global__ void transposeRead(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // E2E-BANK-CONFLICT
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 4 << 20);
  dim3 block(32, 32);
  transposeRead<<<4, block>>>(d);
  cudaThreadSynchronize(); // E2E-ERROR-THREADSYNC
  cudaFree(d);
  return 0;
}
