#include "analyzer/warp/GuardRanges.h"
#include "analyzer/warp/WarpBindings.h"

#include <algorithm>
#include <climits>
#include <optional>

namespace warplint {

namespace {

// Closed interval of values; 128-bit so that the bounds of sums and
// products are exact. A range outside int64 is given up (evaluate wraps).
struct Range {
  __int128 lo, hi;
};

std::optional<Range> checked(__int128 lo, __int128 hi) {
  if (lo < INT64_MIN || hi > INT64_MAX)
    return std::nullopt;
  return Range{lo, hi};
}

// The range of a 0/1 result that can be false, true or both.
Range boolean(bool canBeFalse, bool canBeTrue) { return {canBeTrue && !canBeFalse ? 1 : 0, canBeTrue ? 1 : 0}; }

class Ranges {
public:
  Ranges(const Binding &base, int iterations, bool lastBlock)
      : base_(base), iterations_(iterations), lastBlock_(lastBlock) {}

  std::optional<Range> of(const IndexExpr &e) {
    switch (e.op) {
    case ExprOp::Const: return Range{e.value, e.value};
    case ExprOp::Sym: return symbol(e.sym);
    case ExprOp::LoopVar: return loop(*e.loop);
    case ExprOp::Neg: {
      auto a = operand(e, 0);
      return a ? checked(-a->hi, -a->lo) : std::nullopt;
    }
    case ExprOp::Not: { // 1 where the operand is 0
      auto a = operand(e, 0);
      return a ? std::optional<Range>(boolean(nonZeroIn(*a), zeroIn(*a))) : std::nullopt;
    }
    default: break;
    }
    if (e.operands.size() != 2)
      return std::nullopt;
    auto a = operand(e, 0), b = operand(e, 1);
    if (!a || !b)
      return std::nullopt;
    switch (e.op) {
    case ExprOp::Add: return checked(a->lo + b->lo, a->hi + b->hi);
    case ExprOp::Sub: return checked(a->lo - b->hi, a->hi - b->lo);
    case ExprOp::Mul: {
      if (!fits(*a) || !fits(*b))
        return std::nullopt;
      __int128 p[4] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
      return checked(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
    }
    case ExprOp::Min: return Range{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    case ExprOp::Max: return Range{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    case ExprOp::Lt: return boolean(a->hi >= b->lo, a->lo < b->hi);
    case ExprOp::Le: return boolean(a->hi > b->lo, a->lo <= b->hi);
    case ExprOp::Gt: return boolean(a->lo <= b->hi, a->hi > b->lo);
    case ExprOp::Ge: return boolean(a->lo < b->hi, a->hi >= b->lo);
    case ExprOp::Eq: return boolean(!(a->lo == a->hi && b->lo == b->hi && a->lo == b->lo), a->lo <= b->hi && b->lo <= a->hi);
    case ExprOp::Ne: return boolean(a->lo <= b->hi && b->lo <= a->hi, !(a->lo == a->hi && b->lo == b->hi && a->lo == b->lo));
    case ExprOp::LAnd: return boolean(zeroIn(*a) || zeroIn(*b), nonZeroIn(*a) && nonZeroIn(*b));
    case ExprOp::LOr: return boolean(zeroIn(*a) && zeroIn(*b), nonZeroIn(*a) || nonZeroIn(*b));
    default: return std::nullopt;
    }
  }

private:
  static bool fits(const Range &r) { return r.lo >= INT64_MIN && r.hi <= INT64_MAX; }
  static bool zeroIn(const Range &r) { return r.lo <= 0 && r.hi >= 0; }
  static bool nonZeroIn(const Range &r) { return !(r.lo == 0 && r.hi == 0); }

  std::optional<Range> operand(const IndexExpr &e, size_t i) {
    return i < e.operands.size() && e.operands[i] ? of(*e.operands[i]) : std::nullopt;
  }

  std::optional<Range> symbol(const Symbol &s) {
    int d = s.index;
    bool dim = d >= 0 && d < 3;
    switch (s.kind) {
    case SymbolKind::ThreadIdx: return dim ? std::optional<Range>(Range{0, base_.blockDim[d] - 1}) : std::nullopt;
    case SymbolKind::BlockIdx: // blocks 0 and 1, or the grid's last
      if (!dim)
        return std::nullopt;
      return lastBlock_ ? Range{base_.gridDim[d] - 1, base_.gridDim[d] - 1} : Range{0, 1};
    case SymbolKind::BlockDim: return dim ? std::optional<Range>(Range{base_.blockDim[d], base_.blockDim[d]}) : std::nullopt;
    case SymbolKind::GridDim: return dim ? std::optional<Range>(Range{base_.gridDim[d], base_.gridDim[d]}) : std::nullopt;
    case SymbolKind::Param: {
      auto it = base_.paramOverride.find(d);
      int64_t v = it != base_.paramOverride.end() ? it->second : base_.paramValue;
      return Range{v, v};
    }
    case SymbolKind::Uniform: {
      auto it = base_.uniformOverride.find(d);
      int64_t v = it != base_.uniformOverride.end() ? it->second : base_.paramValue;
      return Range{v, v};
    }
    }
    return std::nullopt;
  }

  // init + k * step (or - k * step) for k in [0, iterations): the closed form
  // the model evaluates a loop variable by.
  std::optional<Range> loop(const LoopRecurrence &l) {
    if ((l.stepOp != ExprOp::Add && l.stepOp != ExprOp::Sub) || !l.init || !l.step || iterations_ < 1)
      return std::nullopt;
    auto init = of(*l.init), step = of(*l.step);
    if (!init || !step || !fits(*step))
      return std::nullopt;
    __int128 k = iterations_ - 1;
    __int128 lo = std::min<__int128>(0, k * step->lo), hi = std::max<__int128>(0, k * step->hi);
    if (l.stepOp == ExprOp::Sub)
      std::swap(lo, hi), lo = -lo, hi = -hi;
    return checked(init->lo + lo, init->hi + hi);
  }

  const Binding &base_;
  int iterations_;
  bool lastBlock_;
};

} // namespace

bool guardNeverPassesUnder(const IndexExpr &guard, const Binding &block, const EvaluationOptions &opts) {
  auto r = Ranges(block, opts.maxIterationsPerLoop, opts.lastBlock).of(guard);
  return r && r->lo == 0 && r->hi == 0;
}

bool guardNeverPasses(const IndexExpr &guard, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts) {
  return !shapes.empty() && std::all_of(shapes.begin(), shapes.end(), [&](const BlockShape &shape) {
    return guardNeverPassesUnder(guard, blockBinding(shape, opts), opts);
  });
}

} // namespace warplint
