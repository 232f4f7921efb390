// Warp-level probes (seed 000 sec. 4-6, seed 003 sec. 4): broadcast vs
// parallel access, access constraints, bank conflicts, constant-memory
// serialization, and throughput against warps per SM.
#include "probe.h"
#include "sm_rate.cuh"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

namespace probe {

enum Space : int { kShared = 0, kConstant = 1, kGlobal = 2, kReadOnly = 3 };
static const char* kSpaceNames[] = {"shared", "constant", "global", "readonly"};

constexpr uint32_t kIdentityWords = 2048;
__constant__ uint32_t cIdentity[kIdentityWords];

template <int S>
__device__ __forceinline__ uint32_t warpLoad(const uint32_t* smem, const uint32_t* g, uint32_t i) {
  uint32_t v;
  if constexpr (S == kShared) {
    v = smem[i];
  } else if constexpr (S == kConstant) {
    v = cIdentity[i];
  } else if constexpr (S == kGlobal) {
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(g + i));
  } else {
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(g + i));
  }
  return v;
}

// Seed 000's warp benchmark: p = a[q]; q = a[p] on an identity array, so each
// lane keeps reading its own element; cycles per load, per lane.
template <int S>
__global__ void warpChaseKernel(const uint32_t* identity, const uint32_t* laneIndex, uint32_t iters,
                                unsigned long long* cycles, uint32_t* sink) {
  __shared__ uint32_t smem[kIdentityWords];
  for (uint32_t i = threadIdx.x; i < kIdentityWords; i += blockDim.x) smem[i] = identity[i];
  __syncthreads();
  uint32_t q = laneIndex[threadIdx.x], p = 0;
  for (int i = 0; i < 8; ++i) {  // warm-up in the timed launch
    p = warpLoad<S>(smem, identity, q);
    q = warpLoad<S>(smem, identity, p);
  }
  __syncwarp();
  unsigned long long t0 = clock64();
  for (uint32_t i = 0; i < iters; ++i) {
    p = warpLoad<S>(smem, identity, q);
    q = warpLoad<S>(smem, identity, p);
  }
  unsigned long long t1 = clock64();
  cycles[threadIdx.x] = t1 - t0;
  sink[threadIdx.x] = p + q;
}

namespace {

struct WarpRig {
  DeviceBuffer<uint32_t> identity{kIdentityWords};
  DeviceBuffer<uint32_t> lanes{32};
  DeviceBuffer<unsigned long long> cycles{32};
  DeviceBuffer<uint32_t> sink{32};
  WarpRig() {
    std::vector<uint32_t> id(kIdentityWords);
    std::iota(id.begin(), id.end(), 0u);
    PROBE_CHECK(cudaMemcpy(identity.ptr, id.data(), id.size() * 4, cudaMemcpyHostToDevice));
    PROBE_CHECK(cudaMemcpyToSymbol(cIdentity, id.data(), id.size() * 4));
  }
  // Cycles per load of the slowest lane; `threads` lanes run (1 = thread level).
  double run(int space, const std::vector<uint32_t>& laneIndex, int threads = 32) {
    const uint32_t iters = 256;
    PROBE_CHECK(cudaMemcpy(lanes.ptr, laneIndex.data(), 32 * 4, cudaMemcpyHostToDevice));
    switch (space) {
      case kShared: warpChaseKernel<kShared><<<1, threads>>>(identity.ptr, lanes.ptr, iters, cycles.ptr, sink.ptr); break;
      case kConstant: warpChaseKernel<kConstant><<<1, threads>>>(identity.ptr, lanes.ptr, iters, cycles.ptr, sink.ptr); break;
      case kGlobal: warpChaseKernel<kGlobal><<<1, threads>>>(identity.ptr, lanes.ptr, iters, cycles.ptr, sink.ptr); break;
      default: warpChaseKernel<kReadOnly><<<1, threads>>>(identity.ptr, lanes.ptr, iters, cycles.ptr, sink.ptr); break;
    }
    checkLaunch("warpChaseKernel");
    unsigned long long h[32];
    PROBE_CHECK(cudaMemcpy(h, cycles.ptr, sizeof h, cudaMemcpyDeviceToHost));
    return double(*std::max_element(h, h + threads)) / (2.0 * iters);
  }
};

std::vector<uint32_t> lanesBy(uint32_t (*f)(uint32_t, uint32_t), uint32_t arg) {
  std::vector<uint32_t> v(32);
  for (uint32_t l = 0; l < 32; ++l) v[l] = f(l, arg);
  return v;
}

}  // namespace

