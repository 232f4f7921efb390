// Standalone input for the no-toolkit tests: needs WL_TILE_DIM from `-- -D`
// and tile_config.h from `-- -I`.
#include <cuda_runtime.h>
#include <cstdio>

#include "tile_config.h"

__global__ void transposeNaive(float *out, const float *in, int n) {
  __shared__ float tile[WL_TILE_DIM][WL_TILE_DIM];
  int x = blockIdx.x * WL_TILE_DIM + threadIdx.x;
  int y = blockIdx.y * WL_TILE_DIM + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[globalIndex(y, x, n)];
  __syncthreads();
  float v = tile[threadIdx.x][threadIdx.y]; // E2E-BANK-CONFLICT
  out[globalIndex(y, x, n)] = v;
  if (__any_sync(0xffffffffu, v < 0.f))
    atomicAdd(&out[0], __shfl_down_sync(0xffffffffu, v, 16));
}

int main() {
  const int n = 1024;
  float *d = nullptr;
  if (cudaMalloc(&d, n * n * sizeof(float)) != cudaSuccess)
    return 1;
  dim3 block(32, 32);
  dim3 grid(n / WL_TILE_DIM, n / WL_TILE_DIM);
  transposeNaive<<<grid, block>>>(d, d, n);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d);
  return 0;
}
