// Latency probes: the SM clock, the latency ladder and latency against
// footprint for the L1 and L2 paths.
#include "chase.cuh"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace probe {

// ---------------------------------------------------------------- kernels

__global__ void clockSpinKernel(unsigned long long spinCycles, unsigned long long* out) {
  unsigned long long g0, g1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  unsigned long long c0 = clock64();
  while (clock64() - c0 < spinCycles) {
  }
  unsigned long long c1 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  out[0] = c1 - c0;
  out[1] = g1 - g0;
}

// Dependent integer multiply-adds: the "register" rung of the ladder.
__global__ void registerChainKernel(uint32_t seed, uint32_t steps, unsigned long long* cycles,
                                    uint32_t* sink) {
  uint32_t x = seed;
  unsigned long long t0 = clock64();
  for (uint32_t i = 0; i < steps; i += 16) {
#pragma unroll
    for (int u = 0; u < 16; ++u) asm volatile("mad.lo.u32 %0, %0, %0, %1;" : "+r"(x) : "r"(i));
  }
  unsigned long long t1 = clock64();
  cycles[0] = t1 - t0;
  sink[0] = x;
}

__global__ void sharedChainKernel(uint32_t words, uint32_t steps, unsigned long long* cycles,
                                  uint32_t* sink) {
  __shared__ uint32_t s[1024];
  for (uint32_t i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (i + 1) % words;
  __syncthreads();
  if (threadIdx.x != 0) return;
  uint32_t j = 0;
  for (uint32_t i = 0; i < words; ++i) j = s[j];  // warm-up lap
  unsigned long long t0 = clock64();
#pragma unroll 4
  for (uint32_t i = 0; i < steps; ++i) j = s[j];
  unsigned long long t1 = clock64();
  cycles[0] = t1 - t0;
  sink[0] = j;
}

__constant__ uint32_t cChain[1024];

__global__ void constantChainKernel(uint32_t words, uint32_t steps, unsigned long long* cycles,
                                    uint32_t* sink) {
  uint32_t j = 0;
  for (uint32_t i = 0; i < words; ++i) j = cChain[j];  // warm-up lap
  unsigned long long t0 = clock64();
#pragma unroll 4
  for (uint32_t i = 0; i < steps; ++i) j = cChain[j];
  unsigned long long t1 = clock64();
  cycles[0] = t1 - t0;
  sink[0] = j;
}

// A thread-private array indexed at run time lives in local memory.
__global__ void localChainKernel(uint32_t seed, uint32_t steps, unsigned long long* cycles,
                                 uint32_t* sink) {
  uint32_t loc[256];
  for (uint32_t i = 0; i < 256; ++i) loc[i] = (i + 1 + seed) & 255u;
  uint32_t j = seed;
  for (uint32_t i = 0; i < 256; ++i) j = loc[j];  // warm-up lap
  unsigned long long t0 = clock64();
#pragma unroll 4
  for (uint32_t i = 0; i < steps; ++i) j = loc[j];
  unsigned long long t1 = clock64();
  cycles[0] = t1 - t0;
  sink[0] = j;
}

__global__ void scatterChainKernel(uint32_t* region, const uint32_t* order, uint32_t n) {
  uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) region[order[k]] = order[(k + 1) % n];
}

// ------------------------------------------------------------------ host

// Writes a cyclic chain through `order` into `region` (other words untouched).
void uploadChain(uint32_t* region, const std::vector<uint32_t>& order) {
  DeviceBuffer<uint32_t> dOrder(order.size());
  PROBE_CHECK(cudaMemcpy(dOrder.ptr, order.data(), order.size() * 4, cudaMemcpyHostToDevice));
  uint32_t n = uint32_t(order.size());
  scatterChainKernel<<<(n + 255) / 256, 256>>>(region, dOrder.ptr, n);
  checkLaunch("scatterChainKernel");
}

