#include "rules/WarpShuffleFix.h"
#include "analyzer/facts/WarpHelperTails.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

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
    "a multiple of 32 threads (each tile one whole warp). Refused with the reason otherwise (a tile not 32 wide, a "
    "sync with a partial mask, a loop in a __device__ helper: its calls are not checked). Scans and broadcasts "
    "keep the rewrite in a note only. Comments inside the "
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

// Why the loop-form tree `t`, which this exchange runs in, cannot be
// rewritten exactly, or "".
std::string loopRefusal(const KernelInfo &k, const WarpExchange &ex, const WarpLoopTree &t) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  if (!t.refusal.empty())
    return t.refusal;
  if (!first.callChain.empty() || t.inHelper)
    return "the loop is in the __device__ function '" + t.function + "' (called at line " +
           std::to_string(first.callChain.empty() ? 0 : first.callChain.front().line) +
           "): rewriting it would need every call of it proven, which the fix does for unrolled tails only";
  if (t.array != ex.array)
    return "the loop's steps reach '" + t.array + "', not '" + ex.array + "'";
  if (k.blockShapeAssumed)
    return "the block shape is assumed (" + k.blockShapeSource +
           "): the tiles are whole warps only when the block is a multiple of 32 threads, which no launch here shows";
  for (const BlockShape &b : ex.shapes)
    if (b.y != 1 || b.z != 1 || b.x % 32 != 0)
      return "the block " + b.str() + " is not one-dimensional with a multiple of 32 threads: a tile would not be "
             "one whole warp";
  for (const WarpExchangeRead &r : ex.reads) {
    const MemoryAccess &a = k.accesses[r.access];
    if (!a.callChain.empty() || a.loc.file != t.loc.file || a.loc.line < t.firstLine || a.loc.line > t.lastLine)
      return "the exchange goes on outside the loop: " + at(a);
    for (int d : r.laneDeltas)
      if (d != 1 && d != 2 && d != 4 && d != 8 && d != 16)
        return "the load " + at(a) + " reads lane + " + std::to_string(d) + " in the warp model, not a halving step";
  }
  return "";
}

// The loop as shuffles. Every lane ends with the same register values and
// the array with the same elements as the loop gives: lane r < i adds, at
// step i, the value lane r + i holds (r + i < 2i, so that lane ran every
// earlier step and its register equals the element it stored), and stores
// only once, at the end, the value it last stored in the loop.
std::string loopBody(const WarpLoopTree &t) {
  const std::string &in = t.innerIndent, &o = t.valueName, &i = t.loopVar;
  std::string step = in.size() > t.indent.size() ? in.substr(t.indent.size()) : std::string("  ");
  std::string deeper = in + step;
  std::string own = t.array + "[" + t.indexText + "]";
  bool reg = !t.accName.empty();
  std::string acc = reg ? t.accName : t.accValueName;
  auto add = [&](const std::string &pad) {
    if (!t.tempName.empty())
      return pad + t.tempName + " = " + o + ";\n" + pad + acc + " += " + t.tempName + ";\n";
    return pad + acc + " += " + o + ";\n";
  };
  std::ostringstream os;
  os << "{\n"
     << in << "// per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as "
        "the loop did, and " << t.array << " ends with the same elements\n";
  if (reg) {
    // Step 16 reads the element lane + 16 holds, which the register need not equal.
    os << in << t.elementType << " " << o << " = __shfl_down_sync(0xffffffff, " << own << ", 16);\n"
       << in << "if (" << t.rankText << " < 16) {\n"
       << add(deeper) << in << "}\n"
       << in << "for (int " << i << " = 8; " << i << " > 0; " << i << " >>= 1) {\n"
       << deeper << o << " = __shfl_down_sync(0xffffffff, " << acc << ", " << i << ");\n"
       << deeper << "if (" << t.rankText << " < " << i << ") {\n"
       << add(deeper + step) << deeper << "}\n"
       << in << "}\n";
  } else {
    os << in << t.elementType << " " << acc << " = " << own << ";\n"
       << in << "for (int " << i << " = 16; " << i << " > 0; " << i << " >>= 1) {\n"
       << deeper << t.elementType << " " << o << " = __shfl_down_sync(0xffffffff, " << acc << ", " << i << ");\n"
       << deeper << "if (" << t.rankText << " < " << i << ")\n"
       << deeper << step << acc << " += " << o << ";\n"
       << in << "}\n";
  }
  os << in << "if (" << t.rankText << " < 16)\n" << in << step << own << " = " << acc << ";\n";
  if (!t.syncText.empty())
    os << in << t.syncText << ";\n";
  os << t.indent << "}";
  return withLineEndings(os.str(), t.span.text);
}

// The loop-form fix of one finding, when its exchange runs in such a loop.
bool describeLoopFix(const KernelInfo &k, const WarpExchange &ex, Finding &f) {
  const MemoryAccess &first = k.accesses[ex.reads.front().access];
  std::shared_ptr<const UnitHelperTails> keep;
  const WarpLoopTree *t = loopTreeAt(first.loc, keep);
  if (!t)
    return false;
  std::string why = loopRefusal(k, ex, *t);
  nlohmann::json fix = {{"kind", "warp-tail-shuffle"}, {"form", "loop"}};
  if (!why.empty() || !t->span.valid()) {
    if (why.empty())
      why = "the loop is not written in one place of a file";
    fix["safety"] = "refused";
    fix["reason"] = "a per-warp tree written as a loop: " + why;
    f.notes.push_back({{}, "no shuffle fix: " + fix["reason"].get<std::string>()});
    f.details["fix"] = fix;
    return true;
  }
  Fix x;
  x.description = "move the per-warp tree loop over '" + t->array + "' (lines " + std::to_string(t->firstLine) + "-" +
                  std::to_string(t->lastLine) + ") into registers: __shfl_down_sync(0xffffffff, ..., 16 ... 1), lanes " +
                  "under 16 storing their last value to " + t->array + "[" + t->indexText + "] once";
  x.subject = t->array + " warp tree loop";
  x.replacements.push_back({t->span.file, t->span.offset, t->span.length, loopBody(*t)});
  f.fixes.push_back(x);
  f.notes.push_back({{}, "fix (--fix): " + x.description + "; every lane's " +
                             (t->accName.empty() ? std::string("running value") : "'" + t->accName + "'") +
                             " and every element of " + t->array +
                             " end bit for bit as the loop leaves them (same additions, same order), so later "
                             "reads need no proof"});
  fix["safety"] = "safe";
  fix["form"] = t->accName.empty() ? "loop" : "loop-register";
  f.details["fix"] = fix;
  f.details["subject"] = x.subject;
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

} // namespace

void settleHelperTailFixes(const TranslationUnitResult &unit, std::vector<Finding> &findings) {
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
