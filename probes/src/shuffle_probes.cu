// Warp exchange through shuffles against shared memory (seed 002, Pasternak
// 2022, sec. 4.2.4: "one instruction versus three ... write, sync, and
// read"). The measured operation is the tail of a tree reduction: a sum of
// the 32 values of one warp, done three ways.
#include "probe.h"
#include "sm_rate.cuh"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace probe {

enum ExchangeMethod : int { kShfl, kSharedSyncwarp, kSharedVolatile, kExchangeMethodCount };
const char* const kExchangeNames[kExchangeMethodCount] = {"shfl", "shared_syncwarp", "shared_volatile"};
const char* const kExchangeText[kExchangeMethodCount] = {
    "v += __shfl_down_sync(full, v, off) for off = 16, 8, 4, 2, 1 (5 steps)",
    "s[lane] = v; __syncwarp(); then for off = 16..1: v += s[lane + off]; __syncwarp(); s[lane] = v; "
    "__syncwarp() (the CUDA 9 warp-synchronous form: 6 stores, 5 loads, 11 __syncwarp)",
    "volatile s: s[lane] = v; then for off = 16..1: s[lane] = v = v + s[lane + off], no synchronization (the "
    "pre-Volta warp-synchronous idiom of the CUDA samples: 6 stores, 5 loads)"};

// Each warp owns 64 floats of shared memory: its 32 values and 32 of zero
// padding, so every lane can read s[lane + off] (as the legacy code did).
constexpr int kSlot = 64;

// One warp-wide sum; lane 0 ends with the total of the 32 inputs.
template <int M>
__device__ __forceinline__ float warpSum(float v, float* s, int lane) {
  if constexpr (M == kShfl) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  } else if constexpr (M == kSharedSyncwarp) {
    s[lane] = v;
    __syncwarp();
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      v += s[lane + off];
      __syncwarp();
      s[lane] = v;
      __syncwarp();
    }
  } else {
    volatile float* vs = s;
    vs[lane] = v;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) vs[lane] = v = v + vs[lane + off];
  }
  return v;
}

constexpr int kReductionsPerIteration = 4;

// Timed loop: each reduction's inputs are the previous one's per-lane
// results (v = r / 32 + lane, one FFMA), so the reductions form one
// dependent chain a warp that the compiler can neither fold nor overlap.
template <int M>
__global__ void __launch_bounds__(1024, 2)
    warpExchangeKernel(uint32_t iters, BlockClock* clocks, float* sink) {
  __shared__ float slots[32 * kSlot];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float* s = slots + warp * kSlot;
  s[lane] = 0.0f;
  s[lane + 32] = 0.0f;
  float v = float(lane);
  __syncthreads();
  unsigned long long t0 = clock64();
#pragma unroll 1
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kReductionsPerIteration; ++u) v = fmaf(warpSum<M>(v, s, lane), 0.03125f, float(lane));
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  recordBlockClock(clocks, t0, t1);
  if (v == 1234.5f) sink[threadIdx.x] = v;
}

// One reduction of known values by one warp, for the correctness check.
template <int M>
__global__ void warpExchangeCheckKernel(float* result) {
  __shared__ float s[kSlot];
  const int lane = threadIdx.x;
  s[lane + 32] = 0.0f;
  __syncwarp();
  float r = warpSum<M>(float(lane * 7 + 3), s, lane);
  if (lane == 0) *result = r;
}

namespace {

template <int M>
double exchangeRate(int blocks, int tpb, uint32_t iters, float* sink) {
  return launchPerSmRate(blocks, double(iters) * kReductionsPerIteration / 32.0, [&](BlockClock* c) {
    warpExchangeKernel<M><<<blocks, tpb>>>(iters, c, sink);
  });
}

double exchangeRateOf(int m, int blocks, int tpb, uint32_t iters, float* sink) {
  switch (m) {
    case kShfl: return exchangeRate<kShfl>(blocks, tpb, iters, sink);
    case kSharedSyncwarp: return exchangeRate<kSharedSyncwarp>(blocks, tpb, iters, sink);
    default: return exchangeRate<kSharedVolatile>(blocks, tpb, iters, sink);
  }
}

float checkedSum(int m, float* d) {
  if (m == kShfl) warpExchangeCheckKernel<kShfl><<<1, 32>>>(d);
  else if (m == kSharedSyncwarp) warpExchangeCheckKernel<kSharedSyncwarp><<<1, 32>>>(d);
  else warpExchangeCheckKernel<kSharedVolatile><<<1, 32>>>(d);
  checkLaunch("warp exchange check");
  float r = 0;
  PROBE_CHECK(cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));
  return r;
}

