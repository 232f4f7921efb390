#include "rules/WarpShuffleFix.h"
#include "analyzer/facts/WarpHelperTails.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace warplint {

const char *const kWarpTailFixSafety =
    "safe when the exchange is the unrolled warp tail of a tree reduction, written out in the kernel or in a "
    "__device__ helper (applied by --fix; every other exchange keeps its rewrite in a note). In the kernel: `if "
    "(tid < 32) { [volatile T *s = sdata;] s[tid] += s[tid + 32]; [__syncwarp();] s[tid] += s[tid + 16]; ... "
    "s[tid] += s[tid + 1]; }` (or `s[tid] = s[tid] + s[tid + k]`, or `s[tid] = max(s[tid], s[tid + k])` with max, "
    "min, fmaxf, fminf, fmax or fmin), tid being threadIdx.x or a local set once from it. The tail becomes `T v = "
    "sdata[tid]; v += sdata[tid + 32]; v += __shfl_down_sync(0xffffffff, v, 16); ... if (tid == 0) sdata[0] = v;`, "
    "which gives sdata[0] the same value bit for bit: lane 0 combines the same values with the same operator in "
    "the same order and operand order. In a helper (`template <unsigned blockSize> __device__ void "
    "warpReduce(volatile T *s, unsigned tid) { if (blockSize >= 64) s[tid] += s[tid + 32]; ... }`, guards "
    "optional, or the register form `T v = s[t]; v += s[t + 32]; s[t] = v; ...`): the helper's body is rewritten "
    "the same way, each `if (CONDITION)` kept on its step (a compile-time constant in every instance, so every "
    "instance runs the same steps as before), and only when every call of the helper in the file is proven exact "
    "by the conditions below, each call under the block shapes of its kernel's launches, and every template "
    "instance is the same tail; the call must pass threadIdx.x (or a local set once from it) as tid. Otherwise the "
    "refusal names the call that fails. Offered only when the AST shows that one operator on one element type "
    "(int, unsigned, long long, unsigned long long, float, double) and offsets 32, 16, 8, 4, 2, 1 (or 16 down to "
    "1), nothing else in the braces or the helper's body and no macro (for the in-kernel form, no template), and "
    "the warp model shows that the block is one-dimensional with a multiple of 32 threads under every launch (not "
    "an assumed shape), that only warp 0 runs the tail with all 32 lanes at every step, that the steps are "
    "ordered by volatile or __syncwarp (not a race), and that no code after the tail reads elements the tail's "
    "other lanes stored (only lane 0's result, by thread 0 or after a barrier or __syncwarp). Refused with the "
    "reason otherwise. A per-warp tree written as a loop in the kernel (`for (int i = 16; i > 0; i >>= 1) { if "
    "(rank < i) { temp = s[idx + i]; beta += temp; s[idx] = beta; } cg::sync(tile32); }`, or `if (rank < i) "
    "s[idx] += s[idx + i];`, with rank a thread_block_tile<32>'s thread_rank() or idx & 31 / idx % 32, idx "
    "threadIdx.x or the block's thread_rank(), the start 16, tile32.size() / 2 or a constant 16, the sync a "
    "32-lane tile's or __syncwarp() with the full mask) becomes `T o = __shfl_down_sync(0xffffffff, s[idx], 16); if "
    "(rank < 16) { temp = o; beta += temp; } for (int i = 8; i > 0; i >>= 1) { o = __shfl_down_sync(0xffffffff, "
    "beta, i); if (rank < i) { temp = o; beta += temp; } } if (rank < 16) s[idx] = beta; SYNC;`: every lane's "
    "registers and every element of s end bit for bit as the loop leaves them (lane r < i adds at step i the value "
    "lane r + i holds, which ran every earlier step, so its register is the element it stored; each lane under 16 "
    "stores once the value it last stored), so no later read needs proving; offered when the element type is one "
    "of the six above, the running value has the element's type, and every launch gives a one-dimensional block of "
    "a multiple of 32 threads (each tile one whole warp). Several arrays reduced in one loop (`temp = s[idx + i]; "
    "temp2 = s2[idx + i]; beta += temp; beta2 += temp2; s[idx] = beta; s2[idx] = beta2;`, or one direct step "
    "each) are as many independent trees, rewritten side by side in their statement order (distinct arrays, "
    "distinct locals). A loop in a __device__ helper (template or not) is rewritten once, in the helper, only when "
    "every call of it in the file is proven: each call passes threadIdx.x (or a local set once from it) for the "
    "index parameters and distinct __shared__ arrays when the loop reduces several, and every kernel that runs it "
    "shows an exchange on each array under one-dimensional blocks of a multiple of 32 threads from its launches; "
    "kernels all of whose blocks are not a multiple of 32 threads keep the loop as written, behind `if (blockDim.x "
    "% 32 == 0) { shuffles } else { the loop }` (blockDim.x is the same in the whole block, so each block takes one "
    "side and the other side is never mixed in); a helper in a header only when no other file of the analyzed "
    "file's directory includes that header. A template element type is checked in every instance. Refused with "
    "the reason otherwise (a tile not 32 wide, a sync with a partial mask, a call passing another index or one "
    "array twice, a two-dimensional block, a call the warp model cannot follow). Scans and broadcasts keep the "
    "rewrite in a note only. Comments inside the "
    "rewritten braces are not kept. After applying, the file is re-analyzed; a fix that adds a compile error or "
    "leaves the finding is rolled back.";

