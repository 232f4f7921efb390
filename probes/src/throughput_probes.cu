// Throughput probes for the kernel cost model (seed 003, Zhang & Owens, sec.
// 4.1 and Fig. 2 left): instruction classes, L1-hit loads and constant-memory
// requests against warps per SM or distinct addresses, as per-SM rates from
// clock64 (sm_rate.cuh).
#include "probe.h"
#include "sm_rate.cuh"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace probe {

// ------------------------------------------------- instruction classes

// Each class is one PTX instruction in inline asm (volatile, so NVVM neither
// folds nor hoists the chains). The probe reads its own SASS back
// (cuobjdump -sass on the running executable) and records the opcode ptxas
// made of each loop body; kInstClasses' `sass` is what was expected and is
// used only where cuobjdump is missing (a note says so).
enum InstClass : int { kFfma, kImad, kIadd, kIadd3, kLop3, kMufu, kDfma, kF2i, kI2f, kInstClassCount };

struct InstClassInfo {
  const char* name;
  const char* sass;  // the opcode(s) expected for the loop body (sm_90, CUDA 13.0)
  const char* ptx;
  // Opcodes that count as this class inside the timed loop; a trailing '*'
  // makes an entry a prefix ("MUFU*" takes MUFU.RSQ).
  std::vector<std::string> accept;
};
// ptxas spreads 2-input integer adds over IMAD.IADD (FMA pipe) and IADD3
// (ALU pipe), so "iadd" is that mix as compiled; "iadd3" has a third operand
// that IMAD cannot take. (First H100 run of this probe, 2026-11-26.)
const InstClassInfo kInstClasses[kInstClassCount] = {
    {"ffma", "FFMA", "fma.rn.f32 a, a, k1, k2", {"FFMA*"}},
    {"imad", "IMAD", "mad.lo.u32 a, a, k1, k2", {"IMAD"}},
    {"iadd", "IMAD.IADD+IADD3", "add.u32 a[i], a[i], a[i+1 mod 8]", {"IMAD.IADD", "IADD3"}},
    {"iadd3", "IADD3", "add.u32 a[i], a[i], a[i+1 mod 8]; add.u32 a[i], a[i], k1", {"IADD3", "IMAD.IADD"}},
    {"lop3", "LOP3.LUT", "xor.b32 a[i], a[i], a[i+1 mod 8]", {"LOP3.LUT"}},
    {"mufu", "MUFU.RSQ", "rsqrt.approx.ftz.f32 a, a", {"MUFU*"}},
    {"dfma", "DFMA", "fma.rn.f64 a, a, k1, k2", {"DFMA*"}},
    {"f2i", "F2I.TRUNC.NTZ", "cvt.rzi.s32.f32 a, a (the int's bits read as a float)", {"F2I*"}},
    {"i2f", "I2FP.F32.S32", "cvt.rn.f32.s32 a, a (the float's bits read as an int)", {"I2F*"}},
};

constexpr int kChains = 8;   // independent chains a thread
constexpr int kUnroll = 32;  // steps of all chains an iteration