// `count` distinct 128-byte lines of a footprint, in random order.
std::vector<uint32_t> randomLines(size_t footprintBytes, uint32_t count, uint32_t seed) {
  uint32_t lines = uint32_t(footprintBytes / 128);
  std::vector<uint32_t> all(lines);
  std::iota(all.begin(), all.end(), 0u);
  std::mt19937 rng(seed);
  count = std::min(count, lines);
  for (uint32_t k = 0; k < count; ++k) {
    std::uniform_int_distribution<uint32_t> d(k, lines - 1);
    std::swap(all[k], all[d(rng)]);
  }
  all.resize(count);
  for (auto& l : all) l *= 32;  // word index of the line start
  return all;
}

namespace {

template <int P, int WP>
double chaseCyclesPerLoad(ChaseScratch& s, const uint32_t* chain, const uint32_t* warm,
                          size_t warmWords, uint32_t start, uint32_t steps,
                          uint32_t untimedSteps = 0) {
  chaseKernel<P, WP><<<1, 1024>>>(chain, warm, warmWords, start, untimedSteps, steps, s.cycles.ptr,
                                   s.sink.ptr);
  checkLaunch("chaseKernel");
  return s.read() / steps;
}

double toNs(const Context& ctx, double cycles) { return cycles * 1000.0 / ctx.smClockMHz; }

}  // namespace

void runSmClock(Context& ctx, ProbeOutput& out) {
  DeviceBuffer<unsigned long long> d(2);
  auto& v = out.add("sm_clock_mhz", {}, "MHz", "clock64 cycles / %globaltimer ns over a ~20M-cycle spin");
  for (int r = 0; r < ctx.runs + 1; ++r) {
    clockSpinKernel<<<1, 1>>>(20000000ull, d.ptr);
    checkLaunch("clockSpinKernel");
    unsigned long long h[2];
    PROBE_CHECK(cudaMemcpy(h, d.ptr, sizeof h, cudaMemcpyDeviceToHost));
    if (r > 0) v.samples.push_back(double(h[0]) * 1000.0 / double(h[1]));  // first spin ramps the clock
  }
  ctx.smClockMHz = median(v.samples);
}

