// Host side of ycbcr_before.cu and ycbcr_after.cu (included after the
// kernel): three planes of 16 Mi fixed-seed pixels (a multiple of the block),
// the median of 21 timed launches and the three output planes written for
// tests/gpu/advice/run.sh.
#pragma once

int main(int argc, char **argv) {
  const int n = 16 << 20;
  std::vector<float> planes(size_t(3) * n);
  unsigned long long seed = 0x5eed0005ull;
  for (float &v : planes)
    v = float(nextRandom(seed) >> 40) / float(1 << 24);
  float *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, planes.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dOut, planes.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dIn, planes.data(), planes.size() * sizeof(float), cudaMemcpyHostToDevice));
  float *r = dIn, *g = dIn + n, *b = dIn + 2 * size_t(n);
  float *y = dOut, *cb = dOut + n, *cr = dOut + 2 * size_t(n);
  float ms = medianMs([&] { rgbToYcbcr<<<n / kThreads, kThreads>>>(r, g, b, y, cb, cr); });
  std::vector<float> out(planes.size());
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], out.data(), out.size() * sizeof(float));
  return 0;
}