template <int C>
struct InstOp;
template <>
struct InstOp<kFfma> {
  using T = float;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t k1, uint32_t k2) {
    float f1 = __uint_as_float(k1), f2 = __uint_as_float(k2);
#pragma unroll
    for (int i = 0; i < kChains; ++i) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(a[i]) : "f"(f1), "f"(f2));
  }
};
template <>
struct InstOp<kImad> {
  using T = uint32_t;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t k1, uint32_t k2) {
#pragma unroll
    for (int i = 0; i < kChains; ++i) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(a[i]) : "r"(k1), "r"(k2));
  }
};
// IADD3 and LOP3: each chain takes its neighbour as the second operand, so no
// chain is a sum of loop invariants the compiler could fold; every step still
// has eight independent instructions.
template <>
struct InstOp<kIadd> {
  using T = uint32_t;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t, uint32_t) {
#pragma unroll
    for (int i = 0; i < kChains; ++i)
      asm volatile("add.u32 %0, %0, %1;" : "+r"(a[i]) : "r"(a[(i + 1) % kChains]));
  }
};
// Two adds in one statement: ptxas folds them into one 3-input IADD3.
template <>
struct InstOp<kIadd3> {
  using T = uint32_t;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t k1, uint32_t) {
#pragma unroll
    for (int i = 0; i < kChains; ++i)
      asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;" : "+r"(a[i]) : "r"(a[(i + 1) % kChains]), "r"(k1));
  }
};
template <>
struct InstOp<kLop3> {
  using T = uint32_t;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t, uint32_t) {
#pragma unroll
    for (int i = 0; i < kChains; ++i)
      asm volatile("xor.b32 %0, %0, %1;" : "+r"(a[i]) : "r"(a[(i + 1) % kChains]));
  }
};
template <>
struct InstOp<kMufu> {
  using T = float;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t, uint32_t) {
#pragma unroll
    for (int i = 0; i < kChains; ++i) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(a[i]));
  }
};
template <>
struct InstOp<kDfma> {
  using T = double;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t k1, uint32_t k2) {
    double d1 = 0.999 + 1e-12 * k1, d2 = 0.5 + 1e-12 * k2;
#pragma unroll
    for (int i = 0; i < kChains; ++i) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(a[i]) : "d"(d1), "d"(d2));
  }
};
// Conversions keep one register per chain: the result's bits are read back
// as the other type (a mov.b32 that ptxas drops), so the chain is F2I only or
// I2F only.
template <>
struct InstOp<kF2i> {
  using T = uint32_t;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t, uint32_t) {
#pragma unroll
    for (int i = 0; i < kChains; ++i)
      asm volatile("{ .reg .f32 t; mov.b32 t, %0; cvt.rzi.s32.f32 %0, t; }" : "+r"(a[i]));
  }
};
template <>
struct InstOp<kI2f> {
  using T = float;
  static __device__ __forceinline__ void step(T (&a)[kChains], uint32_t, uint32_t) {
#pragma unroll
    for (int i = 0; i < kChains; ++i)
      asm volatile("{ .reg .s32 t; mov.b32 t, %0; cvt.rn.f32.s32 %0, t; }" : "+f"(a[i]));
  }
};

template <typename T>
__device__ __forceinline__ T initialValue(uint32_t tid, int i) {
  return T(1 + ((tid + uint32_t(i)) & 7));
}

// 2 blocks of 1024 threads an SM for 64 warps: 32 registers a thread at most.
template <int C>
__global__ void __launch_bounds__(1024, 2)
    instThroughputKernel(uint32_t iters, uint32_t k1, uint32_t k2, BlockClock* clocks, uint32_t* sink) {
  using Op = InstOp<C>;
  typename Op::T a[kChains];
#pragma unroll
  for (int i = 0; i < kChains; ++i) a[i] = initialValue<typename Op::T>(threadIdx.x, i);
  __syncthreads();
  unsigned long long t0 = clock64();
#pragma unroll 1
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) Op::step(a, k1, k2);
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  recordBlockClock(clocks, t0, t1);
  typename Op::T s = a[0];
#pragma unroll
  for (int i = 1; i < kChains; ++i) s += a[i];
  if (s == typename Op::T(12345)) sink[threadIdx.x] = 1;
}

