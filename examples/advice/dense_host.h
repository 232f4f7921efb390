// Host side of dense_before.cu and dense_after.cu (included after the
// kernel): a batch of 2048 rows of 2048 inputs into 2048 outputs (sizes are
// multiples of the 16x16 tile), fixed-seed values, the median of 21 timed
// launches and the output written for tests/gpu/advice/run.sh.
#pragma once

int main(int argc, char **argv) {
  const int batch = 2048, inputs = 2048, outputs = 2048;
  std::vector<float> x(size_t(batch) * inputs), w(size_t(inputs) * outputs);
  unsigned long long seed = 0x5eed0004ull;
  for (float &v : x)
    v = float(nextRandom(seed) >> 40) / float(1 << 24);
  for (float &v : w)
    v = float(nextRandom(seed) >> 40) / float(1 << 23) - 1.f;
  float *dX = nullptr, *dW = nullptr, *dY = nullptr;
  CHECK_CUDA(cudaMalloc(&dX, x.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dW, w.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dY, size_t(batch) * outputs * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dX, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dW, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(kTile, kTile), grid(outputs / kTile, batch / kTile);
  float ms = medianMs([&] { denseRelu<<<grid, block>>>(dX, dW, dY, inputs, outputs); }, 11, 2);
  std::vector<float> y(size_t(batch) * outputs);
  CHECK_CUDA(cudaMemcpy(y.data(), dY, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], y.data(), y.size() * sizeof(float));
  return 0;
}
