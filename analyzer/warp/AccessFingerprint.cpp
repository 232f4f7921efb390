#include "analyzer/warp/AccessFingerprint.h"

#include <atomic>
#include <charconv>
#include <cstdint>
#include <unordered_map>

namespace warplint {

namespace {

// Serializes expression DAGs node by node, each node once, children by the
// number they were given: the text is as long as the DAG, not its tree, and
// equal text means equal structure. Symbols by kind and index (what a
// binding reads) and name (what messages print); loops by id, variable,
// recurrence and condition.
class Serializer {
public:
  explicit Serializer(std::string &out) : out_(out) {}

  int expr(const IndexExpr &e) {
    if (auto it = exprs_.find(&e); it != exprs_.end())
      return it->second;
    // Children first, their numbers kept on the stack for the usual few
    // operands (a heap vector and string temporaries per node were most of
    // a stencil file's fingerprinting; issue 19).
    constexpr size_t kInline = 4;
    int inlineIds[kInline];
    std::vector<int> moreIds;
    size_t n = e.operands.size();
    if (n > kInline)
      moreIds.resize(n);
    int *children = n > kInline ? moreIds.data() : inlineIds;
    for (size_t i = 0; i < n; ++i)
      children[i] = expr(*e.operands[i]);
    int loop = e.op == ExprOp::LoopVar && e.loop ? recurrence(*e.loop) : -1;
    int id = next_++;
    out_ += 'n';
    appendInt(static_cast<int>(e.op));
    switch (e.op) {
    case ExprOp::Const:
      out_ += ':';
      appendInt(e.value);
      break;
    case ExprOp::Sym:
      out_ += ':';
      appendInt(static_cast<int>(e.sym.kind));
      out_ += ',';
      appendInt(e.sym.index);
      out_ += ',';
      if (e.sym.boolean)
        out_ += 'b';
      out_ += e.sym.name;
      break;
    case ExprOp::Unknown:
      out_ += ':';
      out_ += e.unknownReason;
      break;
    case ExprOp::LoopVar:
      out_ += ":L";
      appendInt(loop);
      break;
    default: break;
    }
    for (size_t i = 0; i < n; ++i) {
      out_ += ',';
      appendInt(children[i]);
    }
    out_ += ';';
    exprs_.emplace(&e, id);
    return id;
  }

private:
  void appendInt(int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }

  int recurrence(const LoopRecurrence &r) {
    if (auto it = loops_.find(&r); it != loops_.end())
      return it->second;
    // Numbered before its parts: the condition reads the loop's own variable.
    int id = nextLoop_++;
    loops_.emplace(&r, id);
    int init = r.init ? expr(*r.init) : -1, step = r.step ? expr(*r.step) : -1, cond = r.cond ? expr(*r.cond) : -1;
    out_ += 'L' + std::to_string(id) + '=' + std::to_string(r.loopId) + ',' + r.var + ',' +
            std::to_string(static_cast<int>(r.stepOp)) + ',' + std::to_string(init) + ',' + std::to_string(step) + ',' +
            std::to_string(cond) + ';';
    return id;
  }