namespace {

// Work a thread: iters * perIteration instructions = that / 32 warp instructions.
template <int C>
double instRate(int blocks, int tpb, uint32_t iters, double perIteration, uint32_t* sink) {
  return launchPerSmRate(blocks, double(iters) * perIteration / 32.0, [&](BlockClock* c) {
    instThroughputKernel<C><<<blocks, tpb>>>(iters, 0x3f7fbe77u /* 0.999f */, 0x3f000000u /* 0.5f */, c, sink);
  });
}

double instRateOf(int cls, int blocks, int tpb, uint32_t iters, double perIteration, uint32_t* sink) {
  switch (cls) {
    case kFfma: return instRate<kFfma>(blocks, tpb, iters, perIteration, sink);
    case kImad: return instRate<kImad>(blocks, tpb, iters, perIteration, sink);
    case kIadd: return instRate<kIadd>(blocks, tpb, iters, perIteration, sink);
    case kIadd3: return instRate<kIadd3>(blocks, tpb, iters, perIteration, sink);
    case kLop3: return instRate<kLop3>(blocks, tpb, iters, perIteration, sink);
    case kMufu: return instRate<kMufu>(blocks, tpb, iters, perIteration, sink);
    case kDfma: return instRate<kDfma>(blocks, tpb, iters, perIteration, sink);
    case kF2i: return instRate<kF2i>(blocks, tpb, iters, perIteration, sink);
    default: return instRate<kI2f>(blocks, tpb, iters, perIteration, sink);
  }
}

const int kWarpSeries[] = {1, 2, 4, 8, 16, 32, 64};

// The opcodes inside the timed loop of instThroughputKernel<C> with their
// counts (kUnroll * kChains = 256 of the class when every step is one
// instruction), and the loop's length.
struct SassLoop {
  std::map<std::string, int> counts;
  int loopInstructions = 0;
};

// Parses `cuobjdump -sass` text: per function an instruction list of
// (address, opcode, branch target); the loop is the span of the last backward
// BRA. Branch targets are either hex addresses or `(.L_x_N) labels.
std::map<int, SassLoop> parseInstLoops(const std::string& sass) {
  struct Inst {
    long addr;
    std::string op, target;
  };
  std::map<int, std::vector<Inst>> fns;
  std::map<int, std::map<std::string, long>> labels;
  std::vector<Inst>* cur = nullptr;
  int curClass = -1;
  long lastAddr = -16;
  std::istringstream in(sass);
  for (std::string line; std::getline(in, line);) {
    auto f = line.find("Function : ");
    if (f != std::string::npos) {
      cur = nullptr;
      auto k = line.find("instThroughputKernelILi", f);
      if (k != std::string::npos) {
        curClass = std::atoi(line.c_str() + k + 23);
        cur = &fns[curClass];
        lastAddr = -16;
      }
      continue;
    }
    if (!cur) continue;
    auto firstNon = line.find_first_not_of(" \t");
    if (firstNon != std::string::npos && line.compare(firstNon, 4, ".L_x") == 0) {
      auto colon = line.find(':', firstNon);
      if (colon != std::string::npos) labels[curClass][line.substr(firstNon, colon - firstNon)] = lastAddr + 16;
      continue;
    }
    // An instruction line: /*0a30*/ [@P0] OPCODE operands ; /* encoding */
    auto a = line.find("/*"), e = a == std::string::npos ? a : line.find("*/", a);
    if (e == std::string::npos || e <= a + 2 ||
        line.find_first_not_of("0123456789abcdef", a + 2) != e)
      continue;
    long addr = std::strtol(line.substr(a + 2, e - a - 2).c_str(), nullptr, 16);
    std::istringstream toks(line.substr(e + 2));
    std::string op;
    toks >> op;
    if (!op.empty() && op[0] == '@') toks >> op;  // predicate
    if (op.empty() || !std::isupper(static_cast<unsigned char>(op[0]))) continue;
    while (!op.empty() && op.back() == ';') op.pop_back();
    Inst inst{addr, op, ""};
    if (op == "BRA") toks >> inst.target;
    lastAddr = addr;
    cur->push_back(inst);
  }
  std::map<int, SassLoop> out;
  for (auto& [cls, insts] : fns) {
    long from = -1, to = -1;
    for (const auto& i : insts) {
      if (i.op != "BRA" || i.target.empty()) continue;
      long t = -1;
      if (i.target.rfind("0x", 0) == 0) {
        t = std::strtol(i.target.c_str(), nullptr, 16);
      } else {
        auto b = i.target.find(".L_x"), e = i.target.find(')');
        if (b != std::string::npos) {
          auto it = labels[cls].find(i.target.substr(b, e == std::string::npos ? std::string::npos : e - b));
          if (it != labels[cls].end()) t = it->second;
        }
      }
      if (t >= 0 && t < i.addr) from = t, to = i.addr;
    }
    if (from < 0) continue;
    SassLoop loop;
    for (const auto& i : insts)
      if (i.addr >= from && i.addr <= to) ++loop.counts[i.op], ++loop.loopInstructions;
    out[cls] = loop;
  }
  return out;
}

std::map<int, SassLoop> readInstLoops() {
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
  return parseInstLoops(text);
}

}  // namespace