namespace {

bool inside(const MemoryAccess &a, const WarpTail &t) {
  return a.callChain.empty() && a.loc.file == t.loc.file && a.loc.line >= t.firstLine && a.loc.line <= t.lastLine;
}

std::string at(const MemoryAccess &a) { return "'" + a.text + "' at line " + std::to_string(a.loc.line); }

std::string notATail(const WarpExchange &ex, const KernelInfo &k);

// What an in-kernel tail and a helper's tail must both be, or "": steps
// halving from 32 (or 16) to 1 with one operator, ordered by volatile or
// __syncwarp, run by warp 0 alone in 1-D blocks of whole warps from the
// launches. `steps` names the steps ("the ", "the helper's ") and `runner`
// what warp 0 runs, in the messages.
std::string tailShapeRefusal(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, const WarpTail &t,
                             const std::string &steps, const std::string &runner) {
  std::string offsets;
  std::vector<int> got;
  for (const WarpTailStep &s : t.steps) {
    got.push_back(s.offset);
    offsets += (offsets.empty() ? "" : ", ") + std::to_string(s.offset);
  }
  const std::vector<int> from32{32, 16, 8, 4, 2, 1}, from16{16, 8, 4, 2, 1};
  if (got != from32 && got != from16)
    return steps + "steps read lane + " + offsets +
           ", not 32 (or 16) halving down to 1: lane 0 would not end with the whole warp's result in the same order";
  for (const WarpTailStep &s : t.steps)
    if (s.opKey != t.steps.front().opKey)
      return steps + "step at line " + std::to_string(s.line) + " applies '" + s.combine + "' where the first applies '" +
             t.steps.front().combine + "'";
  if (sync == "none")
    return "nothing orders " + steps + "steps (no volatile, no __syncwarp): the code as written is a race, so there "
           "is no result to keep bit for bit";
  if (k.blockShapeAssumed)
    return "the block shape is assumed (" + k.blockShapeSource +
           "): a shuffle over all 32 lanes needs warp 0 full, which no launch here shows";
  for (const BlockShape &b : ex.shapes)
    if (b.y != 1 || b.z != 1 || b.x % 32 != 0)
      return "the block " + b.str() + " is not one-dimensional with a multiple of 32 threads";
  if (ex.warps != std::vector<int>{0})
    return "warps other than warp 0 run " + runner;
  return "";
}

// Why the tail cannot be rewritten exactly, or "".
std::string refusal(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, const WarpTail *&tail) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  tail = nullptr;
  if (!first.callChain.empty())
    return "the exchange is in a __device__ function called at line " + std::to_string(first.callChain.front().line) +
           " that is not an unrolled warp tail (" + notATail(ex, k) + ")";
  if (k.warpExchanges)
    for (const WarpTail &t : k.warpExchanges->tails)
      if (inside(first, t))
        tail = &t;
  if (!tail)
    return "the exchange is not an unrolled warp tail written out here (" + notATail(ex, k) + ")";
  const WarpTail &t = *tail;
  if (!t.refusal.empty())
    return t.refusal;
  if (t.array != ex.array)
    return "the tail's steps reach '" + t.array + "', not '" + ex.array + "'";
  if (std::string why = tailShapeRefusal(k, ex, sync, t, "the ", "the exchange"); !why.empty())
    return why;
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

// `text` with the line endings of `original` (a file written with CRLF keeps them).
std::string withLineEndings(const std::string &text, const std::string &original) {
  if (original.find("\r\n") == std::string::npos)
    return text;
  std::string out;
  for (char c : text) {
    if (c == '\n')
      out += '\r';
    out += c;
  }
  return out;
}

bool sameLoc(const SourceLocation &a, const SourceLocation &b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

std::string lineOf(const SourceLocation &l) { return "line " + std::to_string(l.line); }

// What the exchange is instead of an unrolled tail, for the refusal.
std::string notATail(const WarpExchange &ex, const KernelInfo &k) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  if (ex.reads.size() == 1 && ex.reads.front().laneDeltas.size() > 1) {
    std::string deltas;
    for (int d : ex.reads.front().laneDeltas)
      deltas += (deltas.empty() ? "" : ", ") + std::to_string(d);
    return "a loop: one load " + at(first) + " reads lane + " + deltas +
           " over its iterations, in a loop the fix does not recognize as a per-warp tree (it rewrites `for (int i "
           "= 16; i > 0; i >>= 1) { if (rank < i) { temp = s[idx + i]; beta += temp; s[idx] = beta; } "
           "cg::sync(tile32); }` or `if (rank < i) s[idx] += s[idx + i];` with rank the lane in a 32-thread tile "
           "and idx threadIdx.x or the block's thread_rank())";
  }
  return "the fix rewrites `if (tid < 32) { s[tid] += s[tid + 32]; ... s[tid] += s[tid + 1]; }` in the kernel or "
         "a __device__ helper made of such steps, called as `if (tid < 32) helper(s, tid)`";
}

// An access of helper `h` inlined through the call chain `chain`.
bool insideHelper(const MemoryAccess &a, const HelperWarpTail &h, const std::vector<SourceLocation> &chain) {
  if (a.callChain.size() != chain.size() || a.loc.file != h.tail.loc.file || a.loc.line < h.tail.firstLine ||
      a.loc.line > h.tail.lastLine)
    return false;
  for (size_t i = 0; i < chain.size(); ++i)
    if (!sameLoc(a.callChain[i], chain[i]))
      return false;
  return true;
}

// Why this kernel's call of helper `h` cannot have the helper rewritten, or "".
std::string helperCallRefusal(const KernelInfo &k, const WarpExchange &ex, const std::string &sync,
                              const HelperWarpTail &h) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  const std::vector<SourceLocation> &chain = first.callChain;
  const SourceLocation &call = chain.back();
  const WarpTail &t = h.tail;
  if (!t.refusal.empty())
    return "the helper '" + h.helper + "': " + t.refusal;
  if (!h.instanceProblem.empty())
    return "the helper '" + h.helper + "': " + h.instanceProblem;
  auto c = std::find_if(h.calls.begin(), h.calls.end(), [&](const HelperTailCall &x) { return sameLoc(x.loc, call); });
  if (c == h.calls.end())
    return "the call at " + lineOf(call) + " is not one the scan of the file's calls saw";
  if (!c->problem.empty())
    return c->problem;
  if (std::string why = tailShapeRefusal(k, ex, sync, t, "the helper's ", "the helper"); !why.empty())
    return why;
  // Each exchanging load is one of the helper's steps, reading lane + its
  // offset with all 32 lanes of warp 0. The guards on the steps are
  // compile-time constants (checked on every instance), so the lanes that
  // run one step run them all: the call's lanes.
  for (const WarpExchangeRead &r : ex.reads) {
    const MemoryAccess &a = k.accesses[r.access];
    if (!insideHelper(a, h, chain))
      return "the exchange goes on outside the helper's call at " + lineOf(call) + ": " + at(a);
    size_t step = 0;
    while (step < h.otherReads.size() && !(h.otherReads[step].line == a.loc.line && h.otherReads[step].column == a.loc.column))
      ++step;
    if (step == h.otherReads.size())
      return "the load " + at(a) + " is not a step's read of the other lane's element";
    if (r.laneDeltas != std::vector<int>{t.steps[step].offset})
      return "the load " + at(a) + " does not read lane + " + std::to_string(t.steps[step].offset) +
             " in the warp model";
    if ((r.exchangeMask | r.outsideMask) != 0xffffffffu)
      return "not every lane of warp 0 runs the load " + at(a) +
             " (a shuffle with mask 0xffffffff needs all 32 lanes to reach it)";
  }
  if (k.warpExchanges)
    for (const SharedValueFlow &f : k.warpExchanges->flows) {
      const MemoryAccess &store = k.accesses[f.store], &load = k.accesses[f.load];
      if (!insideHelper(store, h, chain) || insideHelper(load, h, chain))
        continue;
      if (!f.storedByThreadZero)
        return "after the call at " + lineOf(call) + ", the load " + at(load) +
               " reads partial results other lanes of the tail stored; the rewrite keeps only lane 0's result "
               "(element 0)";
      if (f.unordered)
        return "after the call at " + lineOf(call) + ", the load " + at(load) +
               " reads lane 0's result from another thread with no __syncthreads or __syncwarp after the tail";
    }
  return "";
}

