// Shared helpers of the host-side examples (issue 20): error checks, a
// deterministic fill, the median of repeated timings, and the output dump
// the runner compares byte for byte (tests/gpu/host/run.sh).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK_CUDA(call)                                                                     \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));     \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// Values in [0, 1) from a fixed seed: both programs of a pair see the same input.
inline void fillRandom(float *p, size_t n, unsigned long long seed) {
  for (size_t i = 0; i < n; ++i) {
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    p[i] = static_cast<float>((seed * 2685821657736338717ull) >> 40) / 16777216.0f;
  }
}

inline float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

inline double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline void dumpOutput(const char *path, const void *host, size_t bytes) {
  FILE *f = std::fopen(path, "wb");
  if (!f || std::fwrite(host, 1, bytes, f) != bytes) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
  std::fclose(f);
}

// The pair's result line the runner reads: GPU time (CUDA events) and host wall time.
inline void report(const std::vector<float> &eventMs, const std::vector<float> &wallMs) {
  std::printf("median_ms %.4f\n", median(eventMs));
  std::printf("median_wall_ms %.4f\n", median(wallMs));
}

constexpr int kRepeats = 11;