// Opcode counts inside each method's timed loop (the span of the last
// backward branch of warpExchangeKernel<M>), read from `cuobjdump -sass` of
// the running executable. Empty where cuobjdump is missing.
std::map<int, std::map<std::string, int>> readExchangeLoops() {
  char exe[4096] = {0};
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return {};
  std::string cmd = "PATH=\"$PATH:/usr/local/cuda/bin\" cuobjdump -sass '" + std::string(exe, size_t(len)) +
                    "' 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {};
  std::string text;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  pclose(p);

  struct Inst {
    long addr;
    std::string op, target;
  };
  std::map<int, std::vector<Inst>> fns;
  std::map<int, std::map<std::string, long>> labels;
  std::vector<Inst>* cur = nullptr;
  int method = -1;
  long lastAddr = -16;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto f = line.find("Function : ");
    if (f != std::string::npos) {
      cur = nullptr;
      auto k = line.find("warpExchangeKernelILi", f);
      if (k != std::string::npos) {
        method = std::atoi(line.c_str() + k + 21);
        cur = &fns[method];
        lastAddr = -16;
      }
      continue;
    }
    if (!cur) continue;
    auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 4, ".L_x") == 0) {
      auto colon = line.find(':', first);
      if (colon != std::string::npos) labels[method][line.substr(first, colon - first)] = lastAddr + 16;
      continue;
    }
    auto a = line.find("/*"), e = a == std::string::npos ? a : line.find("*/", a);
    if (e == std::string::npos || e <= a + 2 || line.find_first_not_of("0123456789abcdef", a + 2) != e) continue;
    long addr = std::strtol(line.substr(a + 2, e - a - 2).c_str(), nullptr, 16);
    std::istringstream toks(line.substr(e + 2));
    std::string op;
    toks >> op;
    if (!op.empty() && op[0] == '@') toks >> op;
    if (op.empty() || !std::isupper(static_cast<unsigned char>(op[0]))) continue;
    while (!op.empty() && op.back() == ';') op.pop_back();
    Inst inst{addr, op, ""};
    if (op == "BRA") toks >> inst.target;
    lastAddr = addr;
    cur->push_back(inst);
  }
  std::map<int, std::map<std::string, int>> loops;
  for (auto& [m, insts] : fns) {
    long from = -1, to = -1;
    for (const auto& i : insts) {
      if (i.op != "BRA" || i.target.empty()) continue;
      long t = -1;
      if (i.target.rfind("0x", 0) == 0) {
        t = std::strtol(i.target.c_str(), nullptr, 16);
      } else {
        auto b = i.target.find(".L_x"), e = i.target.find(')');
        if (b != std::string::npos) {
          auto it = labels[m].find(i.target.substr(b, e == std::string::npos ? std::string::npos : e - b));
          if (it != labels[m].end()) t = it->second;
        }
      }
      if (t >= 0 && t < i.addr) from = t, to = i.addr;
    }
    if (from < 0) continue;
    for (const auto& i : insts)
      if (i.addr >= from && i.addr <= to) ++loops[m][i.op];
  }
  return loops;
}

int countPrefix(const std::map<std::string, int>& ops, const std::string& prefix) {
  int c = 0;
  for (const auto& [op, n] : ops)
    if (op.rfind(prefix, 0) == 0) c += n;
  return c;
}

}  // namespace