std::string helperBody(const HelperWarpTail &h) {
  const WarpTail &t = h.tail;
  const std::string &in = t.innerIndent, &v = t.valueName;
  std::ostringstream os;
  os << "{\n"
     << in << "// warp tail in a register (warplint --fix): lane 0 combines the same values in the same order\n"
     << in << t.elementType << " " << v << " = " << t.array << "[" << t.tidText << "];\n";
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const WarpTailStep &s = t.steps[i];
    std::string other = s.offset == 32 ? t.array + "[" + s.indexText + "]"
                                        : "__shfl_down_sync(0xffffffff, " + v + ", " + std::to_string(s.offset) + ")";
    os << in;
    if (!h.guards[i].empty())
      os << "if (" << h.guards[i] << ") ";
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
  return withLineEndings(os.str(), t.body.text);
}

std::string helperKey(const HelperWarpTail &h) { return h.tail.body.file + ":" + std::to_string(h.tail.body.offset); }

std::string locKey(const SourceLocation &l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

// The helper-form fix of one finding: pending until every call of the
// helper in the unit is judged (settleHelperTailFixes).
bool describeHelperFix(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, Finding &f) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  if (first.callChain.empty())
    return false;
  std::shared_ptr<const UnitHelperTails> keep;
  const HelperWarpTail *h = helperTailAt(first.loc, keep);
  if (!h)
    return false;
  std::string why = helperCallRefusal(k, ex, sync, *h);
  nlohmann::json fix = {{"kind", "warp-tail-shuffle"},
                        {"form", "helper"},
                        {"helper", h->helper},
                        {"helper_key", helperKey(*h)},
                        {"call", locKey(first.callChain.back())},
                        {"call_line", first.callChain.back().line},
                        {"safety", "pending"},
                        {"call_reason", why}};
  f.details["fix"] = fix;
  if (why.empty() && h->tail.body.valid()) {
    Fix x;
    x.description = "move the warp tail in the __device__ helper '" + h->helper + "' (lines " +
                    std::to_string(h->tail.firstLine) + "-" + std::to_string(h->tail.lastLine) +
                    ") into a register: " + std::to_string(h->tail.steps.size()) +
                    " steps, those under 32 as __shfl_down_sync(0xffffffff, " + h->tail.valueName +
                    ", 16 ... 1), lane 0 storing the result to " + h->tail.array + "[0]";
    x.subject = h->helper + " warp tail";
    x.replacements.push_back({h->tail.body.file, h->tail.body.offset, h->tail.body.length, helperBody(*h)});
    f.fixes.push_back(x);
  }
  return true;
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
  return withLineEndings(os.str(), t.body.text);
}


