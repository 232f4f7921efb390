// Per-SM rates from clock64: each block records its start and end cycles and
// the SM it ran on; a rate is the work of all blocks an SM ran over that SM's
// first-start to last-end span (clock64 counts per SM, so spans of different
// SMs are never compared), and a sample is the median over SMs. Used by the
// throughput-against-warps probes (seed 003 sec. 4.1-4.2).
#pragma once

#include "probe.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace probe {

struct BlockClock {
  unsigned long long t0, t1;
  uint32_t smid, threads;
};

// Thread 0 of the block writes its record; call after the timed region.
__device__ __forceinline__ void recordBlockClock(BlockClock* clocks, unsigned long long t0,
                                                 unsigned long long t1) {
  if (threadIdx.x == 0) {
    uint32_t smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    clocks[blockIdx.x] = BlockClock{t0, t1, smid, blockDim.x};
  }
}

// Work per thread summed over every block of an SM, over the SM's span; the
// median over SMs.
inline double perSmRate(const std::vector<BlockClock>& blocks, double workPerThread) {
  std::vector<double> rates;
  std::vector<int> seen;
  for (const auto& b : blocks) {
    if (std::find(seen.begin(), seen.end(), int(b.smid)) != seen.end()) continue;
    seen.push_back(int(b.smid));
    unsigned long long lo = ~0ull, hi = 0;
    double work = 0;
    for (const auto& c : blocks)
      if (c.smid == b.smid) {
        lo = std::min(lo, c.t0);
        hi = std::max(hi, c.t1);
        work += workPerThread * c.threads;
      }
    rates.push_back(work / double(hi - lo));
  }
  return median(rates);
}

// Launches `launch(clocksPtr)` once and returns the per-SM rate.
template <typename F>
double launchPerSmRate(int blocks, double workPerThread, F launch) {
  DeviceBuffer<BlockClock> clocks{size_t(blocks)};
  launch(clocks.ptr);
  checkLaunch("throughput kernel");
  std::vector<BlockClock> h(static_cast<size_t>(blocks));
  PROBE_CHECK(cudaMemcpy(h.data(), clocks.ptr, h.size() * sizeof(BlockClock), cudaMemcpyDeviceToHost));
  return perSmRate(h, workPerThread);
}

// Warps per SM -> (blocks per SM, threads per block): one block up to 32
// warps, two blocks of half the warps beyond (1024 threads a block at most).
inline std::pair<int, int> warpShape(int warps) {
  return warps <= 32 ? std::make_pair(1, warps * 32) : std::make_pair(2, warps * 16);
}

}  // namespace probe
