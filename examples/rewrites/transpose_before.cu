// A 32x32-tile matrix transpose whose column reads of the shared tile hit one
// bank (32-way conflict). `warplint check --fix` pads the tile:
// transpose_after.cu is its output. Usage: transpose_before OUT.bin
#include "bench_util.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeTile(float *odata, const float *idata, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  const int n = 8192;
  const size_t bytes = size_t(n) * n * sizeof(float);
  std::vector<float> host(size_t(n) * n);
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  for (float &v : host)
    v = float(nextRandom(seed) >> 40) / float(1 << 24);
  float *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, bytes));
  CHECK_CUDA(cudaMalloc(&dOut, bytes));
  CHECK_CUDA(cudaMemcpy(dIn, host.data(), bytes, cudaMemcpyHostToDevice));
  dim3 grid(n / TILE_DIM, n / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  float ms = medianMs([&] { transposeTile<<<grid, block>>>(dOut, dIn, n); });
  CHECK_CUDA(cudaMemcpy(host.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], host.data(), bytes);
  return 0;
}