// ---- the loop form: a per-warp tree over a 32-lane tile ----------------

std::string loopKey(const WarpLoopTree &t) { return "loop:" + t.span.file + ":" + std::to_string(t.span.offset); }

std::string arraysOf(const WarpLoopTree &t) {
  std::string s;
  for (const WarpLoopChain &c : t.chains)
    s += (s.empty() ? "" : ", ") + c.array;
  return s.empty() ? t.array : s;
}

std::string loopSubject(const WarpLoopTree &t) { return arraysOf(t) + " warp tree loop"; }

// An access of the loop `t`, run through the call chain `chain` (empty in the kernel).
bool insideLoop(const MemoryAccess &a, const WarpLoopTree &t, const std::vector<SourceLocation> &chain) {
  if (a.loc.file != t.loc.file || a.loc.line < t.firstLine || a.loc.line > t.lastLine ||
      a.callChain.size() != chain.size())
    return false;
  for (size_t i = 0; i < chain.size(); ++i)
    if (!sameLoc(a.callChain[i], chain[i]))
      return false;
  return true;
}

// Why this exchange does not show the loop `t` exact for its kernel (and
// call, in a helper), or "". The block shapes are judged once per kernel,
// with the loop's other arrays and calls (settleLoopFixes).
std::string loopExchangeRefusal(const KernelInfo &k, const WarpExchange &ex, const WarpLoopTree &t) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  const std::vector<SourceLocation> &chain = first.callChain;
  if (t.inHelper == chain.empty())
    return "the loop is reached " + std::string(chain.empty() ? "outside a call of its function" : "through a call");
  if (!t.inHelper && std::none_of(t.chains.begin(), t.chains.end(),
                                  [&](const WarpLoopChain &c) { return c.array == ex.array; }))
    return "the loop's steps reach '" + arraysOf(t) + "', not '" + ex.array + "'";
  for (const WarpExchangeRead &r : ex.reads) {
    const MemoryAccess &a = k.accesses[r.access];
    if (!insideLoop(a, t, chain))
      return "the exchange goes on outside the loop: " + at(a);
    for (int d : r.laneDeltas)
      if (d != 1 && d != 2 && d != 4 && d != 8 && d != 16)
        return "the load " + at(a) + " reads lane + " + std::to_string(d) + " in the warp model, not a halving step";
  }
  return "";
}

