// Host side of median_before.cu and median_after.cu (included after the
// kernel): a fixed-seed 4096x4096 image, the median of 21 timed launches and
// the output written for the comparison in tests/gpu/advice/run.sh.
#pragma once

int main(int argc, char **argv) {
  const int width = 4096, height = 4096;
  const size_t n = size_t(width) * height;
  std::vector<float> img(n);
  unsigned long long seed = 0x5eed0001ull;
  for (float &v : img)
    v = float(nextRandom(seed) >> 40) / float(1 << 24);
  float *dImg = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dImg, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dOut, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dImg, img.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid(width / 32, height / 8);
  float ms = medianMs([&] { median3x3<<<grid, block>>>(dImg, dOut, width, height); });
  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], out.data(), n * sizeof(float));
  return 0;
}
