// private-array-local-memory (L_1-L_4): a thread-private array the compiler
// must place in local memory (device memory behind L1) instead of registers:
// a subscript that stays unknown after full unrolling, an address that
// leaves the code indexing it, or a loop too long for nvcc to unroll. Size
// alone decides nothing (a fully unrolled 1 KiB array with constant
// subscripts stays in registers). Judged from analyzer/facts/PrivateArrays.cpp's facts; confirmed by
// ptxas's stack frame when it was run (--ptxas auto where a toolkit is installed, or on).
#include "rules/AllRules.h"
#include "rules/ProfileCosts.h"

#include "analyzer/profile/HardwareProfile.h"
#include "analyzer/results/PrivateMemory.h"

#include <climits>
#include <cmath>
#include <set>
#include <sstream>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "private-array-local-memory",
    "Thread-private array placed in local memory",
    "L_1, L_2, L_3, L_4",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), sections 6.1 and 7.1; "
    "Pasternak, Memory-oriented optimization techniques in GPGPU programming (2022), section 4.2.3",
    "A thread-private array lives in registers only when the compiler can give each element its own "
    "register: every subscript must be a compile-time constant once the loops around it are fully "
    "unrolled, and the array's address must not leave the code that indexes it. Otherwise it goes to local memory, which is device memory behind the L1 cache: "
    "each access is a load or store with L1 latency at best and L2 or DRAM latency when the working "
    "set leaves L1, where a register costs nothing. A subscript read from data (a per-thread "
    "histogram), counted by a `while` loop or a loop without a constant trip count, or moved by a "
    "data-dependent sort all force local memory; an unrolled loop over constants does not (L_1). "
    "Nested loops shrink what fits (L_2); a sort can often be replaced by an equivalent operation "
    "with constant subscripts, such as a compare-exchange network or a mean instead of a median "
    "(L_3); newer compute capabilities keep larger arrays in registers (L_4). Size alone does not decide: "
    "nvcc 13.0 keeps a fully unrolled array of 1 KiB with constant subscripts in registers, and what does not "
    "fit a thread's 255 registers is spilled, not placed as an array; but a constant-trip loop of 384 or more "
    "iterations without `#pragma unroll` stays rolled, and its counter indexes local memory. An array passed "
    "by pointer or reference is followed into the functions whose bodies are visible (CUB and CUTLASS-style "
    "`__forceinline__` templates included); only a call that cannot be inlined (no body, `__noinline__`, "
    "recursion) makes its address escape.",
    "__global__ void histogram16(const int *in, int *out, int n) {\n"
    "  int bins[16] = {0};               // subscript from data: local memory\n"
    "  for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
    "    bins[in[i] & 15]++;\n"
    "  for (int b = 0; b < 16; ++b)\n"
    "    atomicAdd(&out[b], bins[b]);\n"
    "}",
    "__global__ void histogram16(const int *in, int *out, int n) {\n"
    "  __shared__ int bins[16];          // one histogram per block, in shared memory\n"
    "  if (threadIdx.x < 16) bins[threadIdx.x] = 0;\n"
    "  __syncthreads();\n"
    "  for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
    "    atomicAdd(&bins[in[i] & 15], 1);\n"
    "  __syncthreads();\n"
    "  if (threadIdx.x < 16) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);\n"
    "}",
    "safe (applied by --fix) only where every non-constant subscript comes from constant-trip loops that "
    "`#pragma unroll N` (N below the trip count, or 1) keeps rolled and the array's address does not escape: the count is deleted so the loops unroll fully, which changes code size but not "
    "behaviour; --fix re-analyzes the file and keeps the edit only when the finding is gone. Otherwise "
    "diagnostic only (the advice depends on the algorithm).",
};

std::string rounded(double v) {
  std::ostringstream os;
  os << std::llround(v);
  return os.str();
}

std::string typeText(const PrivateArray &a) {
  std::string t = a.elementType;
  for (int64_t d : a.dims)
    t += "[" + (d ? std::to_string(d) : std::string("?")) + "]";
  return t;
}

// The local-memory latencies the profile measured: L1 hit, register, L2, DRAM.
std::string localCost(const HardwareProfile &p, nlohmann::json &details) {
  auto local = p.latencyCycles("local");
  auto reg = p.latencyCycles("register");
  if (!local)
    return {};
  nlohmann::json cost = profileIdentity(p);
  cost["local_latency_cycles"] = *local;
  std::string text = "a local load takes about " + rounded(*local) + " cycles when it hits L1";
  if (reg) {
    cost["register_latency_cycles"] = *reg;
    text += " (a register " + rounded(*reg) + ")";
  }
  auto l2 = p.latencyCycles("l2_near");
  auto dram = p.latencyCycles("dram");
  if (l2 && dram) {
    cost["l2_latency_cycles"] = *l2;
    cost["dram_latency_cycles"] = *dram;
    text += ", " + rounded(*l2) + " from L2 and " + rounded(*dram) + " from DRAM";
  }
  details["measured_cost"] = cost;
  return text + " on " + p.deviceName();
}

