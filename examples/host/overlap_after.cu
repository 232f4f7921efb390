// host-transfer-no-overlap, after: the staged copy-execute of seed 4.1.3.
// The data is cut into S chunks (S from the command line, 4 by default);
// each chunk's copy in, kernel and copy back go to its own stream, so the
// copies of one chunk overlap the kernel of another.
#include "host_bench.h"

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
  const int streamCount = argc > 2 ? std::atoi(argv[2]) : 4;
  const int chunk = n / streamCount; // n is a power of two, and so is streamCount
  float *hX, *hY;
  CHECK_CUDA(cudaMallocHost(&hX, bytes));
  CHECK_CUDA(cudaMallocHost(&hY, bytes));
  fillRandom(hX, n, 3);
  float *dX, *dY;
  CHECK_CUDA(cudaMalloc(&dX, bytes));
  CHECK_CUDA(cudaMalloc(&dY, bytes));
  std::vector<cudaStream_t> streams(streamCount);
  for (cudaStream_t &s : streams)
    CHECK_CUDA(cudaStreamCreate(&s));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> gpu, wall;
  for (int rep = 0; rep < kRepeats + 2; ++rep) {
    double t0 = nowMs();
    CHECK_CUDA(cudaEventRecord(start));
    for (int s = 0; s < streamCount; ++s) {
      const int off = s * chunk;
      CHECK_CUDA(cudaMemcpyAsync(dX + off, hX + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
      polish<<<chunk / 256, 256, 0, streams[s]>>>(dY + off, dX + off, chunk);
      CHECK_CUDA(cudaMemcpyAsync(hY + off, dY + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    }
    // The legacy default stream waits for the (blocking) streams' work.
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
  std::printf("streams %d\n", streamCount);
  report(gpu, wall);
  return 0;
}
