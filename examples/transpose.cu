// Matrix transpose through a shared tile (seed 002 §5.3). `transposeNaiveTile`
// reads the tile by columns: every lane of a warp hits the same bank.
// `transposePadded` adds one word per row and is conflict-free.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

__global__ void transposeNaiveTile(float *out, const float *in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposePadded(float *out, const float *in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// No shared memory at all: the writes go down columns of `out`.
__global__ void transposeDirect(float *out, const float *in, int n) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[x * n + (y + j)] = in[(y + j) * n + x];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  size_t bytes = size_t(n) * n * sizeof(float);
  float *h = (float *)malloc(bytes), *r = (float *)malloc(bytes);
  for (size_t i = 0; i < size_t(n) * n; ++i)
    h[i] = float(i % 1000);
  float *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice);
  dim3 grid(n / TILE_DIM, n / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const char *names[3] = {"naive tile", "padded tile", "direct"};
  for (int k = 0; k < 3; ++k) {
    cudaEventRecord(start);
    if (k == 0)
      transposeNaiveTile<<<grid, block>>>(out, in, n);
    else if (k == 1)
      transposePadded<<<grid, block>>>(out, in, n);
    else
      transposeDirect<<<grid, block>>>(out, in, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaMemcpy(r, out, bytes, cudaMemcpyDeviceToHost);
    bool ok = r[1] == h[size_t(n)];
    printf("%-12s %8.3f ms  %s\n", names[k], ms, ok ? "ok" : "WRONG");
  }
  cudaFree(in);
  cudaFree(out);
  free(h);
  free(r);
  return 0;
}