// The loop as shuffles. Every lane ends with the same register values and
// every array with the same elements as the loop gives: lane r < i adds, at
// step i, the value lane r + i holds (r + i < 2i, so that lane ran every
// earlier step and its register equals the element it stored), and stores
// only once, at the end, the value it last stored in the loop. Several
// arrays (distinct memory, distinct locals) are independent chains; their
// statements keep their order. With `guarded`, the shuffles run only in
// blocks of whole warps and the loop as written in the others.
std::string loopBody(const WarpLoopTree &t, bool guarded) {
  const std::string &i = t.loopVar;
  std::string step = t.innerIndent.size() > t.indent.size() ? t.innerIndent.substr(t.indent.size()) : std::string("  ");
  const std::string &base = t.indent; // the `{` or the `if` takes the place of the `for`
  std::string in = base + step, deeper = in + step;
  bool reg = !t.accName.empty();
  bool several = t.chains.size() > 1;
  auto own = [&](const WarpLoopChain &c) { return c.array + "[" + t.indexText + "]"; };
  auto acc = [&](const WarpLoopChain &c) { return reg ? c.accName : c.accValueName; };
  auto adds = [&](const std::string &pad) {
    std::string s;
    for (auto [ci, kind] : t.order) {
      const WarpLoopChain &c = t.chains[ci];
      if (kind == 'r')
        s += pad + c.tempName + " = " + c.valueName + ";\n";
      else
        s += pad + c.accName + " += " + (c.tempName.empty() ? c.valueName : c.tempName) + ";\n";
    }
    return s;
  };
  std::ostringstream os;
  os << (guarded ? "if (blockDim.x % 32 == 0) {\n" : "{\n")
     << in << "// per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as "
        "the loop did, and " << arraysOf(t) << (several ? " end" : " ends") << " with the same elements";
  if (guarded)
    os << "; blocks that are not whole warps run the loop as written";
  os << "\n";
  if (reg) {
    // Step 16 reads the element lane + 16 holds, which the register need not equal.
    for (const WarpLoopChain &c : t.chains)
      os << in << c.elementType << " " << c.valueName << " = __shfl_down_sync(0xffffffff, " << own(c) << ", 16);\n";
    os << in << "if (" << t.rankText << " < 16) {\n" << adds(deeper) << in << "}\n"
       << in << "for (int " << i << " = 8; " << i << " > 0; " << i << " >>= 1) {\n";
    for (const WarpLoopChain &c : t.chains)
      os << deeper << c.valueName << " = __shfl_down_sync(0xffffffff, " << acc(c) << ", " << i << ");\n";
    os << deeper << "if (" << t.rankText << " < " << i << ") {\n"
       << adds(deeper + step) << deeper << "}\n"
       << in << "}\n";
  } else {
    for (const WarpLoopChain &c : t.chains)
      os << in << c.elementType << " " << acc(c) << " = " << own(c) << ";\n";
    os << in << "for (int " << i << " = 16; " << i << " > 0; " << i << " >>= 1) {\n";
    for (const WarpLoopChain &c : t.chains)
      os << deeper << c.elementType << " " << c.valueName << " = __shfl_down_sync(0xffffffff, " << acc(c) << ", "
         << i << ");\n";
    if (several) {
      os << deeper << "if (" << t.rankText << " < " << i << ") {\n";
      for (const WarpLoopChain &c : t.chains)
        os << deeper << step << acc(c) << " += " << c.valueName << ";\n";
      os << deeper << "}\n";
    } else
      os << deeper << "if (" << t.rankText << " < " << i << ")\n"
         << deeper << step << acc(t.chains[0]) << " += " << t.chains[0].valueName << ";\n";
    os << in << "}\n";
  }
  if (several) {
    os << in << "if (" << t.rankText << " < 16) {\n";
    for (const WarpLoopChain &c : t.chains)
      os << in << step << own(c) << " = " << acc(c) << ";\n";
    os << in << "}\n";
  } else
    os << in << "if (" << t.rankText << " < 16)\n" << in << step << own(t.chains[0]) << " = " << acc(t.chains[0]) << ";\n";
  if (!t.syncText.empty())
    os << in << t.syncText << ";\n";
  os << base << "}";
  if (guarded) {
    // The loop as written, one level deeper.
    std::string loop;
    for (char c : t.span.text)
      if (c != '\r')
        loop += c;
    std::string shifted;
    for (char c : loop) {
      shifted += c;
      if (c == '\n')
        shifted += step;
    }
    os << " else {\n" << base << step << shifted << "\n" << base << "}";
  }
  return withLineEndings(os.str(), t.span.text);
}

// The loop-form fix of one finding, when its exchange runs in such a loop:
// pending until every kernel (and every call, in a helper) that runs the
// loop is judged (settleLoopFixes).
bool describeLoopFix(const KernelInfo &k, const WarpExchange &ex, Finding &f) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  std::shared_ptr<const UnitHelperTails> keep;
  const WarpLoopTree *t = loopTreeAt(first.loc, keep);
  if (!t)
    return false;
  nlohmann::json fix = {{"kind", "warp-tail-shuffle"}, {"form", "loop"}};
  std::string why = t->refusal;
  if (why.empty() && !t->span.valid())
    why = "the loop is not written in one place of a file";
  if (!why.empty()) {
    fix["safety"] = "refused";
    fix["reason"] = "a per-warp tree written as a loop: " + why;
    f.notes.push_back({{}, "no shuffle fix: " + fix["reason"].get<std::string>()});
    f.details["fix"] = fix;
    return true;
  }
  fix["form"] = t->accName.empty() ? "loop" : "loop-register";
  fix["safety"] = "pending";
  fix["loop_key"] = loopKey(*t);
  fix["call"] = first.callChain.empty() ? std::string() : locKey(first.callChain.back());
  fix["call_reason"] = loopExchangeRefusal(k, ex, *t);
  fix["exchange_array"] = ex.array;
  f.details["fix"] = fix;
  Fix x;
  x.description = "move the per-warp tree loop over '" + arraysOf(*t) + "' (lines " + std::to_string(t->firstLine) +
                  "-" + std::to_string(t->lastLine) + ") into registers: __shfl_down_sync(0xffffffff, ..., 16 ... 1), lanes " +
                  "under 16 storing their last value to " + t->array + "[" + t->indexText + "] once";
  if (t->chains.size() > 1)
    x.description = "move the per-warp tree loop over '" + arraysOf(*t) + "' (lines " + std::to_string(t->firstLine) +
                    "-" + std::to_string(t->lastLine) + ", " + std::to_string(t->chains.size()) +
                    " arrays in one loop) into registers: __shfl_down_sync(0xffffffff, ..., 16 ... 1) for each, lanes "
                    "under 16 storing their last values once";
  if (t->inHelper)
    x.description += " (in the __device__ function '" + t->function + "')";
  x.subject = loopSubject(*t);
  x.replacements.push_back({t->span.file, t->span.offset, t->span.length, ""}); // text set when settled
  f.fixes.push_back(x);
  return true;
}

} // namespace