void runWarpBroadcast(Context& ctx, ProbeOutput& out) {
  WarpRig rig;
  const int ks[] = {1, 2, 4, 8, 16, 32};
  std::string bTable = "{", pTable = "{";
  for (int sp = 0; sp < 4; ++sp) {
    auto& thread = out.add("latency_cycles", {str("space", kSpaceNames[sp]), num("threads", 1)},
                           "cycles", "thread-level latency: one lane, same chase");
    std::vector<Value*> byK;
    for (int k : ks)
      byK.push_back(&out.add("latency_cycles",
                             {str("space", kSpaceNames[sp]), num("lanes_per_element", k)}, "cycles",
                             "one warp; lane l reads element l/k (distinct elements are adjacent words)"));
    for (int r = 0; r < ctx.runs; ++r) {
      thread.samples.push_back(rig.run(sp, lanesBy([](uint32_t l, uint32_t) { return l; }, 0), 1));
      for (size_t i = 0; i < byK.size(); ++i)
        byK[i]->samples.push_back(
            rig.run(sp, lanesBy([](uint32_t l, uint32_t k) { return l / k; }, ks[i])));
    }
    // Seed 000's rules: falling latency as lanes share more -> broadcast only;
    // rising -> parallel only; flat and equal to the thread level -> both.
    double t = median(thread.samples), all = median(byK.front()->samples),
           one = median(byK.back()->samples);
    bool flat = std::fabs(all - one) <= 0.1 * one;
    bool broadcast = flat ? std::fabs(one - t) <= 0.1 * t : all > one;
    bool parallel = flat ? broadcast : all < one;
    bTable += std::string(sp ? ", " : "") + "\"" + kSpaceNames[sp] + "\": " + (broadcast ? "true" : "false");
    pTable += std::string(sp ? ", " : "") + "\"" + kSpaceNames[sp] + "\": " + (parallel ? "true" : "false");
  }
  out.derive("supports_broadcast", bTable + "}");
  out.derive("supports_parallel", pTable + "}");
  out.notes.push_back("rule: |lat(k=1) - lat(k=32)| <= 10% and lat(k=32) within 10% of the "
                      "thread level -> both; lat(k=1) > lat(k=32) -> broadcast only; "
                      "lat(k=1) < lat(k=32) -> parallel only");
}

void runAccessConstraints(Context& ctx, ProbeOutput& out) {
  WarpRig rig;
  std::vector<uint32_t> perm(32);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(12345));
  struct Pattern {
    const char* name;
    std::vector<uint32_t> lanes;
  };
  std::vector<Pattern> pats = {
      {"aligned_consecutive", lanesBy([](uint32_t l, uint32_t) { return l; }, 0)},
      {"permuted_consecutive", perm},
      {"misaligned_consecutive", lanesBy([](uint32_t l, uint32_t) { return l + 1; }, 0)},
      {"non_consecutive", lanesBy([](uint32_t l, uint32_t) { return l * 33; }, 0)},
  };
  std::string derived = "{";
  for (int sp = 0; sp < 4; ++sp) {
    std::vector<double> med;
    for (auto& p : pats) {
      auto& v = out.add("latency_cycles", {str("space", kSpaceNames[sp]), str("pattern", p.name)},
                        "cycles", "one warp, seed 000 chase; lane addresses by pattern (4-byte words)");
      for (int r = 0; r < ctx.runs; ++r) v.samples.push_back(rig.run(sp, p.lanes));
      med.push_back(median(v.samples));
    }
    auto costly = [&](double x) { return x > 1.1 * med[0]; };
    derived += std::string(sp ? ", " : "") + "\"" + kSpaceNames[sp] +
               "\": {\"order_matters\": " + (costly(med[1]) ? "true" : "false") +
               ", \"alignment_matters\": " + (costly(med[2]) ? "true" : "false") +
               ", \"consecutive_matters\": " + (costly(med[3]) ? "true" : "false") + "}";
  }
  out.derive("constraints", derived + "}");
  out.notes.push_back("a constraint matters when its pattern is over 10% slower than aligned_consecutive");
}

void runConstantSerialization(Context& ctx, ProbeOutput& out) {
  WarpRig rig;
  for (const char* layout : {"one_line", "distinct_lines"}) {
    bool lines = std::string(layout) == "distinct_lines";
    for (uint32_t n = 1; n <= 32; ++n) {
      auto& v = out.add("latency_cycles", {num("distinct_addresses", n), str("layout", layout)},
                        "cycles",
                        lines ? "one warp, lane l reads __constant__ word (l mod n) * 32 (one 128-byte line each)"
                              : "one warp, lane l reads __constant__ word (l mod n)");
      std::vector<uint32_t> lanes(32);
      for (uint32_t l = 0; l < 32; ++l) lanes[l] = (l % n) * (lines ? 32 : 1);
      for (int r = 0; r < ctx.runs; ++r) v.samples.push_back(rig.run(kConstant, lanes));
    }
  }
}