// A compiler turns a few dynamic accesses to a small array into selects over
// its elements and keeps it in registers, so a dynamic subscript is reported
// only from the array size at which nvcc 13.0 (sm_90, ptxas -v stack frames)
// put the pattern in local memory in every size measured above it (32-bit
// elements; other scalar widths are local from 2, narrowOrWideScalar below):
//   dynamic access outside any loop (one read, one write, threadIdx):
//     registers up to 64 elements, never reported;
//   index changed by a `while` loop (insertion sort): local from 5;
//   read-modify-write at a data index in a rolled loop (histogram): from 8;
//   data index read in a rolled loop (gather): from 16;
//   index chosen under a data-dependent condition (argmin): from 12;
//   counter of a loop kept rolled by `#pragma unroll 1`: from 10;
//   counter of a loop with a run-time bound: the compiler bounds the trip
//     count by the array and unrolls, so it depends on the pattern (2 to 64
//     elements measured): written in one such loop and read in another
//     (`for (n < dstate) h[n] = ..;` then `.. h[n] ..` in a second loop):
//     local at every size, 2 to 64; otherwise (read only, or read and
//     written in the same loop) 10 local, 12 to 20 in registers, local from
//     24 for all but a read in a nested loop (registers at 24): from 32;
//   counter of a constant-trip loop too long to unroll (384 and more
//     iterations without a pragma): the whole array is the stack frame.
//   thread or parameter subscript inside a loop that stays rolled within
//     the array's lifetime (`a[p] += ..`, `.. a[p] ..` or
//     `a[threadIdx.x % n] += ..` in a run-time-bound loop that also updates
//     every element): 4-byte elements in registers from 2 to 32 elements,
//     local from 64; 1-, 2- and 8-byte elements local at every size from 2
//     (double 2 to 32, long long 2 and 4, short 8, char 16), as HeCBench
//     kalman's `double l_alpha[8]` at `l_alpha[n_diff] += mu`. Declared
//     inside that loop, the array is new each iteration: registers.
// Thread or parameter subscripts in unrolled loops were not measured: from 32.
// Where ptxas ran (--ptxas auto or on) the stack frame decides instead.
// A scalar element that is not 32 bits wide (double, 64-bit integers,
// pointers, char, short). ptxas gives a small array of 32-bit elements
// registers even at a dynamic subscript, but not these: nvcc 13.0 put
// double, long long, pointer, short and char arrays in local memory at every
// size measured from 2 elements, for a subscript from data (one read, a
// histogram), a data-dependent argmin, a thread index or a parameter, in a
// loop or not (a table of 4 shared-memory row pointers picked by the warp
// index: 32-byte frame, as in cuda-samples cdpQuadtree).
bool narrowOrWideScalar(const PrivateArray &a) {
  if (a.elementSize == 4 || a.elementSize <= 0)
    return false;
  std::string t = a.elementType;
  for (const char *q : {"const ", "volatile "})
    while (t.rfind(q, 0) == 0)
      t = t.substr(std::string(q).size());
  if (!t.empty() && t.back() == '*')
    return a.elementSize == 8;
  static const std::set<std::string> scalars{
      "double", "long", "unsigned long", "long long", "unsigned long long", "int64_t", "uint64_t", "size_t",
      "ptrdiff_t", "char", "signed char", "unsigned char", "int8_t", "uint8_t", "short", "unsigned short",
      "int16_t", "uint16_t", "bool"};
  return scalars.count(t) > 0;
}

int64_t minElements(const DynamicSubscript &s, const PrivateArray &a) {
  constexpr int64_t kNever = INT64_MAX;
  if (narrowOrWideScalar(a) &&
      (s.cause == "data" || s.cause == "data-condition" || s.cause == "thread" || s.cause == "parameter"))
    return 2;
  if (!s.inLoop)
    return kNever;
  if (s.cause == "long-loop")
    return 1;
  if (s.cause == "while-loop")
    return 8;
  if (s.cause == "data")
    return s.isWrite && s.inRolledLoop ? 8 : 16;
  if (s.cause == "data-condition" || s.cause == "unroll-pragma")
    return 12;
  if ((s.cause == "thread" || s.cause == "parameter") && s.inRolledLoop)
    return 64; // 4-byte elements (others above)
  return 32; // loop-bound, thread, parameter
}