void runWarpExchangeShuffleVsShared(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  DeviceBuffer<float> sink(1024);
  DeviceBuffer<float> result(1);

  // Correctness: each method's lane 0 must hold sum(7 l + 3) = 3568.
  std::string checks = "{";
  bool allCorrect = true;
  for (int m = 0; m < kExchangeMethodCount; ++m) {
    const float r = checkedSum(m, result.ptr);
    allCorrect = allCorrect && r == 3568.0f;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s\"%s\": %.1f", m ? ", " : "", kExchangeNames[m], r);
    checks += buf;
  }
  out.derive("check_sums", checks + "}");
  out.derive("check_sums_correct", allCorrect ? "true" : "false");

  // The machine code of each timed loop: the reductions must be there, 4 an
  // iteration (20 SHFL for shfl; 20 LDS and 24 STS for the shared forms).
  const auto loops = readExchangeLoops();
  std::string table = "{";
  bool asExpected = loops.size() == size_t(kExchangeMethodCount);
  for (const auto& [m, ops] : loops) {
    std::string all;
    for (const auto& [op, n] : ops) all += std::string(all.empty() ? "" : ", ") + "\"" + op + "\": " + std::to_string(n);
    const int shfl = countPrefix(ops, "SHFL"), lds = countPrefix(ops, "LDS"), sts = countPrefix(ops, "STS");
    bool ok = m == kShfl ? shfl == 5 * kReductionsPerIteration && lds == 0 && sts == 0
                         : shfl == 0 && lds == 5 * kReductionsPerIteration && sts == 6 * kReductionsPerIteration;
    asExpected = asExpected && ok;
    if (m >= 0 && m < kExchangeMethodCount)
      table += std::string(table.size() > 1 ? ", " : "") + "\"" + kExchangeNames[m] + "\": {\"shfl\": " +
               std::to_string(shfl) + ", \"lds\": " + std::to_string(lds) + ", \"sts\": " + std::to_string(sts) +
               ", \"as_expected\": " + (ok ? "true" : "false") + ", \"loop_opcodes\": {" + all + "}}";
  }
  if (!loops.empty()) out.derive("sass_loops", table + "}");
  out.derive("sass_read_back", loops.empty() ? "false" : "true");
  out.derive("sass_as_expected", asExpected ? "true" : "false");

  const uint32_t throughputIters = 256, latencyIters = 1024;
  const std::string chain = "; 4 reductions an iteration (#pragma unroll 1 around them), each reduction's input "
                            "the previous one's per-lane result through one FFMA (v = r / 32 + lane), so the "
                            "loop cannot be folded (SASS of the loop read back: derived sass_loops)";
  std::vector<double> tputMed, latMed;
  for (int m = 0; m < kExchangeMethodCount; ++m) {
    auto& tput = out.add(
        "cycles_per_reduction", {str("method", kExchangeNames[m])}, "cycles",
        std::string("warp sum of 32 floats: ") + kExchangeText[m] +
            "; 64 warps an SM (2 blocks of 1024 threads), each warp " +
            std::to_string(throughputIters * kReductionsPerIteration) +
            " reductions; clock64 cycles of an SM's span over the warp reductions it completed, median over SMs "
            "(the SM time one warp's reduction costs at full occupancy)" + chain);
    for (int r = 0; r < ctx.runs; ++r)
      tput.samples.push_back(1.0 / exchangeRateOf(m, sms * 2, 1024, throughputIters, sink.ptr));
    auto& lat = out.add("latency_cycles", {str("method", kExchangeNames[m])}, "cycles",
                        std::string("warp sum of 32 floats: ") + kExchangeText[m] + "; one warp alone (1 block of "
                            "32 threads), " + std::to_string(latencyIters * kReductionsPerIteration) +
                            " dependent reductions; clock64 cycles over them per reduction, including the one "
                            "FFMA that links consecutive reductions" + chain);
    for (int r = 0; r < ctx.runs; ++r)
      lat.samples.push_back(1.0 / exchangeRateOf(m, 1, 32, latencyIters, sink.ptr));
    tputMed.push_back(median(tput.samples));
    latMed.push_back(median(lat.samples));
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "{\"cycles_per_reduction\": {\"shared_syncwarp\": %.3f, \"shared_volatile\": %.3f}, "
                "\"latency_cycles\": {\"shared_syncwarp\": %.3f, \"shared_volatile\": %.3f}}",
                tputMed[kSharedSyncwarp] / tputMed[kShfl], tputMed[kSharedVolatile] / tputMed[kShfl],
                latMed[kSharedSyncwarp] / latMed[kShfl], latMed[kSharedVolatile] / latMed[kShfl]);
  out.derive("ratio_to_shfl", buf);
  out.notes.push_back("ratio_to_shfl: each shared-memory form's median over the shuffle form's (above 1: the "
                      "shuffle is faster)");
  if (!loops.empty() && !asExpected)
    out.notes.push_back("some timed loop does not hold the expected exchange instructions (derived sass_loops)");
  if (loops.empty())
    out.notes.push_back("cuobjdump was not found: the timed loops' machine code was not read back");
  if (!allCorrect) throw std::runtime_error("warp exchange: a method's sum is wrong (derived check_sums)");
}

}  // namespace probe
