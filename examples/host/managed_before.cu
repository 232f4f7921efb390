// managed-memory-no-prefetch, before: 128 MiB of cudaMallocManaged memory
// written by the host, scaled by a kernel, then summed by the host. The
// pages move by GPU page faults during the kernel and by CPU page faults
// during the host's sum. Timed from the launch to the end of the host's sum
// (wall clock) and, for the GPU part, with CUDA events.
#include "host_bench.h"

__global__ void scaleShift(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 2.0f + 1.0f;
}

int main(int argc, char **argv) {
  const int n = 1 << 25;
  const size_t bytes = n * sizeof(float);
  float *x;
  CHECK_CUDA(cudaMallocManaged(&x, bytes));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> gpu, wall;
  double sum = 0;
  for (int rep = 0; rep < kRepeats + 2; ++rep) {
    for (int i = 0; i < n; ++i)
      x[i] = static_cast<float>(i % 1024) * 0.25f;
    double t0 = nowMs();
    CHECK_CUDA(cudaEventRecord(start));
    scaleShift<<<n / 256, 256>>>(x, n);
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    sum = 0;
    for (int i = 0; i < n; ++i)
      sum += x[i];
    double t1 = nowMs();
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (rep >= 2) {
      gpu.push_back(ms);
      wall.push_back(static_cast<float>(t1 - t0));
    }
  }
  for (int i = 0; i < n; i += 4097)
    if (x[i] != static_cast<float>(i % 1024) * 0.25f * 2.0f + 1.0f) {
      std::fprintf(stderr, "wrong result at %d\n", i);
      return 1;
    }
  std::printf("sum %.1f\n", sum);
  if (argc > 1)
    dumpOutput(argv[1], x, bytes);
  report(gpu, wall);
  CHECK_CUDA(cudaFree(x));
  return 0;
}