// ------------------------------------------------------- throughput

template <int W>
__device__ __forceinline__ uint32_t ldsVolatile(uint32_t addr) {
  // Volatile so repeated loads of one address are all issued.
  if constexpr (W == 4) {
    uint32_t a;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(addr));
    return a;
  } else if constexpr (W == 8) {
    uint32_t a, b;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr));
    return a ^ b;
  } else {
    uint32_t a, b, c, d;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr));
    return a ^ b ^ c ^ d;
  }
}

constexpr int kThroughputSharedBytes = 32 * 1024;

template <int W>
__global__ void sharedThroughputKernel(const uint32_t* laneOffsetBytes, uint32_t iters,
                                       BlockClock* clocks, uint32_t* sink) {
  __shared__ uint4 s[kThroughputSharedBytes / 16];
  for (uint32_t i = threadIdx.x; i < kThroughputSharedBytes / 16; i += blockDim.x)
    s[i] = make_uint4(i, i + 1, i + 2, i + 3);
  uint32_t addr = uint32_t(__cvta_generic_to_shared(s)) + laneOffsetBytes[threadIdx.x & 31];
  uint32_t acc = 0;
  __syncthreads();
  unsigned long long t0 = clock64();
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < 16; ++u) acc += ldsVolatile<W>(addr);
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  if (threadIdx.x == 0) {
    uint32_t smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    clocks[blockIdx.x] = BlockClock{t0, t1, smid, blockDim.x};
  }
  if (acc == 0x9e3779b9u) sink[threadIdx.x] = acc;
}

__global__ void fmaThroughputKernel(float seed, uint32_t iters, BlockClock* clocks, float* sink) {
  float a[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) a[i] = seed + threadIdx.x + i;
  __syncthreads();
  unsigned long long t0 = clock64();
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < 16; ++u) {
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = fmaf(a[i], 0.999f, 0.5f);
    }
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  if (threadIdx.x == 0) {
    uint32_t smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    clocks[blockIdx.x] = BlockClock{t0, t1, smid, blockDim.x};
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) sum += a[i];
  if (sum == 1234.5f) sink[threadIdx.x] = sum;
}

namespace {

template <int W>
double sharedRate(const std::vector<uint32_t>& offsets, int blocks, int threads, uint32_t iters) {
  DeviceBuffer<uint32_t> dOff(32), sink(1024);
  DeviceBuffer<BlockClock> clocks(blocks);
  PROBE_CHECK(cudaMemcpy(dOff.ptr, offsets.data(), 32 * 4, cudaMemcpyHostToDevice));
  sharedThroughputKernel<W><<<blocks, threads>>>(dOff.ptr, iters, clocks.ptr, sink.ptr);
  checkLaunch("sharedThroughputKernel");
  std::vector<BlockClock> h(blocks);
  PROBE_CHECK(cudaMemcpy(h.data(), clocks.ptr, blocks * sizeof(BlockClock), cudaMemcpyDeviceToHost));
  return perSmRate(h, double(iters) * 16 * W);
}

// Word offsets for 4-byte accesses with conflict degree d: lane l reads row
// (l mod d), column l/d of a 32-column table, so d lanes share each bank.
std::vector<uint32_t> degreeOffsets(uint32_t d) {
  std::vector<uint32_t> o(32);
  for (uint32_t l = 0; l < 32; ++l) o[l] = ((l % d) * 32 + l / d) * 4;
  return o;
}

}  // namespace

void runSharedBankConflicts(Context& ctx, ProbeOutput& out) {
  WarpRig rig;
  const int sms = ctx.prop.multiProcessorCount;
  for (uint32_t d = 1; d <= 32; ++d) {
    auto& lat = out.add("latency_cycles", {num("degree", d), num("width_bytes", 4)}, "cycles",
                        "one warp, seed 000 chase; lane l reads word (l mod d)*32 + l/d");
    auto& thr = out.add("throughput_bytes_per_clk_per_sm", {num("degree", d), num("width_bytes", 4)},
                        "B/clk/SM",
                        "1024 threads a block, one block an SM, 16 volatile 4-byte loads an iteration");
    auto offs = degreeOffsets(d);
    std::vector<uint32_t> words(32);
    for (int l = 0; l < 32; ++l) words[l] = offs[l] / 4;
    uint32_t iters = std::max<uint32_t>(8, 128 / d);
    for (int r = 0; r < ctx.runs; ++r) {
      lat.samples.push_back(rig.run(kShared, words));
      thr.samples.push_back(sharedRate<4>(offs, sms, 1024, iters));
    }
  }
  // Wider accesses: lane l reads element l*s of width w; s=1 is conflict-free.
  for (int w : {8, 16}) {
    for (uint32_t s : {1u, 2u, 4u, 8u, 16u, 32u}) {
      auto& thr = out.add("throughput_bytes_per_clk_per_sm",
                          {num("stride_elements", s), num("width_bytes", w)}, "B/clk/SM",
                          "1024 threads a block, one block an SM, 16 volatile vector loads an "
                          "iteration; lane l reads element l*s");
      std::vector<uint32_t> offs(32);
      for (uint32_t l = 0; l < 32; ++l) offs[l] = (l * s * w) % kThroughputSharedBytes;
      for (int r = 0; r < ctx.runs; ++r)
        thr.samples.push_back(w == 8 ? sharedRate<8>(offs, sms, 1024, 64)
                                     : sharedRate<16>(offs, sms, 1024, 32));
    }
  }
}

