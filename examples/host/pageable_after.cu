// host-pageable-transfer, after: the same copies from cudaMallocHost (pinned)
// memory. The kernel reads element i and its mirror n-1-i, so the work does
// not split into independent chunks (no staging advice applies).
#include "host_bench.h"

__global__ void mirrorAdd(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 0.5f * in[n - 1 - i];
}

int main(int argc, char **argv) {
  const int n = 1 << 24;
  const size_t bytes = n * sizeof(float);
  float *hIn, *hOut;
  CHECK_CUDA(cudaMallocHost(&hIn, bytes));
  CHECK_CUDA(cudaMallocHost(&hOut, bytes));
  fillRandom(hIn, n, 42);
  float *dIn, *dOut;
  CHECK_CUDA(cudaMalloc(&dIn, bytes));
  CHECK_CUDA(cudaMalloc(&dOut, bytes));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> gpu, wall;
  for (int rep = 0; rep < kRepeats + 2; ++rep) {
    double t0 = nowMs();
    CHECK_CUDA(cudaEventRecord(start));
    CHECK_CUDA(cudaMemcpy(dIn, hIn, bytes, cudaMemcpyHostToDevice));
    mirrorAdd<<<n / 256, 256>>>(dIn, dOut, n);
    CHECK_CUDA(cudaMemcpy(hOut, dOut, bytes, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    double t1 = nowMs();
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (rep >= 2) { // two warm-up runs
      gpu.push_back(ms);
      wall.push_back(static_cast<float>(t1 - t0));
    }
  }
  for (int i = 0; i < n; i += 4097)
    if (hOut[i] != hIn[i] + 0.5f * hIn[n - 1 - i]) {
      std::fprintf(stderr, "wrong result at %d\n", i);
      return 1;
    }
  if (argc > 1)
    dumpOutput(argv[1], hOut, bytes);
  report(gpu, wall);
  CHECK_CUDA(cudaFreeHost(hIn));
  CHECK_CUDA(cudaFreeHost(hOut));
  return 0;
}
