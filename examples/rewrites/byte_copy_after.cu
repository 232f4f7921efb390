// A byte stream transform with one byte a thread (out[i] = in[i] + 1), the
// pattern G_2 says wastes bandwidth. `warplint check --fix --fix-launch`
// restructures it to four bytes a thread through uchar4, with a scalar tail
// and the launch's grid divided by four: byte_copy_after.cu is its output.
// Usage: byte_copy_before OUT.bin
#include "bench_util.h"

__global__ void addOne(unsigned char *out, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i + 3 < n) {
    uchar4 out4;
    uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i];
    out4.x = in4.x + 1;
    out4.y = in4.y + 1;
    out4.z = in4.z + 1;
    out4.w = in4.w + 1;
    reinterpret_cast<uchar4 *>(out)[i] = out4;
  } else {
    for (int tail = 4 * i; tail < n; ++tail)
      out[tail] = in[tail] + 1;
  }
}

int main(int argc, char **argv) {
  const int n = (256 << 20) + 3; // 256 MiB and a ragged tail
  std::vector<unsigned char> host(n);
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  for (unsigned char &v : host)
    v = (unsigned char)(nextRandom(seed) >> 56);
  unsigned char *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, n));
  CHECK_CUDA(cudaMalloc(&dOut, n));
  CHECK_CUDA(cudaMemcpy(dIn, host.data(), n, cudaMemcpyHostToDevice));
  const int threads = 256;
  // Launched here, where the allocations are, so that warplint can show the
  // pointers are cudaMalloc bases (aligned for uchar4); timed like medianMs.
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int run = 0; run < 24; ++run) {
    CHECK_CUDA(cudaEventRecord(start));
    addOne<<<(((n + threads - 1) / threads) + 3) / 4, threads>>>(dOut, dIn, n);
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
    if (run >= 3) // three warm-ups
      times.push_back(t);
  }
  CHECK_CUDA(cudaGetLastError());
  std::sort(times.begin(), times.end());
  float ms = times[times.size() / 2];
  CHECK_CUDA(cudaMemcpy(host.data(), dOut, n, cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], host.data(), n);
  return 0;
}