void runLatencyLadder(Context& ctx, ProbeOutput& out) {
  if (ctx.smClockMHz <= 0) ctx.smClockMHz = ctx.smClockKHz / 1000.0;
  ChaseScratch s;
  struct Rung {
    const char* level;
    const char* method;
    std::vector<double> cycles;
    double footprintBytes;
  };
  std::vector<Rung> rungs;
  auto rung = [&](const char* level, const char* method, double fp) -> Rung& {
    rungs.push_back(Rung{level, method, {}, fp});
    return rungs.back();
  };

  const size_t l2 = ctx.l2Bytes;
  const size_t dramRegion = 4 * l2, flushRegion = 2 * l2;
  DeviceBuffer<uint32_t> big(dramRegion / 4), flush(flushRegion / 4), small(32 * 1024 / 4);
  PROBE_CHECK(cudaMemset(flush.ptr, 0, flush.bytes()));
  uploadChain(small.ptr, sequentialOrder(32 * 1024, 128));
  const uint32_t steps = 2048;

  rung("register", "dependent mad.lo.u32 chain, cycles per instruction", 0);
  rung("shared", "dependent shared loads over 1024 words", 4096);
  rung("constant", "dependent __constant__ loads over 64 words", 256);
  rung("l1_hit", "ld.global.ca chase, 32 KiB footprint, 128-byte stride", 32 * 1024);
  rung("readonly", "ld.global.nc chase, 32 KiB footprint, 128-byte stride", 32 * 1024);
  rung("local", "thread-private 256-word array indexed at run time (local memory, L1-cached)", 1024);
  rung("l2_near", "ld.global.cg chase, 2048 random lines of a 4 MiB footprint", 4 << 20);
  rung("l2_mixed", "ld.global.cg chase, 2048 random lines of a footprint of 0.9 x L2 (near, far "
       "and missing lines mixed)", 0.9 * l2);
  rung("dram", "ld.global.cg chase, 2048 random lines of a 4 x L2 region after a 2 x L2 flush",
       double(dramRegion));
  rung("l2_far", "recorded ld.global.cg chase of 2048 random lines of a 0.8 x L2 footprint; median "
       "of the accesses between 1.3 x the l2_near level and 0.9 x the dram level of the same run "
       "(lines homed in the far L2 partition)", 0.8 * l2);
  DeviceBuffer<uint16_t> rec(kMaxRecorded);
  std::vector<double> farShare;

  {
    std::vector<uint32_t> c(1024);
    for (uint32_t i = 0; i < 1024; ++i) c[i] = (i + 1) % 64;
    PROBE_CHECK(cudaMemcpyToSymbol(cChain, c.data(), c.size() * 4));
  }
  for (int r = 0; r < ctx.runs; ++r) {
    registerChainKernel<<<1, 1>>>(r + 3, 4096, s.cycles.ptr, s.sink.ptr);
    checkLaunch("registerChainKernel");
    rungs[0].cycles.push_back(s.read() / 4096);
    sharedChainKernel<<<1, 32>>>(1024, 4096, s.cycles.ptr, s.sink.ptr);
    checkLaunch("sharedChainKernel");
    rungs[1].cycles.push_back(s.read() / 4096);
    constantChainKernel<<<1, 1>>>(64, 4096, s.cycles.ptr, s.sink.ptr);
    checkLaunch("constantChainKernel");
    rungs[2].cycles.push_back(s.read() / 4096);
    rungs[3].cycles.push_back(chaseCyclesPerLoad<kCacheAll, kCacheAll>(s, small.ptr, small.ptr,
                                                                       small.count, 0, steps));
    rungs[4].cycles.push_back(chaseCyclesPerLoad<kNonCoherent, kNonCoherent>(
        s, small.ptr, small.ptr, small.count, 0, steps));
    localChainKernel<<<1, 1>>>(0, 4096, s.cycles.ptr, s.sink.ptr);
    checkLaunch("localChainKernel");
    rungs[5].cycles.push_back(s.read() / 4096);

    auto near = randomLines(4 << 20, steps, 100 + r);
    uploadChain(big.ptr, near);
    rungs[6].cycles.push_back(chaseCyclesPerLoad<kCacheGlobal, kCacheGlobal>(
        s, big.ptr, big.ptr, (4 << 20) / 4, near[0], steps));
    size_t farBytes = size_t(0.9 * l2) / 128 * 128;
    auto far = randomLines(farBytes, steps, 200 + r);
    uploadChain(big.ptr, far);
    rungs[7].cycles.push_back(chaseCyclesPerLoad<kCacheGlobal, kCacheGlobal>(
        s, big.ptr, big.ptr, farBytes / 4, far[0], steps));
    auto dram = randomLines(dramRegion, steps, 300 + r);
    uploadChain(big.ptr, dram);
    rungs[8].cycles.push_back(chaseCyclesPerLoad<kCacheGlobal, kCacheGlobal>(
        s, big.ptr, flush.ptr, flush.count, dram[0], steps));
    size_t farFp = size_t(0.8 * l2) / 128 * 128;
    auto farLines = randomLines(farFp, kMaxRecorded, 400 + r);
    uploadChain(big.ptr, farLines);
    recordedChaseKernel<kCacheGlobal, kCacheGlobal><<<1, 1024>>>(
        big.ptr, big.ptr, farFp / 4, farLines[0], 0, kMaxRecorded, rec.ptr, s.sink.ptr);
    checkLaunch("recordedChaseKernel");
    std::vector<uint16_t> h(kMaxRecorded);
    PROBE_CHECK(cudaMemcpy(h.data(), rec.ptr, h.size() * 2, cudaMemcpyDeviceToHost));
    std::vector<double> band;
    for (uint16_t c : h)
      if (c > 1.3 * rungs[6].cycles.back() && c < 0.9 * rungs[8].cycles.back()) band.push_back(c);
    if (!band.empty()) rungs[9].cycles.push_back(median(band));
    farShare.push_back(double(band.size()) / h.size());
  }
  out.add("l2_far_share", {num("footprint_bytes", 0.8 * l2)}, "fraction",
          "share of the recorded l2_far accesses that fell in the far band").samples = farShare;
  for (auto& g : rungs) {
    if (g.cycles.empty()) continue;
    std::vector<Param> p = {str("level", g.level)};
    if (g.footprintBytes > 0) p.push_back(num("footprint_bytes", g.footprintBytes));
    out.add("latency_cycles", p, "cycles", g.method).samples = g.cycles;
    auto& ns = out.add("latency_ns", p, "ns", std::string(g.method) + "; cycles / measured SM clock");
    for (double c : g.cycles) ns.samples.push_back(toNs(ctx, c));
  }
}