void runInstThroughputVsWarps(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  DeviceBuffer<uint32_t> sink(1024);
  const auto loops = readInstLoops();
  std::string table = "{";
  bool allAsIntended = !loops.empty();
  for (int cls = 0; cls < kInstClassCount; ++cls) {
    const auto& info = kInstClasses[cls];
    auto found = loops.find(cls);
    std::string sass = info.sass;
    double perIteration = kUnroll * kChains;
    if (found != loops.end()) {
      // The class's instructions in the loop, most frequent opcode first.
      std::vector<std::pair<int, std::string>> mine;
      std::string all;
      for (const auto& [op, c] : found->second.counts) {
        all += std::string(all.empty() ? "" : ", ") + "\"" + op + "\": " + std::to_string(c);
        for (const auto& a : info.accept)
          if (a.back() == '*' ? op.rfind(a.substr(0, a.size() - 1), 0) == 0 : op == a) {
            mine.push_back({-c, op});
            break;
          }
      }
      std::sort(mine.begin(), mine.end());
      int count = 0;
      sass.clear();
      for (const auto& [negCount, op] : mine) {
        count -= negCount;
        sass += (sass.empty() ? "" : "+") + op;
      }
      if (count > 0) perIteration = count;
      else sass = info.sass;
      auto opSet = [](const std::string& joined) {
        std::vector<std::string> ops;
        std::stringstream ss(joined);
        for (std::string op; std::getline(ss, op, '+');) ops.push_back(op);
        std::sort(ops.begin(), ops.end());
        return ops;
      };
      bool ok = opSet(sass) == opSet(info.sass) && count == kUnroll * kChains;
      allAsIntended = allAsIntended && ok;
      table += std::string(cls ? ", " : "") + "\"" + info.name + "\": {\"sass\": \"" + sass +
               "\", \"per_iteration\": " + std::to_string(count) +
               ", \"loop_instructions\": " + std::to_string(found->second.loopInstructions) +
               ", \"expected_sass\": \"" + info.sass + "\", \"as_expected\": " + (ok ? "true" : "false") +
               ", \"loop_opcodes\": {" + all + "}}";
    }
    for (int w : kWarpSeries) {
      const auto shape = warpShape(w);
      const int bps = shape.first, tpb = shape.second;
      auto& v = out.add("warp_instructions_per_clk_per_sm",
                        {str("class", info.name), str("sass", sass), num("warps_per_sm", w)},
                        "warp-inst/clk/SM",
                        std::string("8 independent chains a thread of `") + info.ptx + "` (-> " +
                            sass + "), 32 steps an iteration, 64 iterations; " +
                            std::to_string(bps) + " block(s) of " + std::to_string(tpb) +
                            " threads an SM");
      for (int r = 0; r < ctx.runs; ++r)
        v.samples.push_back(instRateOf(cls, sms * bps, tpb, 64, perIteration, sink.ptr));
    }
  }
  if (!loops.empty()) out.derive("sass_loops", table + "}");
  out.derive("sass_read_back", loops.empty() ? "false" : "true");
  out.derive("sass_as_expected", allAsIntended ? "true" : "false");
  out.notes.push_back("a rate counts the class's instructions in the timed loop as read back "
                      "(derived sass_loops: per_iteration, 256 = 8 chains x 32 steps when every step "
                      "is one instruction; 256 where nothing was read back); the loop's counter, "
                      "compare and branch are not counted");
  out.notes.push_back(loops.empty()
                          ? "cuobjdump was not found: the sass params are the opcodes expected at build "
                            "time, not read back"
                          : "sass params: the most frequent opcode inside each timed loop, read back "
                            "with cuobjdump -sass from the running executable (derived sass_loops)");
}

