#include "rules/WarpShuffleFix.h"

#include <algorithm>
#include <sstream>

namespace warplint {

const char *const kWarpTailFixSafety =
    "safe when the exchange is the unrolled warp tail of a tree reduction written out in the kernel (applied "
    "by --fix; every other exchange keeps its rewrite in a note): `if (tid < 32) { [volatile T *s = sdata;] s[tid] += s[tid + 32]; [__syncwarp();] s[tid] += "
    "s[tid + 16]; ... s[tid] += s[tid + 1]; }` (or `s[tid] = s[tid] + s[tid + k]`, or `s[tid] = max(s[tid], "
    "s[tid + k])` with max, min, fmaxf, fminf, fmax or fmin), tid being threadIdx.x or a local set once from it. "
    "The tail becomes `T v = sdata[tid]; v += sdata[tid + 32]; v += __shfl_down_sync(0xffffffff, v, 16); ... "
    "if (tid == 0) sdata[0] = v;`, which gives sdata[0] the same value bit for bit: lane 0 combines the same "
    "values with the same operator in the same order and operand order. Offered only when the AST shows "
    "that one operator on one element type (int, unsigned, long long, unsigned long long, float, double) and "
    "offsets 32, 16, 8, 4, 2, 1 (or 16 down to 1), nothing else in the braces and no macro or template, and "
    "the warp model shows that the block is one-dimensional with a multiple of 32 threads under every launch "
    "(not an assumed shape), that only warp 0 runs the tail with all 32 lanes at every step, that the steps "
    "are ordered by volatile or __syncwarp (not a race), and that no code after the tail reads elements the "
    "tail's other lanes stored (only lane 0's result, by thread 0 or after a barrier or __syncwarp). Refused "
    "with the reason otherwise; scans, broadcasts, a tail in a __device__ helper or written as a loop keep the "
    "rewrite in a note only. After applying, the file is re-analyzed; a fix that adds a compile "
    "error or leaves the finding is rolled back.";

namespace {

bool inside(const MemoryAccess &a, const WarpTail &t) {
  return a.callChain.empty() && a.loc.file == t.loc.file && a.loc.line >= t.firstLine && a.loc.line <= t.lastLine;
}

std::string at(const MemoryAccess &a) { return "'" + a.text + "' at line " + std::to_string(a.loc.line); }

// Why the tail cannot be rewritten exactly, or "".
std::string refusal(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, const WarpTail *&tail) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  tail = nullptr;
  if (!first.callChain.empty())
    return "the exchange is in a __device__ function called at line " + std::to_string(first.callChain.front().line) +
           ": the fix rewrites only a tail written out in the function it is reported in";
  if (k.warpExchanges)
    for (const WarpTail &t : k.warpExchanges->tails)
      if (inside(first, t))
        tail = &t;
  if (!tail)
    return "the exchange is not an unrolled warp tail written out here (`if (tid < 32) { s[tid] += s[tid + 16]; ... "
           "s[tid] += s[tid + 1]; }`)";
  const WarpTail &t = *tail;
  if (!t.refusal.empty())
    return t.refusal;
  if (t.array != ex.array)
    return "the tail's steps reach '" + t.array + "', not '" + ex.array + "'";
  std::string offsets;
  std::vector<int> got;
  for (const WarpTailStep &s : t.steps) {
    got.push_back(s.offset);
    offsets += (offsets.empty() ? "" : ", ") + std::to_string(s.offset);
  }
  const std::vector<int> from32{32, 16, 8, 4, 2, 1}, from16{16, 8, 4, 2, 1};
  if (got != from32 && got != from16)
    return "the steps read lane + " + offsets + ", not 32 (or 16) halving down to 1: lane 0 would not end with the "
           "whole warp's result in the same order";
  for (const WarpTailStep &s : t.steps)
    if (s.opKey != t.steps.front().opKey)
      return "the step at line " + std::to_string(s.line) + " applies '" + s.combine + "' where the first applies '" +
             t.steps.front().combine + "'";
  if (sync == "none")
    return "nothing orders the steps (no volatile, no __syncwarp): the code as written is a race, so there is no "
           "result to keep bit for bit";
  if (k.blockShapeAssumed)
    return "the block shape is assumed (" + k.blockShapeSource +
           "): a shuffle over all 32 lanes needs warp 0 full, which no launch here shows";
  for (const BlockShape &b : ex.shapes)
    if (b.y != 1 || b.z != 1 || b.x % 32 != 0)
      return "the block " + b.str() + " is not one-dimensional with a multiple of 32 threads";
  if (ex.warps != std::vector<int>{0})
    return "warps other than warp 0 run the exchange";
  // The model's loads, step by step: the last steps' reads, each at its offset, every lane of warp 0 reading.
  size_t n = ex.reads.size();
  if (n + 1 != t.steps.size() && n != t.steps.size())
    return "the warp model sees " + std::to_string(n) + " exchanging loads where the tail has " +
           std::to_string(t.steps.size()) + " steps";
  for (size_t i = 0; i < n; ++i) {
    const WarpExchangeRead &r = ex.reads[i];
    const WarpTailStep &s = t.steps[t.steps.size() - n + i];
    const MemoryAccess &a = k.accesses[r.access];
    if (!inside(a, t))
      return "the exchange goes on after the tail: " + at(a);
    if (r.laneDeltas != std::vector<int>{s.offset})
      return "the load " + at(a) + " does not read lane + " + std::to_string(s.offset) + " in the warp model";
    if ((r.exchangeMask | r.outsideMask) != 0xffffffffu)
      return "not every lane of warp 0 runs the load " + at(a) +
             " (a shuffle with mask 0xffffffff needs all 32 lanes to reach it)";
  }
  // What later code reads of the tail's stores: only lane 0's result, and
  // only by thread 0 or after a barrier or __syncwarp.
  if (k.warpExchanges)
    for (const SharedValueFlow &f : k.warpExchanges->flows) {
      const MemoryAccess &store = k.accesses[f.store], &load = k.accesses[f.load];
      if (!inside(store, t) || inside(load, t))
        continue;
      if (!f.storedByThreadZero)
        return "the load " + at(load) + " reads partial results other lanes of the tail stored; the rewrite keeps "
               "only lane 0's result (element 0)";
      if (f.unordered)
        return "the load " + at(load) + " reads lane 0's result from another thread with no __syncthreads or "
               "__syncwarp after the tail";
    }
  return "";
}

std::string rewrittenBody(const WarpTail &t) {
  const std::string &in = t.innerIndent, &v = t.valueName;
  std::ostringstream os;
  os << "{\n"
     << in << "// warp tail in a register (warplint --fix): lane 0 combines the same values in the same order\n"
     << in << t.elementType << " " << v << " = " << t.array << "[" << t.tidText << "];\n";
  for (const WarpTailStep &s : t.steps) {
    std::string other = s.offset == 32 ? t.array + "[" + s.indexText + "]"
                                        : "__shfl_down_sync(0xffffffff, " + v + ", " + std::to_string(s.offset) + ")";
    os << in;
    switch (s.form) {
    case WarpTailStep::Form::Compound:
      os << v << " " << s.combine << "= " << other;
      break;
    case WarpTailStep::Form::Binary:
      os << v << " = " << (s.otherFirst ? other + " " + s.combine + " " + v : v + " " + s.combine + " " + other);
      break;
    case WarpTailStep::Form::Call:
      os << v << " = " << s.combine << "(" << (s.otherFirst ? other + ", " + v : v + ", " + other) << ")";
      break;
    }
    os << ";\n";
  }
  os << in << "if (" << t.tidText << " == 0)\n" << in << "  " << t.array << "[0] = " << v << ";\n" << t.indent << "}";
  return os.str();
}

} // namespace