int64_t elementCount(const PrivateArray &a) {
  int64_t n = 1;
  for (int64_t d : a.dims)
    n *= d;
  return n;
}

bool sameLoc(const SourceLocation &a, const SourceLocation &b) {
  return a.line == b.line && a.column == b.column && a.file == b.file;
}

// Written at the counter of one run-time-bound loop and read at the counter
// of another: local memory at every size measured.
bool runtimeLoopsHandOver(const PrivateArray &a) {
  for (const DynamicSubscript &w : a.dynamicSubscripts)
    if (w.cause == "loop-bound" && w.isWrite && w.loop.valid())
      for (const DynamicSubscript &r : a.dynamicSubscripts)
        if (r.cause == "loop-bound" && !r.isWrite && r.loop.valid() && !sameLoc(w.loop, r.loop))
          return true;
  return false;
}

bool qualifies(const DynamicSubscript &s, const PrivateArray &a) {
  if (s.cause == "loop-bound" && s.inLoop && runtimeLoopsHandOver(a))
    return true;
  return elementCount(a) >= minElements(s, a);
}

std::string advice(const PrivateArray &a, const std::string &cause) {
  std::string nested = a.nestedLoopSubscript ? "; merging the nested loops that index it into one loop leaves the "
                                               "compiler more registers for it (L_2)"
                                             : "";
  if (a.shuffledByData)
    return "its elements move to data-dependent positions, as in a sort: a compare-exchange network over "
           "constant subscripts (loops with constant trip counts only) stays in registers, and often an "
           "equivalent simpler operation needs no order at all, such as a mean instead of a median (L_3)";
  if (cause == "loop-bound")
    return "give the loop a constant trip count (a compile-time maximum with an `if` on the real bound inside) "
           "and `#pragma unroll` so every subscript becomes a constant (L_1)" + nested;
  if (cause == "long-loop")
    return "add `#pragma unroll` so every subscript becomes a constant, or use a smaller array (less work a "
           "thread) or shared memory; what does not fit a thread's 255 registers is then spilled (L_1)" + nested;
  if (cause == "unroll-pragma")
    return "let the loop unroll fully (`#pragma unroll` without a count): its counter then becomes a constant "
           "in every copy of the body (L_1)";
  if (cause == "while-loop" || cause == "data-condition")
    return "visit every element with a constant-trip loop and select with comparisons instead of computing a "
           "subscript from data (L_1, L_3)";
  if (cause == "data")
    return "keep data-indexed tables in shared memory (one per block or warp, updated with atomics) or use a "
           "smaller array whose elements are chosen by comparisons with constant subscripts (L_1)";
  if (cause == "thread" || cause == "parameter")
    return "make the subscript a compile-time constant (a template parameter or constexpr, L_1), or keep a table "
           "indexed by thread or run-time values in shared memory";
  if (!a.escape.empty())
    return "pass the elements' values instead of the array's address, or let the callee be inlined";
  return "";
}

class PrivateArrayLocalMemory : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    if (!k.privateMemory)
      return;
    const PtxasReport &ptxas = k.privateMemory->ptxas;
    for (const PrivateArray &a : k.privateMemory->arrays) {
      // ptxas is the ground truth where it ran: no stack frame, no local array.
      if (ptxas.ran && ptxas.stackFrameBytes == 0)
        continue;
      PrivateArray judged = a;
      judged.dynamicSubscripts.clear();
      for (const DynamicSubscript &s : a.dynamicSubscripts)
        if ((ptxas.ran && ptxas.stackFrameBytes > 0) || qualifies(s, a))
          judged.dynamicSubscripts.push_back(s);
      bool dynamic = !judged.dynamicSubscripts.empty();
      bool escapes = !a.escape.empty();
      if (!dynamic && !escapes)
        continue;
      out.push_back(finding(k, judged, ctx, dynamic, escapes));
    }
  }

