#include "analyzer/model/IndexExpr.h"
#include "analyzer/Deadline.h"
#include "analyzer/model/WrappingArith.h"

#include <sstream>

namespace warplint {

ExprRef IndexExpr::constant(int64_t v) {
  auto e = std::make_shared<IndexExpr>();
  e->op = ExprOp::Const;
  e->value = v;
  return e;
}

ExprRef IndexExpr::symbol(Symbol s) {
  auto e = std::make_shared<IndexExpr>();
  e->op = ExprOp::Sym;
  e->sym = std::move(s);
  return e;
}

ExprRef IndexExpr::unknown(std::string why) {
  auto e = std::make_shared<IndexExpr>();
  e->op = ExprOp::Unknown;
  e->unknownReason = std::move(why);
  return e;
}

ExprRef IndexExpr::loopVar(std::shared_ptr<const LoopRecurrence> rec) {
  auto e = std::make_shared<IndexExpr>();
  e->op = ExprOp::LoopVar;
  e->loop = std::move(rec);
  return e;
}

ExprRef IndexExpr::make(ExprOp op, std::vector<ExprRef> operands) {
  // Fold constants and the identities that keep printed forms readable.
  bool allConst = !operands.empty();
  for (auto &o : operands)
    allConst = allConst && o->op == ExprOp::Const;
  auto e = std::make_shared<IndexExpr>();
  e->op = op;
  e->operands = std::move(operands);
  if (allConst) {
    Binding none;
    if (auto v = evaluate(*e, none))
      return constant(*v);
  }
  if (e->operands.size() == 2) {
    auto &a = e->operands[0], &b = e->operands[1];
    auto isConst = [](const ExprRef &x, int64_t v) { return x->op == ExprOp::Const && x->value == v; };
    if ((op == ExprOp::Add || op == ExprOp::Sub || op == ExprOp::Or || op == ExprOp::Xor ||
         op == ExprOp::Shl || op == ExprOp::Shr) && isConst(b, 0))
      return a;
    if ((op == ExprOp::Add || op == ExprOp::Or || op == ExprOp::Xor) && isConst(a, 0))
      return b;
    if ((op == ExprOp::Mul || op == ExprOp::Div) && isConst(b, 1))
      return a;
    if (op == ExprOp::Mul && isConst(a, 1))
      return b;
    if (op == ExprOp::Mul && (isConst(a, 0) || isConst(b, 0)))
      return constant(0);
  }
  return e;
}

bool IndexExpr::isKnown() const {
  if (op == ExprOp::Unknown)
    return false;
  // A loop's condition refers to the loop variable itself, so only init and
  // step are followed; an unknown bound is handled when iterating.
  if (op == ExprOp::LoopVar)
    return loop->init->isKnown() && loop->step->isKnown();
  for (auto &o : operands)
    if (!o->isKnown())
      return false;
  return true;
}

std::string IndexExpr::firstUnknownReason() const {
  if (op == ExprOp::Unknown)
    return unknownReason;
  if (op == ExprOp::LoopVar) {
    for (auto *p : {&loop->init, &loop->step})
      if (!(*p)->isKnown())
        return (*p)->firstUnknownReason();
    return {};
  }
  for (auto &o : operands)
    if (!o->isKnown())
      return o->firstUnknownReason();
  return {};
}

bool IndexExpr::dependsOn(SymbolKind k) const {
  if (op == ExprOp::Sym)
    return sym.kind == k;
  if (op == ExprOp::LoopVar)
    return loop->init->dependsOn(k) || loop->step->dependsOn(k);
  for (auto &o : operands)
    if (o->dependsOn(k))
      return true;
  return false;
}

bool IndexExpr::dependsOnLoop() const {
  if (op == ExprOp::LoopVar)
    return true;
  for (auto &o : operands)
    if (o->dependsOnLoop())
      return true;
  return false;
}

ExprRef substitute(const ExprRef &e, const Symbol &from, const ExprRef &to) {
  if (e->op == ExprOp::Sym)
    return e->sym == from ? to : e;
  if (e->op == ExprOp::LoopVar) {
    auto rec = std::make_shared<LoopRecurrence>(*e->loop);
    rec->init = substitute(rec->init, from, to);
    rec->step = substitute(rec->step, from, to);
    return IndexExpr::loopVar(rec);
  }
  if (e->operands.empty())
    return e;
  std::vector<ExprRef> ops;
  bool changed = false;
  for (auto &o : e->operands) {
    ops.push_back(substitute(o, from, to));
    changed = changed || ops.back() != o;
  }
  return changed ? IndexExpr::make(e->op, std::move(ops)) : e;
}

ExprRef laneCoefficient(const ExprRef &e, int dim) {
  auto zero = IndexExpr::constant(0);
  bool laneFree = !e->dependsOn(SymbolKind::ThreadIdx);
  if (laneFree && e->isKnown())
    return zero;
  switch (e->op) {
  case ExprOp::Sym:
    return IndexExpr::constant(e->sym.index == dim ? 1 : 0);
  case ExprOp::LoopVar: {
    // v_k = init + k*step: lanes differ only through init.
    if (e->loop->stepOp != ExprOp::Add && e->loop->stepOp != ExprOp::Sub)
      return nullptr;
    if (e->loop->step->dependsOn(SymbolKind::ThreadIdx))
      return nullptr;
    return laneCoefficient(e->loop->init, dim);
  }
  case ExprOp::Add:
  case ExprOp::Sub: {
    auto a = laneCoefficient(e->operands[0], dim), b = laneCoefficient(e->operands[1], dim);
    if (!a || !b)
      return nullptr;
    return IndexExpr::make(e->op, {a, b});
  }
  case ExprOp::Neg: {
    auto a = laneCoefficient(e->operands[0], dim);
    return a ? IndexExpr::make(ExprOp::Neg, {a}) : nullptr;
  }
  case ExprOp::Mul: {
    auto &x = e->operands[0], &y = e->operands[1];
    bool xFree = x->isWarpUniform(), yFree = y->isWarpUniform();
    if (xFree && yFree)
      return zero;
    if (xFree || yFree) {
      auto c = laneCoefficient(xFree ? y : x, dim);
      return c ? IndexExpr::mul(xFree ? x : y, c) : nullptr;
    }
    return nullptr;
  }
  case ExprOp::Shl: {
    if (!e->operands[1]->isWarpUniform())
      return nullptr;
    auto c = laneCoefficient(e->operands[0], dim);
    return c ? IndexExpr::make(ExprOp::Shl, {c, e->operands[1]}) : nullptr;
  }
  case ExprOp::Select: {
    if (!e->operands[0]->isWarpUniform())
      return nullptr;
    auto a = laneCoefficient(e->operands[1], dim), b = laneCoefficient(e->operands[2], dim);
    if (!a || !b)
      return nullptr;
    return IndexExpr::make(ExprOp::Select, {e->operands[0], a, b});
  }
  default:
    return laneFree && e->isKnown() ? zero : nullptr;
  }
}

void IndexExpr::collectSymbols(std::vector<Symbol> &out) const {
  if (op == ExprOp::Sym) {
    for (auto &s : out)
      if (s == sym)
        return;
    out.push_back(sym);
    return;
  }
  if (op == ExprOp::LoopVar) {
    loop->init->collectSymbols(out);
    loop->step->collectSymbols(out);
    return;
  }
  for (auto &o : operands)
    o->collectSymbols(out);
}

void IndexExpr::collectLoops(std::vector<std::shared_ptr<const LoopRecurrence>> &out) const {
  if (op == ExprOp::LoopVar) {
    for (auto &l : out)
      if (l->loopId == loop->loopId)
        return;
    out.push_back(loop);
    loop->init->collectLoops(out);
    loop->step->collectLoops(out);
    return;
  }
  for (auto &o : operands)
    o->collectLoops(out);
}

static const char *opSpelling(ExprOp op) {
  switch (op) {
  case ExprOp::Add: return " + ";
  case ExprOp::Sub: return " - ";
  case ExprOp::Mul: return "*";
  case ExprOp::Div: return " / ";
  case ExprOp::Rem: return " % ";
  case ExprOp::Shl: return " << ";
  case ExprOp::Shr: return " >> ";
  case ExprOp::And: return " & ";
  case ExprOp::Or: return " | ";
  case ExprOp::Xor: return " ^ ";
  case ExprOp::Lt: return " < ";
  case ExprOp::Le: return " <= ";
  case ExprOp::Gt: return " > ";
  case ExprOp::Ge: return " >= ";
  case ExprOp::Eq: return " == ";
  case ExprOp::Ne: return " != ";
  case ExprOp::LAnd: return " && ";
  case ExprOp::LOr: return " || ";
  default: return " ? ";
  }
}

namespace {

// IndexExpr::str's text, appended into one string (an ostringstream and a
// temporary string per node were 4% of a stencil file's time: the walker
// writes every access's index).
void appendExpr(const IndexExpr &e, std::string &out) {
  auto operand = [&](size_t i) { appendExpr(*e.operands[i], out); };
  switch (e.op) {
  case ExprOp::Const: out += std::to_string(e.value); break;
  case ExprOp::Sym: out += e.sym.name; break;
  case ExprOp::Unknown: out += '?'; break;
  case ExprOp::LoopVar: out += e.loop->var; break;
  case ExprOp::Neg: out += "-("; operand(0); out += ')'; break;
  case ExprOp::Not: out += "!("; operand(0); out += ')'; break;
  case ExprOp::BitNot: out += "~("; operand(0); out += ')'; break;
  case ExprOp::Min: case ExprOp::Max:
    out += e.op == ExprOp::Min ? "min(" : "max(";
    operand(0);
    out += ", ";
    operand(1);
    out += ')';
    break;
  case ExprOp::Select:
    out += '(';
    operand(0);
    out += " ? ";
    operand(1);
    out += " : ";
    operand(2);
    out += ')';
    break;
  default: {
    auto part = [&](size_t i) {
      const IndexExpr &o = *e.operands[i];
      bool paren = o.operands.size() >= 2 && o.op != e.op && o.op != ExprOp::Mul;
      if (paren)
        out += '(';
      appendExpr(o, out);
      if (paren)
        out += ')';
    };
    part(0);
    out += opSpelling(e.op);
    part(1);
  }
  }
}

} // namespace

std::string IndexExpr::str() const {
  std::string out;
  appendExpr(*this, out);
  return out;
}

std::optional<int64_t> loopValueAt(const LoopRecurrence &rec, const Binding &b, int64_t k) {
  auto v = evaluate(*rec.init, b);
  auto step = evaluate(*rec.step, b);
  if (!v || !step)
    return std::nullopt;
  int64_t x = *v;
  // Arithmetic steps have a closed form; the evaluator asks for many k.
  // Wrapping and checked arithmetic: WrappingArith.h says why.
  if (rec.stepOp == ExprOp::Add)
    return wrapAdd(x, wrapMul(k, *step));
  if (rec.stepOp == ExprOp::Sub)
    return wrapSub(x, wrapMul(k, *step));
  for (int64_t i = 0; i < k; ++i) {
    switch (rec.stepOp) {
    case ExprOp::Add: x = wrapAdd(x, *step); break;
    case ExprOp::Sub: x = wrapSub(x, *step); break;
    case ExprOp::Mul: x = wrapMul(x, *step); break;
    case ExprOp::Div: if (!divisible(x, *step)) return std::nullopt; x /= *step; break;
    case ExprOp::Shl: if (*step < 0 || *step > 62) return std::nullopt; x = wrapShl(x, *step); break;
    case ExprOp::Shr: if (*step < 0 || *step > 62) return std::nullopt; x >>= *step; break;
    default: return std::nullopt;
    }
  }
  return x;
}

std::optional<int64_t> evaluate(const IndexExpr &e, const Binding &b) {
  checkDeadline(); // every evaluation loop ends here: --time-limit stops it
  switch (e.op) {
  case ExprOp::Const: return e.value;
  case ExprOp::Unknown: return std::nullopt;
  case ExprOp::Sym: {
    int d = e.sym.index;
    switch (e.sym.kind) {
    case SymbolKind::ThreadIdx: return b.threadIdx[d];
    case SymbolKind::BlockIdx: return b.blockIdx[d];
    case SymbolKind::BlockDim: return b.blockDim[d];
    case SymbolKind::GridDim: return b.gridDim[d];
    case SymbolKind::Param: {
      auto it = b.paramOverride.find(d);
      return it != b.paramOverride.end() ? it->second : b.paramValue;
    }
    case SymbolKind::Uniform: {
      auto it = b.uniformOverride.find(d);
      return it != b.uniformOverride.end() ? it->second : b.paramValue;
    }
    }
    return std::nullopt;
  }
  case ExprOp::LoopVar: {
    auto it = b.loopIter.find(e.loop->loopId);
    if (it == b.loopIter.end())
      return std::nullopt;
    return loopValueAt(*e.loop, b, it->second);
  }
  default: break;
  }
  // Operands on the stack: this runs for every lane of every binding.
  int64_t v[3] = {0, 0, 0};
  if (e.operands.size() > 3)
    return std::nullopt;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    auto x = evaluate(*e.operands[i], b);
    if (!x)
      return std::nullopt;
    v[i] = *x;
  }
  switch (e.op) { // wrapping and checked: WrappingArith.h says why
  case ExprOp::Neg: return wrapNeg(v[0]);
  case ExprOp::Not: return v[0] == 0;
  case ExprOp::BitNot: return ~v[0];
  case ExprOp::Add: return wrapAdd(v[0], v[1]);
  case ExprOp::Sub: return wrapSub(v[0], v[1]);
  case ExprOp::Mul: return wrapMul(v[0], v[1]);
  case ExprOp::Div: if (!divisible(v[0], v[1])) return std::nullopt; return v[0] / v[1];
  case ExprOp::Rem: if (!divisible(v[0], v[1])) return std::nullopt; return v[0] % v[1];
  case ExprOp::Shl: if (v[1] < 0 || v[1] > 62) return std::nullopt; return wrapShl(v[0], v[1]);
  case ExprOp::Shr: if (v[1] < 0 || v[1] > 62) return std::nullopt; return v[0] >> v[1];
  case ExprOp::And: return v[0] & v[1];
  case ExprOp::Or: return v[0] | v[1];
  case ExprOp::Xor: return v[0] ^ v[1];
  case ExprOp::Min: return std::min(v[0], v[1]);
  case ExprOp::Max: return std::max(v[0], v[1]);
  case ExprOp::Lt: return v[0] < v[1];
  case ExprOp::Le: return v[0] <= v[1];
  case ExprOp::Gt: return v[0] > v[1];
  case ExprOp::Ge: return v[0] >= v[1];
  case ExprOp::Eq: return v[0] == v[1];
  case ExprOp::Ne: return v[0] != v[1];
  case ExprOp::LAnd: return v[0] && v[1];
  case ExprOp::LOr: return v[0] || v[1];
  case ExprOp::Select: return v[0] ? v[1] : v[2];
  default: return std::nullopt;
  }
}

} // namespace warplint