void describeWarpTailFix(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, Finding &f) {
  const WarpTail *tail = nullptr;
  std::string why = refusal(k, ex, sync, tail);
  nlohmann::json fix = {{"kind", "warp-tail-shuffle"}};
  if (!why.empty()) {
    fix["safety"] = "refused";
    fix["reason"] = why;
    f.notes.push_back({{}, "no shuffle fix: " + why});
    f.details["fix"] = fix;
    return;
  }
  const WarpTail &t = *tail;
  Fix x;
  x.description = "move the warp tail of '" + t.array + "' (lines " + std::to_string(t.firstLine) + "-" +
                  std::to_string(t.lastLine) + ") into a register: " + std::to_string(t.steps.size()) + " steps, the last 5 as " +
                  "__shfl_down_sync(0xffffffff, " + t.valueName + ", 16 ... 1), lane 0 storing the result to " +
                  t.array + "[0]";
  x.subject = t.array + " warp tail";
  x.replacements.push_back({t.body.file, t.body.offset, t.body.length, rewrittenBody(t)});
  f.fixes.push_back(x);
  f.notes.push_back({{}, "fix (--fix): " + x.description + "; " + t.array +
                             "[0] gets the same value bit for bit (same operator, same order), and no later code "
                             "reads the other lanes' partial results"});
  fix["safety"] = "safe";
  fix["steps"] = t.steps.size();
  f.details["fix"] = fix;
  f.details["subject"] = x.subject;
}

} // namespace warplint