private:
  static Finding finding(const KernelInfo &k, const PrivateArray &a, const RuleContext &ctx, bool dynamic,
                         bool escapes) {
    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = a.loc;
    f.kernel = k.name;
    f.details["subject"] = a.name;
    f.details["array"] = a.name;
    f.details["element_type"] = a.elementType;
    f.details["dims"] = a.dims;
    f.details["bytes_per_thread"] = a.bytes;
    f.details["declared_in"] = a.declaredIn;
    std::ostringstream msg;
    msg << "private array '" << a.name << "' (" << typeText(a);
    if (a.bytes > 0)
      msg << ", " << a.bytes << " bytes a thread";
    msg << ") is placed in local memory: ";
    std::string cause;
    nlohmann::json causes = nlohmann::json::array();
    if (dynamic) {
      const DynamicSubscript &d = a.dynamicSubscripts.front();
      cause = d.cause;
      msg << "the subscript in '" << d.text << "' is not a compile-time constant after unrolling (" << d.why << ")";
      for (const DynamicSubscript &s : a.dynamicSubscripts)
        causes.push_back({{"kind", "dynamic-subscript"}, {"cause", s.cause}, {"access", s.text}, {"why", s.why},
                          {"line", s.loc.line}, {"column", s.loc.column}});
    } else {
      msg << a.escape;
    }
    if (escapes)
      causes.push_back({{"kind", "escape"}, {"why", a.escape}, {"line", a.escapeLoc.line}});
    f.details["causes"] = causes;
    if (ctx.profile) {
      std::string cost = localCost(*ctx.profile, f.details);
      if (!cost.empty())
        msg << "; " << cost;
    }
    f.message = msg.str();

    if (k.privateMemory->ptxas.ran)
      addPtxasNote(k, f);
    size_t shown = 0;
    for (const DynamicSubscript &s : a.dynamicSubscripts) {
      if (shown++ == 3) {
        size_t more = a.dynamicSubscripts.size() - 3;
        f.notes.push_back({{}, std::to_string(more) + (more == 1 ? " more subscript" : " more subscripts") + " like these"});
        break;
      }
      if (shown > 1)
        f.notes.push_back({s.loc, "the subscript in '" + s.text + "' is not constant either (" + s.why + ")"});
      else
        f.notes.push_back({s.loc, std::string(s.isWrite ? "written" : "read") + " here"});
      if (s.loop.valid() && shown == 1)
        f.notes.push_back({s.loop, s.cause == "data-condition" ? "the condition that decides it" : "the loop that decides it"});
    }
    if (dynamic && escapes)
      f.notes.push_back({a.escapeLoc, "also: " + a.escape});
    for (auto it = a.callChain.rbegin(); it != a.callChain.rend(); ++it)
      f.notes.push_back({*it, "declared in '" + a.declaredIn + "', called from '" + k.name + "' here"});
    if (ctx.profile)
      if (auto dram = ctx.profile->dramBandwidthGBps())
        f.notes.push_back({{}, "local memory shares L1, L2 and the " + rounded(*dram) +
                                   " GB/s of DRAM bandwidth the profile measured with global memory; lanes using "
                                   "different subscripts touch up to 32 sectors a warp access"});
    std::string fix = advice(a, cause);
    if (!fix.empty())
      f.notes.push_back({{}, "instead: " + fix});
    // Every dynamic subscript comes from constant-trip loops kept rolled by
    // a count: unrolling them fully makes every subscript a constant. The
    // re-analysis of --fix checks that the finding is gone.
    if (dynamic && !escapes && !a.rollingPragmas.empty()) {
      Fix x;
      x.subject = a.name;
      x.description = "unroll the loops indexing '" + a.name + "' fully (`#pragma unroll` without a count)";
      for (const SourceSpan &s : a.rollingPragmas)
        x.replacements.push_back({s.file, s.offset, s.length, ""});
      f.fixes.push_back(x);
      f.details["fix"] = {{"kind", "unroll-pragma"}, {"safety", "safe"}};
      f.notes.push_back({{}, "fix (--fix): " + x.description});
    }
    return f;
  }

  static void addPtxasNote(const KernelInfo &k, Finding &f) {
    const PtxasReport &p = k.privateMemory->ptxas;
    std::string text = "confirmed: " + p.tool + " reports a " + std::to_string(p.stackFrameBytes) +
                       "-byte stack frame for '" + k.name + "'";
    if (p.spillStoreBytes || p.spillLoadBytes)
      text += " (" + std::to_string(p.spillStoreBytes) + " bytes of spill stores, " +
              std::to_string(p.spillLoadBytes) + " of spill loads)";
    f.notes.push_back({{}, text});
    f.details["ptxas"] = {{"tool", p.tool}, {"stack_frame_bytes", p.stackFrameBytes},
                          {"spill_store_bytes", p.spillStoreBytes}, {"spill_load_bytes", p.spillLoadBytes}};
  }
};

} // namespace

std::unique_ptr<Rule> makePrivateArrayLocalMemoryRule() { return std::make_unique<PrivateArrayLocalMemory>(); }

} // namespace warplint
