// Cache geometry by fine-grained pointer chase (seed 001 sec. 3.2): L1
// capacity under the carve-out, line size and sector size. TLB reach is in
// tlb_probe.cu.
#include "chase.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace probe {

namespace {

template <int P, int WP>
std::vector<uint16_t> recordedChase(ChaseScratch& s, DeviceBuffer<uint16_t>& lat,
                                    const uint32_t* chain, const uint32_t* warm, size_t warmWords,
                                    uint32_t start, uint32_t steps) {
  recordedChaseKernel<P, WP><<<1, 1024>>>(chain, warm, warmWords, start, 0, steps, lat.ptr,
                                          s.sink.ptr);
  checkLaunch("recordedChaseKernel");
  std::vector<uint16_t> h(steps);
  PROBE_CHECK(cudaMemcpy(h.data(), lat.ptr, steps * 2, cudaMemcpyDeviceToHost));
  return h;
}

double medianOf(const std::vector<uint16_t>& v) {
  return median(std::vector<double>(v.begin(), v.end()));
}

}  // namespace

void runL1Geometry(Context& ctx, ProbeOutput& out) {
  ChaseScratch s;
  DeviceBuffer<uint16_t> lat(kMaxRecorded);
  // Which lines survive near the capacity also depends on the allocation;
  // run r chases in allocation r mod 4.
  const Placements<uint32_t> bufs(256 * 1024 / 4);
  PROBE_CHECK(cudaFuncSetAttribute(recordedChaseKernel<kCacheAll, kCacheAll>,
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  std::vector<int> kib = {64};
  for (int k = 128; k <= 256; k += 8) kib.push_back(k);
  std::vector<Value*> miss;
  for (int k : kib)
    miss.push_back(&out.add("miss_fraction", {num("footprint_kib", k)}, "fraction",
                            "recorded ld.global.ca chase, 128-byte stride, eight warmed laps a run, run r in allocation r mod 4; "
                            "share of accesses over the hit/miss threshold"));
  auto& hitV = out.add("recorded_hit_latency_cycles", {}, "cycles",
                       "median recorded latency, 64 KiB footprint, ld.global.ca (includes the "
                       "shared-memory store of the recording)");
  auto& l2V = out.add("recorded_l2_latency_cycles", {}, "cycles",
                      "median recorded latency, 64 KiB footprint, ld.global.cg");
  auto& cap = out.add("l1_capacity_kib", {num("static_shared_bytes", 2 * 2 * kMaxRecorded)}, "KiB",
                      "per run: largest footprint whose recorded laps miss on at most 2% of "
                      "accesses, all smaller footprints too; preferred carve-out 0");
  for (int r = 0; r < ctx.runs; ++r) {
    DeviceBuffer<uint32_t>& buf = bufs.at(r);
    uploadChain(buf.ptr, sequentialOrder(64 * 1024, 128));
    double hit = medianOf(recordedChase<kCacheAll, kCacheAll>(s, lat, buf.ptr, buf.ptr,
                                                               64 * 256, 0, 512));
    double l2 = medianOf(recordedChase<kCacheGlobal, kCacheGlobal>(s, lat, buf.ptr, buf.ptr,
                                                                    64 * 256, 0, 512));
    hitV.samples.push_back(hit);
    l2V.samples.push_back(l2);
    const double threshold = 0.5 * (hit + l2);
    double capacity = 0;
    bool clean = true;
    for (size_t i = 0; i < kib.size(); ++i) {
      size_t fp = size_t(kib[i]) * 1024;
      uploadChain(buf.ptr, sequentialOrder(fp, 128));
      // Near the capacity which lines survive a lap varies; eight recorded laps
      // (eight launches, each warmed) a run steady the share.
      double misses = 0, recorded = 0;
      for (int lapRun = 0; lapRun < 8; ++lapRun) {
        auto rec = recordedChase<kCacheAll, kCacheAll>(s, lat, buf.ptr, buf.ptr, fp / 4, 0,
                                                       uint32_t(fp / 128));
        misses += double(std::count_if(rec.begin(), rec.end(),
                                       [&](uint16_t c) { return c > threshold; }));
        recorded += double(rec.size());
      }
      double frac = misses / recorded;
      miss[i]->samples.push_back(frac);
      if (clean && frac <= 0.02) capacity = kib[i];
      else clean = false;
    }
    cap.samples.push_back(capacity);
  }
}

// L1 line size from capacity against stride (no recording, so no shared
// memory): with allocation per line of L bytes, the footprint that fits is
// C for strides up to L and C * s / L beyond, so the line is the largest
// stride whose capacity still equals the 32-byte-stride capacity.
void runL1LineSize(Context& ctx, ProbeOutput& out) {
  ChaseScratch s;
  DeviceBuffer<uint32_t> buf(1024 * 1024 / 4);
  DeviceBuffer<unsigned long long> cyc(1);
  PROBE_CHECK(cudaFuncSetAttribute(chaseKernel<kCacheAll, kCacheAll>,
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  const std::vector<int> strides = {32, 64, 128, 256};
  std::vector<Value*> caps;
  for (int st : strides)
    caps.push_back(&out.add("l1_capacity_kib", {num("stride_bytes", st)}, "KiB",
                            "per run: largest footprint (8 KiB steps) whose sequential ld.global.ca "
                            "chase at this stride stays under 1.1 x the L1-hit latency"));
  auto& line = out.add("l1_line_bytes", {}, "bytes",
                       "per run: largest stride whose capacity is within 5% of the 32-byte-stride capacity");
  for (int r = 0; r < ctx.runs; ++r) {
    std::vector<double> cap;
    for (size_t i = 0; i < strides.size(); ++i) {
      double hit = 0, best = 0;
      for (int kib = 16; kib <= 1024; kib += (kib < 128 ? 112 : 8)) {
        size_t fp = size_t(kib) * 1024;
        uploadChain(buf.ptr, sequentialOrder(fp, strides[i]));
        uint32_t steps = uint32_t(fp / strides[i]);
        // No block warm-up (it would touch every line): one untimed lap instead.
        chaseKernel<kCacheAll, kCacheAll><<<1, 1024>>>(buf.ptr, buf.ptr, 0, 0, steps, steps,
                                                       s.cycles.ptr, s.sink.ptr);
        checkLaunch("chaseKernel");
        double c = s.read() / steps;
        if (kib == 16) hit = c;
        if (c > 1.1 * hit) break;
        best = kib;
      }
      cap.push_back(best);
      caps[i]->samples.push_back(best);
    }
    double lineBytes = strides[0];
    for (size_t i = 1; i < strides.size(); ++i)
      if (std::fabs(cap[i] - cap[0]) <= 0.05 * cap[0]) lineBytes = strides[i];
    line.samples.push_back(lineBytes);
  }
}

void runSectorSize(Context& ctx, ProbeOutput& out) {
  ChaseScratch s;
  DeviceBuffer<uint16_t> lat(kMaxRecorded);
  // Each run walks a fresh region so no earlier run left it in a cache.
  const size_t regionBytes = 64 * 1024;
  DeviceBuffer<uint32_t> buf(regionBytes * (ctx.runs + 1) / 4);
  auto& l1 = out.add("l1_fetch_granularity_bytes", {}, "bytes",
                     "ld.global.ca chase at a 4-byte stride over 1 KiB held in L2 (warmed with "
                     "ld.global.cg), every access recorded; bytes walked / L1 misses");
  auto countMisses = [](const std::vector<uint16_t>& rec) {
    uint16_t lo = *std::min_element(rec.begin(), rec.end());
    uint16_t hi = *std::max_element(rec.begin(), rec.end());
    if (hi < 1.5 * lo) return 0.0;  // no level change: nothing missed
    double threshold = 0.5 * (double(lo) + double(hi));
    return double(std::count_if(rec.begin(), rec.end(), [&](uint16_t c) { return c > threshold; }));
  };
  for (int r = 0; r < ctx.runs; ++r) {
    uint32_t* region = buf.ptr + size_t(r) * regionBytes / 4;
    // L1: 1 KiB, warm region = the same KiB through L2 only.
    uploadChain(region, sequentialOrder(1024, 4));
    auto rec1 = recordedChase<kCacheAll, kCacheGlobal>(s, lat, region, region, 256, 0, 256);
    double m1 = countMisses(rec1);
    l1.samples.push_back(m1 > 0 ? 1024.0 / m1 : 0);
  }
}

}  // namespace probe
