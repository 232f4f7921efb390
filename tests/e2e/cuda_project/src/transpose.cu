#include <cuda_runtime.h>

#include "tile_config.h"

// Naive shared-memory transpose: the tile is read column-wise, so the 32
// lanes of a warp hit one bank (a 32-way conflict).
__global__ void transposeNaive(float *out, const float *in, int n) {
  __shared__ float tile[WL_TILE_DIM][WL_TILE_DIM];
  int x = blockIdx.x * WL_TILE_DIM + threadIdx.x;
  int y = blockIdx.y * WL_TILE_DIM + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[globalIndex(y, x, n)];
  __syncthreads();
  float v = tile[threadIdx.x][threadIdx.y]; // E2E-BANK-CONFLICT
  out[globalIndex(y, x, n)] = v;
}

void launchTranspose(float *out, const float *in, int n) {
  dim3 block(32, 32);
  dim3 grid(n / WL_TILE_DIM, n / WL_TILE_DIM);
  transposeNaive<<<grid, block>>>(out, in, n);
}
