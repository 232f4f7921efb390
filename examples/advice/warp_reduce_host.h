// Host side of warp_reduce_before.cu and warp_reduce_after.cu (included after
// the kernel): 8 Mi fixed-seed floats (32 MiB, which stay in the H100's L2
// across the timed launches, so the reduction's own instructions are what
// the timing sees), the median of 21 timed launches, a check of every block
// sum against a double-precision host sum, and the block sums written for
// tests/gpu/advice/run.sh.
#pragma once

#include <cmath>

int main(int argc, char **argv) {
  const int n = 8 << 20;
  const int blocks = n / (2 * kThreads);
  std::vector<float> in(n);
  unsigned long long seed = 0x5eed0006ull;
  for (float &v : in)
    v = float(nextRandom(seed) >> 40) / float(1 << 24) - 0.5f;
  float *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, size_t(n) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dOut, size_t(blocks) * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dIn, in.data(), size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
  float ms = medianMs([&] { blockSums<<<blocks, kThreads>>>(dIn, dOut); });
  std::vector<float> out(blocks);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  // Self-check: each block sum against the exact sum of its 512 inputs.
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    double exact = 0;
    for (int j = 0; j < 2 * kThreads; ++j)
      exact += in[size_t(b) * 2 * kThreads + j];
    if (std::fabs(out[b] - exact) > 1e-3)
      ++bad;
  }
  std::printf("median_ms %.4f\nblocks %d wrong %d\n", ms, blocks, bad);
  if (argc > 1)
    dumpOutput(argv[1], out.data(), out.size() * sizeof(float));
  return bad ? 1 : 0;
}