void describeWarpTailFix(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, Finding &f) {
  if (describeLoopFix(k, ex, f))
    return;
  if (describeHelperFix(k, ex, sync, f))
    return; // settled with the helper's other calls (settleHelperTailFixes)
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

namespace warplint {

namespace {

bool sameFile(const std::string &a, const std::string &b) {
  llvm::SmallString<256> ra, rb;
  if (llvm::sys::fs::real_path(a, ra) || llvm::sys::fs::real_path(b, rb))
    return a == b;
  return ra == rb;
}


// "" when no file beside the header `header` other than `mainFile` includes
// it (so that the calls this unit shows are all the calls there are); the
// reason otherwise. A header outside the main file's directory may be
// included by other programs: refused.
std::string headerOnlyHere(const std::string &header, const std::string &mainFile) {
  llvm::SmallString<256> h, m;
  if (llvm::sys::fs::real_path(header, h) || llvm::sys::fs::real_path(mainFile, m))
    return "it is written in '" + header + "', whose other includers cannot be listed";
  llvm::StringRef dir = llvm::sys::path::parent_path(h), name = llvm::sys::path::filename(h);
  if (dir != llvm::sys::path::parent_path(m))
    return "it is written in '" + header + "', outside the directory of the file analyzed: other programs may "
           "include it and call it, and only this file's calls are checked";
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef path = it->path(), ext = llvm::sys::path::extension(path);
    if (!(ext == ".cu" || ext == ".cuh" || ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".cpp" ||
          ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".inc" || ext == ".inl"))
      continue;
    llvm::SmallString<256> p;
    if (llvm::sys::fs::real_path(path, p) || p == h || p == m)
      continue;
    auto buf = llvm::MemoryBuffer::getFile(p);
    if (!buf)
      return "'" + path.str() + "', beside it, cannot be read to see whether it includes it";
    ++files;
    llvm::SmallVector<llvm::StringRef, 0> lines;
    (*buf)->getBuffer().split(lines, '\n');
    for (llvm::StringRef line : lines) {
      llvm::StringRef l = line.ltrim();
      if (!l.consume_front("#"))
        continue;
      l = l.ltrim();
      if (l.starts_with("include") && l.contains(name))
        return "'" + llvm::sys::path::filename(path).str() + "', beside it, includes it too, and only this file's "
               "calls are checked";
    }
  }
  if (ec)
    return "the directory of '" + header + "' cannot be listed to see what else includes it";
  (void)files;
  return "";
}

bool wholeWarps(const BlockShape &b) { return b.y == 1 && b.z == 1 && b.x % 32 == 0; }

// The loop-form fixes left pending by describeLoopFix: the loop is rewritten
// only when every kernel that runs it (through every call, in a helper) is
// shown exact by its exchanges, one per array the loop reduces, under blocks
// of whole warps; kernels whose every block is not a multiple of 32 threads
// keep the loop as written behind `if (blockDim.x % 32 == 0)`.
void settleLoopFixes(const TranslationUnitResult &unit, std::vector<Finding> &findings) {
  std::map<std::string, std::vector<Finding *>> pending; // by loop
  for (Finding &f : findings)
    if (f.rule == "warp-shuffle-candidate" && f.details.contains("fix") &&
        f.details["fix"].value("safety", "") == "pending" && f.details["fix"].contains("loop_key"))
      pending[f.details["fix"].value("loop_key", "")].push_back(&f);
  if (pending.empty())
    return;
  std::shared_ptr<const UnitHelperTails> tails = helperTailsOfUnit(unit.file);
  for (auto &[key, fs] : pending) {
    const WarpLoopTree *t = nullptr;
    if (tails)
      for (const WarpLoopTree &x : tails->loops)
        if (loopKey(x) == key)
          t = &x;
    std::string why;
    if (!t)
      why = "the loop's facts are not known for this file";
    else if (!sameFile(t->loc.file, unit.file))
      why = headerOnlyHere(t->loc.file, unit.file);
    // Per (kernel, call): the arrays whose exchange proves it, the first reason against.
    struct Run {
      std::set<std::string> proven;
      std::string against;
    };
    std::map<std::pair<size_t, std::string>, Run> runs;
    for (Finding *f : fs) {
      const nlohmann::json &fix = f->details["fix"];
      Run &r = runs[{f->kernelIndex, fix.value("call", "")}];
      std::string reason = fix.value("call_reason", "");
      if (!reason.empty() && r.against.empty())
        r.against = reason;
      else if (reason.empty())
        r.proven.insert(fix.value("exchange_array", ""));
    }
    // What the AST rules out comes first: a call's arguments.
    if (t && why.empty() && t->inHelper)
      for (const HelperTailCall &c : t->calls)
        if (!c.problem.empty()) {
          why = "the call at line " + std::to_string(c.loc.line) + " in '" + c.caller + "': " + c.problem;
          break;
        }
    bool guarded = false, anyProven = false;
    std::string firstKept;
    std::set<std::string> callsRun;
    for (size_t ki = 0; t && why.empty() && ki < unit.kernels.size(); ++ki) {
      const KernelInfo &k = unit.kernels[ki];
      std::set<std::string> seen;
      for (const MemoryAccess &a : k.accesses) {
        if (a.loc.file != t->loc.file || a.loc.line < t->firstLine || a.loc.line > t->lastLine)
          continue;
        std::string call = a.callChain.empty() ? std::string() : locKey(a.callChain.back());
        if (!seen.insert(call).second)
          continue;
        callsRun.insert(call);
        std::string where = (a.callChain.empty() ? std::string("in kernel '")
                                                  : "the call at line " + std::to_string(a.callChain.back().line) +
                                                        " in kernel '") +
                            k.name + k.templateArgs + "'";
        if (k.blockShapeAssumed) {
          why = where + ": the block shape is assumed (" + k.blockShapeSource +
                "): the tiles are whole warps only when the block is a multiple of 32 threads, which no launch here "
                "shows";
          break;
        }
        bool whole = !k.blockShapes.empty() &&
                     std::all_of(k.blockShapes.begin(), k.blockShapes.end(), wholeWarps);
        bool none = !k.blockShapes.empty() && std::none_of(k.blockShapes.begin(), k.blockShapes.end(),
                                                           [](const BlockShape &b) { return b.x % 32 == 0; });
        if (none) { // blockDim.x % 32 != 0 in every launch: the loop as written runs there
          guarded = true;
          if (firstKept.empty())
            firstKept = "the block " + k.blockShapes.front().str() +
                        " is not one-dimensional with a multiple of 32 threads: a tile would not be one whole warp";
          continue;
        }
        if (!whole) {
          for (const BlockShape &b : k.blockShapes)
            if (!wholeWarps(b)) {
              why = where + ": the block " + b.str() + " is not one-dimensional with a multiple of 32 threads" +
                    (b.x % 32 == 0 ? " (its x is, so `blockDim.x % 32 == 0` cannot set it apart)"
                                   : " where its other launches' blocks are") +
                    ": a tile would not be one whole warp";
              break;
            }
          if (why.empty())
            why = where + ": no block shape of its launches is known";
          break;
        }
        auto r = runs.find({ki, call});
        if (r == runs.end()) {
          why = where + ": the warp model shows no exchange there to prove the rewrite exact";
          if (k.warpExchanges && !k.warpExchanges->gaps.empty())
            why += " (it could not follow " + k.warpExchanges->gaps.front() + ")";
        }
        else if (!r->second.against.empty())
          why = where + ": " + r->second.against;
        else if (r->second.proven.size() < t->chains.size())
          why = where + ": the warp model shows an exchange on " + std::to_string(r->second.proven.size()) + " of the " +
                std::to_string(t->chains.size()) + " arrays the loop reduces; the others are not proven";
        else
          anyProven = true;
        if (!why.empty())
          break;
      }
    }
    if (t && why.empty() && t->inHelper)
      for (const HelperTailCall &c : t->calls) {
        if (!callsRun.count(locKey(c.loc))) {
          why = "the call at line " + std::to_string(c.loc.line) + " in '" + c.caller +
                "' is in no kernel the analysis ran, so nothing proves it safe";
          break;
        }
      }
    if (t && why.empty() && !anyProven)
      why = firstKept.empty() ? "no kernel runs it in blocks of whole warps" : firstKept;
    std::string text = t && why.empty() ? loopBody(*t, guarded) : "";
    for (Finding *f : fs) {
      nlohmann::json &fix = f->details["fix"];
      std::pair<size_t, std::string> run{f->kernelIndex, fix.value("call", "")};
      for (const char *temp : {"loop_key", "call", "call_reason", "exchange_array"})
        fix.erase(temp);
      const KernelInfo &k = unit.kernels[f->kernelIndex];
      bool kept = !k.blockShapes.empty() && std::none_of(k.blockShapes.begin(), k.blockShapes.end(),
                                                         [](const BlockShape &b) { return b.x % 32 == 0; });
      if (why.empty() && !kept && !f->fixes.empty()) {
        f->fixes.front().replacements.front().text = text;
        fix["safety"] = "safe";
        if (t->inHelper) {
          fix["helper"] = t->function;
          fix["calls"] = t->calls.size();
        }
        if (guarded)
          fix["guard"] = "blockDim.x % 32 == 0";
        std::string what = t->chains.size() > 1 ? "every element of " + arraysOf(*t)
                                                : "every element of " + t->array;
        f->notes.push_back(
            {{}, "fix (--fix): " + f->fixes.front().description + "; every lane's " +
                     (t->accName.empty() ? std::string("running value")
                                         : t->chains.size() > 1 ? std::string("running values")
                                                                : "'" + t->accName + "'") +
                     " and " + what +
                     " end bit for bit as the loop leaves them (same additions, same order), so later reads need no "
                     "proof" +
                     (t->inHelper ? "; every one of the " + std::to_string(t->calls.size()) + " call(s) of '" +
                                        t->function + "' in this file is proven"
                                  : std::string()) +
                     (guarded ? "; kernels launched with blocks that are not whole warps keep the loop as written "
                                "(`if (blockDim.x % 32 == 0)`)"
                              : std::string())});
        f->details["subject"] = f->fixes.front().subject;
        continue;
      }
      f->fixes.clear();
      fix["safety"] = "refused";
      if (why.empty()) // this kernel's blocks are not whole warps: the fix keeps the loop for it
        fix["reason"] = "a per-warp tree written as a loop: the block " + k.blockShapes.front().str() +
                        " is not one-dimensional with a multiple of 32 threads; the fix of the loop (through the "
                        "other kernels' findings) keeps the loop as written for it, behind `if (blockDim.x % 32 == 0)`";
      else
        fix["reason"] = "a per-warp tree written as a loop: " +
                        (t && t->inHelper ? "the loop in the __device__ function '" + t->function +
                                                "' is rewritten only when every call of it is proven exact; "
                                          : std::string()) +
                        why;
      f->notes.push_back({{}, "no shuffle fix: " + fix["reason"].get<std::string>()});
    }
  }
}

} // namespace

void settleHelperTailFixes(const TranslationUnitResult &unit, std::vector<Finding> &findings) {
  settleLoopFixes(unit, findings);
  std::map<std::string, std::vector<Finding *>> pending; // by helper
  for (Finding &f : findings)
    if (f.rule == "warp-shuffle-candidate" && f.details.contains("fix") && f.details["fix"].value("safety", "") == "pending")
      pending[f.details["fix"].value("helper_key", "")].push_back(&f);
  if (pending.empty())
    return;
  std::shared_ptr<const UnitHelperTails> tails = helperTailsOfUnit(unit.file);
  for (auto &[key, fs] : pending) {
    const HelperWarpTail *h = nullptr;
    std::shared_ptr<const UnitHelperTails> keep = tails;
    if (tails)
      for (const HelperWarpTail &x : tails->helpers)
        if (helperKey(x) == key)
          h = &x;
    std::string why;
    if (!h)
      why = "the calls of the helper in this file are not known";
    // Only this unit's calls are checked: a helper in a header may have
    // callers in other files that include it.
    else if (!sameFile(h->tail.loc.file, unit.file))
      why = "it is written in '" + h->tail.loc.file +
            "', not in the file analyzed: other files that include it may call it, and only this file's calls "
            "are checked";
    // Every (kernel, call) the warp model inlined the helper at needs a
    // finding whose verdict is safe; every call the AST shows needs a kernel.
    std::map<std::pair<size_t, std::string>, std::string> verdicts; // (kernel, call) -> reason
    for (Finding *f : fs)
      verdicts[{f->kernelIndex, f->details["fix"].value("call", "")}] = f->details["fix"].value("call_reason", "");
    std::set<std::string> callsRun;
    for (size_t ki = 0; h && ki < unit.kernels.size() && why.empty(); ++ki) {
      const KernelInfo &k = unit.kernels[ki];
      std::set<std::string> seen;
      for (const MemoryAccess &a : k.accesses) {
        if (a.callChain.empty() || a.loc.file != h->tail.loc.file || a.loc.line < h->tail.firstLine ||
            a.loc.line > h->tail.lastLine)
          continue;
        std::string call = locKey(a.callChain.back());
        if (!seen.insert(call).second)
          continue;
        callsRun.insert(call);
        std::string name = "'" + k.name + k.templateArgs + "'";
        auto v = verdicts.find({ki, call});
        if (v == verdicts.end())
          why = "the call at line " + std::to_string(a.callChain.back().line) + " in kernel " + name +
                ": the warp model shows no exchange there to prove the rewrite exact";
        else if (!v->second.empty())
          why = "the call at line " + std::to_string(a.callChain.back().line) + " in kernel " + name + ": " + v->second;
        if (!why.empty())
          break;
      }
    }
    if (h && why.empty())
      for (const HelperTailCall &c : h->calls)
        if (!callsRun.count(locKey(c.loc))) {
          why = "the call at line " + std::to_string(c.loc.line) + " in '" + c.caller +
                "' is in no kernel the analysis ran, so nothing proves it safe";
          break;
        }
    for (Finding *f : fs) {
      nlohmann::json &fix = f->details["fix"];
      std::string helper = fix.value("helper", "");
      fix.erase("call_reason");
      fix.erase("helper_key");
      fix.erase("call"); // call_line stays
      if (why.empty() && !f->fixes.empty()) {
        fix["safety"] = "safe";
        fix["steps"] = h->tail.steps.size();
        fix["calls"] = h->calls.size();
        f->notes.push_back({{}, "fix (--fix): " + f->fixes.front().description + "; every one of the " +
                                    std::to_string(h->calls.size()) + " call(s) of '" + helper +
                                    "' in this file is proven exact: " + h->tail.array +
                                    "[0] gets the same value bit for bit (same operator, same order), and no later "
                                    "code reads the other lanes' partial results"});
        f->details["subject"] = f->fixes.front().subject;
        continue;
      }
      if (why.empty())
        why = "the helper's body is not written in one place of a file";
      f->fixes.clear();
      fix["safety"] = "refused";
      fix["reason"] = "the helper '" + helper + "' is rewritten only when every call of it is proven exact; " + why;
      f->notes.push_back({{}, "no shuffle fix: " + fix["reason"].get<std::string>()});
    }
  }
}

} // namespace warplint