  std::string &out_;
  std::unordered_map<const IndexExpr *, int> exprs_;
  std::unordered_map<const LoopRecurrence *, int> loops_;
  int next_ = 0, nextLoop_ = 0;
};

void appendShape(std::string &out, const BlockShape &s) {
  out += '(' + std::to_string(s.x) + ',' + std::to_string(s.y) + ',' + std::to_string(s.z) + ')';
}

void appendValues(std::string &out, const std::map<int, int64_t> &values) {
  out += '{';
  for (auto &[k, v] : values)
    out += std::to_string(k) + '=' + std::to_string(v) + ',';
  out += '}';
}

// A number per expression structure: equal numbers mean equal structure,
// for the whole run and across threads (the numbers come from one counter,
// each given to one text). Kept per expression pointer, with a reference
// held so that the pointer is not reused: the accesses under one `if` share
// their guards' expressions, and an access's retries and its tally ask for
// its address again (sw4ck serialized 6,039 address-and-guards lists of
// about 1.1 KB of text each when they were serialized together; issue 19).
// An address and its guards are serialized apart: what their evaluation
// reads is each one's structure, in that order (loops are told apart by id).
int64_t structureNumber(const ExprRef &e) {
  static std::atomic<int64_t> next{0};
  thread_local std::unordered_map<const IndexExpr *, std::pair<ExprRef, int64_t>> byPointer;
  thread_local std::unordered_map<std::string, int64_t> byText;
  if (auto it = byPointer.find(e.get()); it != byPointer.end())
    return it->second.second;
  if (byPointer.size() >= 16384) { // bounded (about 16 MB of text); numbers given stay unique
    byPointer.clear();
    byText.clear();
  }
  std::string text;
  Serializer(text).expr(*e);
  auto [at, fresh] = byText.try_emplace(std::move(text), 0);
  if (fresh)
    at->second = next++;
  byPointer.emplace(e.get(), std::make_pair(e, at->second));
  return at->second;
}

// The key of `head` (when given: an access's address, as "a<number>") and
// of `guards` (each as "|g<number>").
std::string keptText(const ExprRef &head, const std::vector<ExprRef> &guards) {
  std::string out;
  if (head)
    out += 'a' + std::to_string(structureNumber(head));
  for (auto &g : guards)
    out += "|g" + std::to_string(structureNumber(g));
  return out;
}

} // namespace

std::string guardsFingerprint(const std::vector<ExprRef> &guards) { return keptText(nullptr, guards); }

std::string guardsContextFingerprint(const std::vector<ExprRef> &guards, const BlockShape &block,
                                     const Binding &base) {
  std::string out = guardsFingerprint(guards) + "|B";
  appendShape(out, block);
  out += "|G";
  appendShape(out, BlockShape{base.gridDim[0], base.gridDim[1], base.gridDim[2]});
  out += "|v" + std::to_string(base.paramValue) + "|p";
  appendValues(out, base.paramOverride);
  out += "|u"; // the swept values are bound here too
  appendValues(out, base.uniformOverride);
  return out;
}

std::string accessFingerprint(const GuardedAccess &access, AddressSpace space, const std::vector<BlockShape> &shapes,
                              const EvaluationOptions &opts) {
  // Every field of EvaluationOptions is written below: a new one must be too.
  // (grid; symbolicValue, sweepBudget; maxIterationsPerLoop, maxBindings;
  // the two override maps; everyWarp and lastBlock, padded; blockIndex.)
  static_assert(sizeof(EvaluationOptions) == sizeof(std::optional<BlockShape>) + 2 * sizeof(int64_t) + 2 * sizeof(int) +
                                                 2 * sizeof(std::map<int, int64_t>) + 8 + 3 * sizeof(int64_t),
                "EvaluationOptions changed: add the new option to accessFingerprint");
  std::string out = keptText(access.byteOffset, access.guards);
  out += "|w" + std::to_string(access.widthBytes) + "|s" + std::to_string(static_cast<int>(access.space)) + "|f" +
         std::to_string(static_cast<int>(space)) + "|e" + std::to_string(access.extentBytes) +
         (access.store ? "|st" : "") + "|shapes";
  for (auto &s : shapes)
    appendShape(out, s);
  out += "|grid";
  if (opts.grid)
    appendShape(out, *opts.grid);
  out += "|v" + std::to_string(opts.symbolicValue) + "|i" + std::to_string(opts.maxIterationsPerLoop) + "|b" +
         std::to_string(opts.maxBindings) + "|B" + std::to_string(opts.sweepBudget) + "|p";
  appendValues(out, opts.paramOverrides);
  out += "|u";
  appendValues(out, opts.uniformOverrides);
  out += "|o" + std::to_string(opts.everyWarp) + std::to_string(opts.lastBlock) + "|k" +
         std::to_string(opts.blockIndex[0]) + ',' + std::to_string(opts.blockIndex[1]) + ',' +
         std::to_string(opts.blockIndex[2]);
  return out;
}

} // namespace warplint