// ------------------------------------------------------- L1-hit loads

// Warp slot s = warp mod 8 of a block reads 8 warp-wide loads of W bytes a
// lane (lane l at l*W), 32*W bytes apart, starting one step further on every
// odd iteration: the address changes each iteration, so ptxas cannot hoist
// the loads out of the loop (it did when they were loop-invariant: the first
// H100 run timed the XORs alone). A block's footprint is 8 slots x 9 steps x
// 32 lanes x W (36 KiB for float4, 9 KiB for 4-byte words), two blocks an SM
// at most, well inside L1 with the carve-out at 0.
template <int W>
__device__ __forceinline__ uint32_t ldCa(const char* p) {
  if constexpr (W == 16) {
    uint32_t a, b, c, d;
    asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
    return a ^ b ^ c ^ d;  // every word used, or ptxas narrows the load to 4 bytes
  } else {
    uint32_t a;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(a) : "l"(p));
    return a;
  }
}

constexpr int kL1Steps = 8, kL1Slots = 8;

template <int W>
__global__ void __launch_bounds__(1024, 2)
    l1LoadKernel(const char* buf, uint32_t iters, uint32_t oddShift, BlockClock* clocks, uint32_t* sink) {
  constexpr uint32_t slotBytes = (kL1Steps + 1) * 32 * W, blockBytes = kL1Slots * slotBytes;
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const char* p = buf + size_t(blockIdx.x) * blockBytes + (warp % kL1Slots) * slotBytes + lane * W;
  uint32_t acc = 0;
#pragma unroll
  for (int u = 0; u <= kL1Steps; ++u) acc ^= ldCa<W>(p + u * 32 * W);  // warm: L2 -> L1
  __syncthreads();
  unsigned long long t0 = clock64();
#pragma unroll 1
  for (uint32_t it = 0; it < iters; ++it) {
    const char* q = p + (it & 1) * oddShift;  // oddShift = 32 * W, a kernel argument
#pragma unroll
    for (int u = 0; u < kL1Steps; ++u) acc ^= ldCa<W>(q + u * 32 * W);
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  recordBlockClock(clocks, t0, t1);
  if (acc == 0x9e3779b9u) sink[threadIdx.x] = acc;
}

void runL1Bandwidth(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  PROBE_CHECK(cudaFuncSetAttribute(l1LoadKernel<16>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  PROBE_CHECK(cudaFuncSetAttribute(l1LoadKernel<4>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  DeviceBuffer<char> buf(size_t(sms) * 2 * kL1Slots * (kL1Steps + 1) * 32 * 16);
  PROBE_CHECK(cudaMemset(buf.ptr, 1, buf.bytes()));
  DeviceBuffer<uint32_t> sink(1024);
  const uint32_t iters = 256;
  for (int width : {16, 4}) {
    for (int w : kWarpSeries) {
      const auto shape = warpShape(w);
      const int bps = shape.first, tpb = shape.second;
      auto& v = out.add("l1_hit_bytes_per_clk_per_sm", {num("width_bytes", width), num("warps_per_sm", w)},
                        "B/clk/SM",
                        "ld.global.ca of " + std::to_string(width) + " bytes a lane, warp-coalesced, "
                        "8 independent loads an iteration (shifted by one step on odd iterations) over a " +
                        std::to_string(9 * width / 4) +
                        " KiB per-block footprint read once before the timing; carve-out 0; " +
                            std::to_string(bps) + " block(s) of " + std::to_string(tpb) + " threads an SM");
      const int blocks = sms * bps;
      for (int r = 0; r < ctx.runs; ++r)
        v.samples.push_back(launchPerSmRate(blocks, double(iters) * kL1Steps * width, [&](BlockClock* c) {
          if (width == 16) l1LoadKernel<16><<<blocks, tpb>>>(buf.ptr, iters, 32 * 16, c, sink.ptr);
          else l1LoadKernel<4><<<blocks, tpb>>>(buf.ptr, iters, 32 * 4, c, sink.ptr);
        }));
    }
  }
}

// ------------------------------------------- constant-memory requests

// Four 128-byte lines of an identity table. Chain k of a lane starts at
// word 32k + (lane mod n): every load of the chain returns its own index, so
// a warp keeps asking for n distinct words of line k, and the chains are four
// independent LDC streams the compiler cannot hoist.
constexpr int kConstChains = 4;
__constant__ uint32_t cLines[kConstChains * 32];

__global__ void __launch_bounds__(1024, 2)
    constantThroughputKernel(uint32_t n, uint32_t iters, BlockClock* clocks, uint32_t* sink) {
  uint32_t q[kConstChains];
#pragma unroll
  for (int k = 0; k < kConstChains; ++k) q[k] = 32u * k + (threadIdx.x % 32) % n;
  __syncthreads();
  unsigned long long t0 = clock64();
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < 16; ++u) {
#pragma unroll
      for (int k = 0; k < kConstChains; ++k) q[k] = cLines[q[k]];
    }
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  recordBlockClock(clocks, t0, t1);
  uint32_t s = q[0] ^ q[1] ^ q[2] ^ q[3];
  if (s == 0x9e3779b9u) sink[threadIdx.x] = s;
}

void runConstantThroughputVsAddresses(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  std::vector<uint32_t> id(kConstChains * 32);
  for (uint32_t i = 0; i < id.size(); ++i) id[i] = i;
  PROBE_CHECK(cudaMemcpyToSymbol(cLines, id.data(), id.size() * 4));
  DeviceBuffer<uint32_t> sink(1024);
  const int bps = 2, tpb = 1024, blocks = sms * bps;
  std::vector<double> medians;
  for (uint32_t n : {1u, 2u, 4u, 8u, 16u, 32u}) {
    auto& v = out.add("warp_requests_per_clk_per_sm", {num("distinct_addresses", n), num("warps_per_sm", 64)},
                      "requests/clk/SM",
                      "LDC with a per-lane index: lane l reads word (l mod n) of one 128-byte line, "
                      "4 independent chains a thread through an identity table; 2 blocks of 1024 "
                      "threads an SM; a request is one warp-wide LDC instruction");
    const uint32_t iters = std::max(4u, 64u / n);
    for (int r = 0; r < ctx.runs; ++r)
      v.samples.push_back(launchPerSmRate(blocks, double(iters) * 16 * kConstChains / 32.0,
                                          [&](BlockClock* c) {
                                            constantThroughputKernel<<<blocks, tpb>>>(n, iters, c, sink.ptr);
                                          }));
    medians.push_back(median(v.samples));
  }
  // Serialization: how many times slower than one address (rate(1) / rate(n)).
  std::string table = "{";
  const uint32_t ns[] = {1, 2, 4, 8, 16, 32};
  for (size_t i = 0; i < medians.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s\"%u\": %.3f", i ? ", " : "", ns[i], medians[0] / medians[i]);
    table += buf;
  }
  out.derive("slowdown_vs_one_address", table + "}");
  out.notes.push_back("slowdown_vs_one_address = median rate at 1 address / median rate at n "
                      "(the replay factor as seen in throughput)");
}

}  // namespace probe
