// host-transfer-no-overlap, before: 128 MiB copied in, an element-wise
// kernel (element i of the output needs element i of the input), 128 MiB
// copied back, one after another on the default stream. Host memory is
// pinned, so only the missing overlap separates it from the "after" file.
#include "host_bench.h"

// 512 dependent multiply-adds an element: a kernel whose time is of the
// order of the copies', as in the seed's copy-execute example.
__global__ void polish(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int k = 0; k < 512; ++k)
      v = fmaf(v, 0.9990234375f, 0.0009765625f);
    y[i] = v;
  }
}

int main(int argc, char **argv) {
  const int n = 1 << 25;
  const size_t bytes = n * sizeof(float);
  float *hX, *hY;
  CHECK_CUDA(cudaMallocHost(&hX, bytes));
  CHECK_CUDA(cudaMallocHost(&hY, bytes));
  fillRandom(hX, n, 3);
  float *dX, *dY;
  CHECK_CUDA(cudaMalloc(&dX, bytes));
  CHECK_CUDA(cudaMalloc(&dY, bytes));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> gpu, wall;
  for (int rep = 0; rep < kRepeats + 2; ++rep) {
    double t0 = nowMs();
    CHECK_CUDA(cudaEventRecord(start));
    CHECK_CUDA(cudaMemcpy(dX, hX, bytes, cudaMemcpyHostToDevice));
    polish<<<n / 256, 256>>>(dY, dX, n);
    CHECK_CUDA(cudaMemcpy(hY, dY, bytes, cudaMemcpyDeviceToHost));
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
  for (int i = 0; i < n; i += 4099) {
    float v = hX[i];
    for (int k = 0; k < 512; ++k)
      v = fmaf(v, 0.9990234375f, 0.0009765625f);
    if (v != hY[i]) {
      std::fprintf(stderr, "wrong result at %d\n", i);
      return 1;
    }
  }
  if (argc > 1)
    dumpOutput(argv[1], hY, bytes);
  report(gpu, wall);
  return 0;
}
