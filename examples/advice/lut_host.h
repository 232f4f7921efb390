// Host side of lut_before.cu (LUT_IN_CONSTANT 1: the curve is copied to the
// `__constant__` symbol) and lut_after.cu (0: the curve is a device buffer
// passed to the kernel): 16 Mi fixed-seed pixels, the median of 21 timed
// launches and the output written for tests/gpu/advice/run.sh.
#pragma once

#include <cmath>

int main(int argc, char **argv) {
  const int n = 16 << 20;
  std::vector<uchar4> px(n);
  unsigned long long seed = 0x5eed0003ull;
  for (uchar4 &p : px) {
    unsigned long long r = nextRandom(seed);
    p = make_uchar4(r >> 24, r >> 32, r >> 40, r >> 48);
  }
  std::vector<float> table(256);
  for (int v = 0; v < 256; ++v) // sRGB decode
    table[v] = v <= 10 ? v / 255.f / 12.92f : std::pow((v / 255.f + 0.055f) / 1.055f, 2.4f);
  uchar4 *dPx = nullptr;
  float4 *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dPx, size_t(n) * sizeof(uchar4)));
  CHECK_CUDA(cudaMalloc(&dOut, size_t(n) * sizeof(float4)));
  CHECK_CUDA(cudaMemcpy(dPx, px.data(), size_t(n) * sizeof(uchar4), cudaMemcpyHostToDevice));
  const int threads = 256, blocks = (n + threads - 1) / threads;
#if LUT_IN_CONSTANT
  CHECK_CUDA(cudaMemcpyToSymbol(curve, table.data(), 256 * sizeof(float)));
  float ms = medianMs([&] { decodePixels<<<blocks, threads>>>(dPx, dOut, n); });
#else
  float *dCurve = nullptr;
  CHECK_CUDA(cudaMalloc(&dCurve, 256 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dCurve, table.data(), 256 * sizeof(float), cudaMemcpyHostToDevice));
  float ms = medianMs([&] { decodePixels<<<blocks, threads>>>(dPx, dOut, n, dCurve); });
#endif
  std::vector<float4> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, size_t(n) * sizeof(float4), cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], out.data(), size_t(n) * sizeof(float4));
  return 0;
}