namespace {
const int kWarpCounts[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64};
}  // namespace

void runSharedThroughputVsWarps(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  auto offs = degreeOffsets(1);
  // A 4-byte warp load with exactly d lanes a bank takes d wavefronts (the
  // layout guarantees it), so wavefronts/clk = bytes/clk * d / 128.
  auto wavefronts = [](const std::vector<double>& bytesPerClk, int d) {
    std::vector<double> w;
    for (double b : bytesPerClk) w.push_back(b * d / 128.0);
    return w;
  };
  const std::string wfMethod = "the same samples as wavefronts: bytes/clk * degree / 128";
  for (int w : kWarpCounts) {
    const auto shape = warpShape(w);
    const int bps = shape.first, tpb = shape.second;
    auto& v = out.add("throughput_bytes_per_clk_per_sm", {num("warps_per_sm", w)}, "B/clk/SM",
                      "conflict-free 4-byte volatile shared loads; " + std::to_string(bps) +
                          " block(s) of " + std::to_string(tpb) + " threads an SM");
    for (int r = 0; r < ctx.runs; ++r) v.samples.push_back(sharedRate<4>(offs, sms * bps, tpb, 64));
    out.add("wavefronts_per_clk_per_sm", {num("degree", 1), num("warps_per_sm", w)},
            "wavefronts/clk/SM", wfMethod).samples = wavefronts(v.samples, 1);
  }
  // The same curve at bank-conflict degrees 2..32 (lane l reads row l mod d,
  // column l/d, as in shared_bank_conflicts).
  for (int d : {2, 4, 8, 32}) {
    auto dOffs = degreeOffsets(uint32_t(d));
    for (int w : {1, 2, 4, 8, 16, 32, 64}) {
      const auto shape = warpShape(w);
      const int bps = shape.first, tpb = shape.second;
      auto& v = out.add("throughput_bytes_per_clk_per_sm", {num("degree", d), num("warps_per_sm", w)},
                        "B/clk/SM",
                        "4-byte volatile shared loads, exactly " + std::to_string(d) +
                            " lanes a bank; " + std::to_string(bps) + " block(s) of " +
                            std::to_string(tpb) + " threads an SM");
      for (int r = 0; r < ctx.runs; ++r)
        v.samples.push_back(sharedRate<4>(dOffs, sms * bps, tpb, uint32_t(std::max(8, 64 / d))));
      out.add("wavefronts_per_clk_per_sm", {num("degree", d), num("warps_per_sm", w)},
              "wavefronts/clk/SM", wfMethod).samples = wavefronts(v.samples, d);
    }
  }
}

void runAluThroughputVsWarps(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  DeviceBuffer<float> sink(1024);
  for (int w : kWarpCounts) {
    const auto shape = warpShape(w);
    const int bps = shape.first, tpb = shape.second;
    int blocks = sms * bps;
    DeviceBuffer<BlockClock> clocks(blocks);
    auto& v = out.add("fma_warp_instructions_per_clk_per_sm", {num("warps_per_sm", w)},
                      "warp-inst/clk/SM", "8 independent FFMA chains a thread, 16x unrolled");
    const uint32_t iters = 64;
    for (int r = 0; r < ctx.runs; ++r) {
      fmaThroughputKernel<<<blocks, tpb>>>(1.0f + r, iters, clocks.ptr, sink.ptr);
      checkLaunch("fmaThroughputKernel");
      std::vector<BlockClock> h(blocks);
      PROBE_CHECK(cudaMemcpy(h.data(), clocks.ptr, blocks * sizeof(BlockClock), cudaMemcpyDeviceToHost));
      // Work per thread in warp instructions: iters*16*8 FMAs / 32 lanes.
      v.samples.push_back(perSmRate(h, double(iters) * 16 * 8 / 32.0));
    }
  }
}

}  // namespace probe
