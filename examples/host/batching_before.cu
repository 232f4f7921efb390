// host-transfer-batching, before: an 8192 x 256 matrix in one pinned block,
// copied to the device one 1 KiB row at a time, then summed per row.
#include "host_bench.h"

__global__ void rowSums(const float *m, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  sums[r] = s;
}

int main(int argc, char **argv) {
  const int rows = 8192, cols = 256;
  const size_t rowBytes = cols * sizeof(float);
  float *hM, *hSums;
  CHECK_CUDA(cudaMallocHost(&hM, rows * rowBytes));
  CHECK_CUDA(cudaMallocHost(&hSums, rows * sizeof(float)));
  fillRandom(hM, size_t(rows) * cols, 7);
  float *dM, *dSums;
  CHECK_CUDA(cudaMalloc(&dM, rows * rowBytes));
  CHECK_CUDA(cudaMalloc(&dSums, rows * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> gpu, wall;
  for (int rep = 0; rep < kRepeats + 2; ++rep) {
    double t0 = nowMs();
    CHECK_CUDA(cudaEventRecord(start));
    for (int r = 0; r < rows; ++r)
      CHECK_CUDA(cudaMemcpy(dM + r * cols, hM + r * cols, rowBytes, cudaMemcpyHostToDevice));
    rowSums<<<rows / 128, 128>>>(dM, dSums, rows, cols);
    CHECK_CUDA(cudaMemcpy(hSums, dSums, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    double t1 = nowMs();
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (rep >= 2) {
      gpu.push_back(ms);
      wall.push_back(static_cast<float>(t1 - t0));
    }
  }
  for (int r = 0; r < rows; r += 97) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += hM[r * cols + c];
    if (s != hSums[r]) {
      std::fprintf(stderr, "wrong sum of row %d\n", r);
      return 1;
    }
  }
  if (argc > 1)
    dumpOutput(argv[1], hSums, rows * sizeof(float));
  report(gpu, wall);
  CHECK_CUDA(cudaFreeHost(hM));
  CHECK_CUDA(cudaFreeHost(hSums));
  return 0;
}
