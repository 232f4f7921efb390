// Host side of standardize_before.cu and standardize_after.cu (included
// after the kernel): 4 Mi series of 16 fixed-seed samples, the median of 21
// timed launches and the output written for tests/gpu/advice/run.sh.
#pragma once

int main(int argc, char **argv) {
  const int series = 4 << 20;
  const size_t n = size_t(series) * kSamples;
  std::vector<float> in(n);
  unsigned long long seed = 0x5eed0002ull;
  for (float &v : in)
    v = float(nextRandom(seed) >> 40) / float(1 << 20) - 8.f;
  float *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dOut, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int threads = 256, blocks = (series + threads - 1) / threads;
  float ms = medianMs([&] { standardize<<<blocks, threads>>>(dIn, dOut, series); });
  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], out.data(), n * sizeof(float));
  return 0;
}
