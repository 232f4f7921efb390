#include "analyzer/model/OffsetPolynomial.h"

#include <algorithm>

namespace warplint {

namespace {

// A polynomial with more terms than this is not worth proving things about.
constexpr size_t kMaxTerms = 64;

const char *const kThreadX = "threadIdx.0";
const std::string kLaneDependent = "lane-dependent ";

std::string symbolAtom(const Symbol &s) {
  switch (s.kind) {
  case SymbolKind::ThreadIdx: return "threadIdx." + std::to_string(s.index);
  case SymbolKind::BlockIdx: return "blockIdx." + std::to_string(s.index);
  case SymbolKind::BlockDim: return "blockDim." + std::to_string(s.index);
  case SymbolKind::GridDim: return "gridDim." + std::to_string(s.index);
  case SymbolKind::Param: return "param." + std::to_string(s.index);
  case SymbolKind::Uniform: return "uniform." + std::to_string(s.index);
  }
  return "?";
}

// A key that names the value of `e` exactly: equal keys, equal values under
// every binding (loops by id, not by their variable's name).
std::string opaqueKey(const IndexExpr &e) {
  switch (e.op) {
  case ExprOp::Const: return std::to_string(e.value);
  case ExprOp::Sym: return symbolAtom(e.sym);
  case ExprOp::LoopVar: return "loop." + std::to_string(e.loop->loopId);
  default: break;
  }
  std::string s = "(" + std::to_string(static_cast<int>(e.op));
  for (const ExprRef &o : e.operands)
    s += " " + opaqueKey(*o);
  return s + ")";
}

OffsetPolynomial constantPoly(int64_t v) {
  OffsetPolynomial p;
  if (v != 0)
    p.terms[{}] = v;
  return p;
}

OffsetPolynomial atomPoly(const std::string &atom) {
  OffsetPolynomial p;
  p.terms[{atom}] = 1;
  return p;
}

// Adds a*b to the coefficient of `m` in `out`; false on overflow.
bool addTerm(OffsetPolynomial &out, const std::vector<std::string> &m, int64_t a, int64_t b) {
  int64_t c, sum;
  if (__builtin_mul_overflow(a, b, &c) || __builtin_add_overflow(out.terms[m], c, &sum))
    return false;
  if (sum == 0)
    out.terms.erase(m);
  else
    out.terms[m] = sum;
  return true;
}

std::optional<OffsetPolynomial> addScaled(const OffsetPolynomial &a, const OffsetPolynomial &b, int64_t scale) {
  OffsetPolynomial out = a;
  for (const auto &[m, c] : b.terms)
    if (!addTerm(out, m, c, scale))
      return std::nullopt;
  if (out.terms.size() > kMaxTerms)
    return std::nullopt;
  return out;
}

std::optional<OffsetPolynomial> product(const OffsetPolynomial &a, const OffsetPolynomial &b) {
  OffsetPolynomial out;
  for (const auto &[ma, ca] : a.terms)
    for (const auto &[mb, cb] : b.terms) {
      std::vector<std::string> m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      if (!addTerm(out, m, ca, cb) || out.terms.size() > kMaxTerms)
        return std::nullopt;
    }
  return out;
}

std::optional<OffsetPolynomial> polynomial(const IndexExpr &e) {
  auto operand = [&](size_t i) { return polynomial(*e.operands[i]); };
  switch (e.op) {
  case ExprOp::Unknown:
    return std::nullopt;
  case ExprOp::Const:
    return constantPoly(e.value);
  case ExprOp::Sym:
    return atomPoly(symbolAtom(e.sym));
  case ExprOp::Add:
  case ExprOp::Sub: {
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return addScaled(*a, *b, e.op == ExprOp::Add ? 1 : -1);
  }
  case ExprOp::Neg: {
    auto a = operand(0);
    return a ? addScaled(OffsetPolynomial{}, *a, -1) : std::nullopt;
  }
  case ExprOp::Mul: {
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return product(*a, *b);
  }
  case ExprOp::Shl: {
    const IndexExpr &by = *e.operands[1];
    if (by.op == ExprOp::Const && by.value >= 0 && by.value < 62) {
      auto a = operand(0);
      return a ? addScaled(OffsetPolynomial{}, *a, int64_t(1) << by.value) : std::nullopt;
    }
    break;
  }
  case ExprOp::LoopVar: {
    // v_k = init + k*step (or - k*step), k = 0, 1, ...: k is an atom.
    const LoopRecurrence &rec = *e.loop;
    if (rec.stepOp != ExprOp::Add && rec.stepOp != ExprOp::Sub)
      break;
    auto init = polynomial(*rec.init), step = polynomial(*rec.step);
    if (!init || !step)
      return std::nullopt;
    auto moved = product(atomPoly(loopIterationAtom(rec.loopId)), *step);
    if (!moved)
      return std::nullopt;
    return addScaled(*init, *moved, rec.stepOp == ExprOp::Add ? 1 : -1);
  }
  default:
    break;
  }
  // Any other integer the model computes: one opaque atom, marked when
  // lanes may differ in it (laneCoefficient() then proves nothing).
  if (!e.isKnown())
    return std::nullopt;
  return atomPoly((e.dependsOn(SymbolKind::ThreadIdx) ? kLaneDependent : "") + opaqueKey(e));
}

} // namespace

std::optional<int64_t> OffsetPolynomial::constant() const {
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

bool OffsetPolynomial::divisibleBy(int64_t w) const {
  return std::all_of(terms.begin(), terms.end(), [&](const auto &t) { return t.second % w == 0; });
}

std::optional<int64_t> OffsetPolynomial::laneCoefficient() const {
  std::optional<int64_t> c;
  for (const auto &[m, coefficient] : terms) {
    for (const std::string &atom : m)
      if (atom.compare(0, kLaneDependent.size(), kLaneDependent) == 0)
        return std::nullopt;
    if (std::find(m.begin(), m.end(), kThreadX) == m.end())
      continue;
    if (m.size() != 1)
      return std::nullopt; // threadIdx.x times something else, or squared
    c = coefficient;
  }
  return c;
}

std::string loopIterationAtom(int loopId) { return "iteration." + std::to_string(loopId); }

std::optional<OffsetPolynomial> offsetPolynomial(const IndexExpr &e) { return polynomial(e); }

std::optional<OffsetPolynomial> difference(const OffsetPolynomial &a, const OffsetPolynomial &b) {
  return addScaled(a, b, -1);
}

} // namespace warplint
