// Shared host helpers of the rewrite examples: a deterministic random fill,
// the median of CUDA-event timings, and dumping the output for the
// bit-identical comparison the runner makes (tests/gpu/rewrites/run.sh).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// xorshift64*, seeded: both programs of a pair see the same input.
inline unsigned long long nextRandom(unsigned long long &state) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ull;
}

// Median of `runs` timings (ms) of `launch`, after `warmup` untimed runs.
template <typename Launch> float medianMs(Launch launch, int runs = 21, int warmup = 3) {
  for (int i = 0; i < warmup; ++i)
    launch();
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms(runs);
  for (int i = 0; i < runs; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    launch();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&ms[i], start, stop));
  }
  CHECK_CUDA(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[runs / 2];
}

inline void dumpOutput(const char *path, const void *host, size_t bytes) {
  FILE *f = std::fopen(path, "wb");
  if (!f || std::fwrite(host, 1, bytes, f) != bytes) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
  std::fclose(f);
}