void runL1LatencyVsFootprint(Context& ctx, ProbeOutput& out) {
  ChaseScratch s;
  PROBE_CHECK(cudaFuncSetAttribute(chaseKernel<kCacheAll, kCacheAll>,
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  const std::vector<int> kib = {16,  32,  64,  96,  128, 160, 176, 192, 200, 208, 216,
                                224, 232, 240, 248, 256, 272, 288, 320, 384, 512};
  // Run r chases in allocation r mod 4: near the capacity the hits depend on it.
  const Placements<uint32_t> bufs(512 * 1024 / 4);
  std::vector<Value*> vals;
  for (int k : kib)
    vals.push_back(&out.add("latency_cycles", {num("footprint_kib", k)}, "cycles",
                            "ld.global.ca sequential chase, 128-byte stride; run r in allocation r mod 4; per sample the mean of 4 launches, each one untimed lap then 4 timed laps (at least 4096 loads)"));
  for (int r = 0; r < ctx.runs; ++r) {
    DeviceBuffer<uint32_t>& buf = bufs.at(r);
    for (size_t i = 0; i < kib.size(); ++i) {
      size_t fp = size_t(kib[i]) * 1024;
      uploadChain(buf.ptr, sequentialOrder(fp, 128));
      // Past the capacity which lines survive varies from launch to launch
      // (laps within one launch agree); a sample is the mean of four
      // launches, each an untimed lap then four timed ones.
      const uint32_t lap = uint32_t(fp / 128);
      const uint32_t steps = std::max<uint32_t>(4 * lap, 4096);
      double sum = 0;
      for (int launch = 0; launch < 4; ++launch)
        sum += chaseCyclesPerLoad<kCacheAll, kCacheAll>(s, buf.ptr, buf.ptr, fp / 4, 0, steps,
                                                        /*untimedSteps=*/lap);
      vals[i]->samples.push_back(sum / 4);
    }
  }
}

namespace {

// Where a share rising with footprint first reaches 5%, linearly
// interpolated between the measured footprints on either side.
struct Crossing {
  double prevX = 0, prevY = 0, x = -1;
  void add(double fx, double fy) {
    if (x >= 0) return;
    if (fy >= 0.05) x = fy > prevY ? prevX + (0.05 - prevY) / (fy - prevY) * (fx - prevX) : fx;
    prevX = fx;
    prevY = fy;
  }
  double value() const { return x >= 0 ? x : prevX; }
};

}  // namespace

void runL2LatencyVsFootprint(Context& ctx, ProbeOutput& out) {
  ChaseScratch s;
  const double l2MiB = double(ctx.l2Bytes) / (1 << 20);
  std::vector<double> mib = {1, 2, 4, 8, 12, 16};
  for (double f = 20; f <= 2.0 * l2MiB + 1e-9; f += (f < 1.4 * l2MiB ? 4 : 16)) mib.push_back(f);
  mib.push_back(std::ceil(3 * l2MiB / 8) * 8);
  DeviceBuffer<uint32_t> buf(size_t(mib.back() * (1 << 20)) / 4), flush(2 * ctx.l2Bytes / 4);
  DeviceBuffer<uint16_t> rec(kMaxRecorded);
  PROBE_CHECK(cudaMemset(flush.ptr, 0, flush.bytes()));
  std::vector<Value*> lat, far, miss;
  for (double m : mib) {
    lat.push_back(&out.add("latency_cycles", {num("footprint_mib", m)}, "cycles",
                           "ld.global.cg chase of 4096 random lines after a warm-up of the footprint"));
    far.push_back(&out.add("far_fraction", {num("footprint_mib", m)}, "fraction",
                           "recorded chase of 2048 random lines: share between 1.3 x the 4 MiB "
                           "level and 0.9 x the DRAM level (far L2 partition)"));
    miss.push_back(&out.add("miss_fraction", {num("footprint_mib", m)}, "fraction",
                            "recorded chase of 2048 random lines: share at or over 0.9 x the DRAM "
                            "level (L2 misses)"));
  }
  auto& nearEnd = out.add("l2_near_plateau_end_mib", {}, "MiB",
                          "per run: footprint at which 5% of the recorded accesses first leave the "
                          "near-L2 level, interpolated between the measured footprints");
  auto& capacity = out.add("l2_capacity_mib", {}, "MiB",
                           "per run: footprint at which 5% of the recorded accesses first reach the "
                           "DRAM level, interpolated between the measured footprints");
  auto recorded = [&](size_t fp, const std::vector<uint32_t>& order, const uint32_t* warm,
                      size_t warmWords) {
    uploadChain(buf.ptr, order);
    recordedChaseKernel<kCacheGlobal, kCacheGlobal><<<1, 1024>>>(
        buf.ptr, warm, warmWords, order[0], 0, uint32_t(order.size()), rec.ptr, s.sink.ptr);
    checkLaunch("recordedChaseKernel");
    std::vector<uint16_t> h(order.size());
    PROBE_CHECK(cudaMemcpy(h.data(), rec.ptr, h.size() * 2, cudaMemcpyDeviceToHost));
    return std::vector<double>(h.begin(), h.end());
  };
  for (int r = 0; r < ctx.runs; ++r) {
    // The two reference levels of this run: near L2 (4 MiB) and DRAM (after a flush).
    auto nearRec = recorded(4 << 20, randomLines(4 << 20, kMaxRecorded, 900 + r), buf.ptr, (4 << 20) / 4);
    size_t bigFp = size_t(mib.back() * (1 << 20));
    // Reading 2 x L2 of other data evicts the freshly written chain lines.
    auto dramRec = recorded(bigFp, randomLines(bigFp, kMaxRecorded, 950 + r), flush.ptr, flush.count);
    const double nearLvl = median(nearRec), dramLvl = median(dramRec);
    // Each threshold's footprint is interpolated between the two measured
    // footprints around its first crossing, not snapped to the 4 MiB grid.
    Crossing nearEnd5, cap5;
    for (size_t i = 0; i < mib.size(); ++i) {
      size_t fp = size_t(mib[i] * (1 << 20));
      auto order = randomLines(fp, 4096, 7 * r + uint32_t(i));
      uploadChain(buf.ptr, order);
      lat[i]->samples.push_back(chaseCyclesPerLoad<kCacheGlobal, kCacheGlobal>(
          s, buf.ptr, buf.ptr, fp / 4, order[0], 4096));
      auto h = recorded(fp, randomLines(fp, kMaxRecorded, 500 + 7 * r + uint32_t(i)), buf.ptr, fp / 4);
      double nFar = 0, nMiss = 0;
      for (double c : h) {
        if (c >= 0.9 * dramLvl) ++nMiss;
        else if (c > 1.3 * nearLvl) ++nFar;
      }
      far[i]->samples.push_back(nFar / h.size());
      miss[i]->samples.push_back(nMiss / h.size());
      nearEnd5.add(mib[i], (nFar + nMiss) / h.size());
      cap5.add(mib[i], nMiss / h.size());
    }
    nearEnd.samples.push_back(nearEnd5.value());
    capacity.samples.push_back(cap5.value());
  }
}

}  // namespace probe
