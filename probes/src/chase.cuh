// Pointer-chase kernels shared by the latency and cache-geometry probes.
// A chain is an array of 32-bit word indices: a[j] holds the next j. Chains
// are placed at the start of 128-byte lines so one word stands for one line.
#pragma once

#include "probe.h"

#include <cstdint>
#include <vector>

namespace probe {

enum LoadPath : int { kCacheAll = 0, kCacheGlobal = 1, kNonCoherent = 2 };

template <int P>
__device__ __forceinline__ uint32_t loadWord(const uint32_t* p) {
  uint32_t v;
  // Inline PTX pins the cache operator; the plain C++ load would leave it to the compiler.
  if constexpr (P == kCacheAll)
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
  else if constexpr (P == kCacheGlobal)
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  else
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

// Every thread of the block reads one word per 32-byte sector of the warm
// region (caches fill by sector); unrolled so many loads are in flight.
template <int P>
__device__ __forceinline__ uint32_t warmLines(const uint32_t* warm, size_t warmWords) {
  uint32_t acc = 0;
  const size_t step = size_t(blockDim.x) * 8;
  size_t i = size_t(threadIdx.x) * 8;
  for (; i + 7 * step < warmWords; i += 8 * step) {
#pragma unroll
    for (int u = 0; u < 8; ++u) acc ^= loadWord<P>(warm + i + u * step);
  }
  for (; i < warmWords; i += step) acc ^= loadWord<P>(warm + i);
  return acc;
}

// Warm-up inside the timed launch (a separate warm-up launch may land on
// another SM with a cold L1), then thread 0 times `steps` dependent loads.
template <int P, int WarmP>
__global__ void chaseKernel(const uint32_t* chain, const uint32_t* warm, size_t warmWords,
                            uint32_t start, uint32_t untimedSteps, uint32_t steps,
                            unsigned long long* cycles, uint32_t* sink) {
  uint32_t acc = warmLines<WarmP>(warm, warmWords);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t j = start;
    for (uint32_t i = 0; i < untimedSteps; ++i) j = loadWord<P>(chain + j);
    unsigned long long t0 = clock64();
#pragma unroll 4
    for (uint32_t i = 0; i < steps; ++i) j = loadWord<P>(chain + j);
    unsigned long long t1 = clock64();
    cycles[0] = t1 - t0;
    sink[0] = j;
  }
  if (acc == 0x9e3779b9u) sink[1 + threadIdx.x] = acc;  // keeps the warm-up loads alive
}

constexpr int kMaxRecorded = 2048;

// Seed 001's fine-grained chase: the latency of every access is kept (in
// shared memory, 16-bit, so the carve-out stays small); storing the index
// orders the second clock read after the load.
template <int P, int WarmP>
__global__ void recordedChaseKernel(const uint32_t* chain, const uint32_t* warm, size_t warmWords,
                                    uint32_t start, uint32_t untimedSteps, uint32_t steps,
                                    uint16_t* latOut, uint32_t* sink) {
  __shared__ uint16_t sLat[kMaxRecorded];
  __shared__ uint16_t sIdx[kMaxRecorded];
  uint32_t acc = warmLines<WarmP>(warm, warmWords);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t j = start;
    for (uint32_t i = 0; i < untimedSteps; ++i) j = loadWord<P>(chain + j);
    for (uint32_t i = 0; i < steps; ++i) {
      uint32_t t0 = clock();
      j = loadWord<P>(chain + j);
      sIdx[i] = uint16_t(j);
      uint32_t t1 = clock();
      sLat[i] = uint16_t(t1 - t0 > 65535u ? 65535u : t1 - t0);
    }
    for (uint32_t i = 0; i < steps; ++i) latOut[i] = sLat[i];
    sink[0] = j + sIdx[steps - 1];
  }
  if (acc == 0x9e3779b9u) sink[1 + threadIdx.x] = acc;
}

struct ChaseScratch {
  DeviceBuffer<unsigned long long> cycles{2};
  DeviceBuffer<uint32_t> sink{2048};
  double read() {
    unsigned long long c = 0;
    PROBE_CHECK(cudaMemcpy(&c, cycles.ptr, sizeof c, cudaMemcpyDeviceToHost));
    return double(c);
  }
};

// Writes a cyclic chain through `order` into device `region` (other words untouched).
void uploadChain(uint32_t* region, const std::vector<uint32_t>& order);
// `count` distinct 128-byte lines of a footprint, in random order, as word indices.
std::vector<uint32_t> randomLines(size_t footprintBytes, uint32_t count, uint32_t seed);

// Host side: writes a cyclic chain through the given word positions.
inline std::vector<uint32_t> makeChain(size_t words, const std::vector<uint32_t>& order) {
  std::vector<uint32_t> a(words, 0);
  for (size_t k = 0; k < order.size(); ++k) a[order[k]] = order[(k + 1) % order.size()];
  return a;
}

// Word positions of consecutive 128-byte lines (or another stride).
inline std::vector<uint32_t> sequentialOrder(size_t footprintBytes, size_t strideBytes) {
  std::vector<uint32_t> o;
  for (size_t b = 0; b < footprintBytes; b += strideBytes) o.push_back(uint32_t(b / 4));
  return o;
}

}  // namespace probe
