#include "analyzer/warp/ExprForms.h"

namespace warplint {

// Whether `e` reads a symbol `is` picks (as collectSymbols finds them: loop
// variables through their initial value and step). A walk that stops at the
// first, not a list of every symbol: affineIn asks at every node.
bool readsAny(const IndexExpr &e, const SymbolTest &is) {
  if (e.op == ExprOp::Sym)
    return is(e.sym);
  if (e.op == ExprOp::LoopVar)
    return readsAny(*e.loop->init, is) || readsAny(*e.loop->step, is);
  for (auto &o : e.operands)
    if (readsAny(*o, is))
      return true;
  return false;
}

bool isThreadIdx(const Symbol &s) { return s.kind == SymbolKind::ThreadIdx; }

// Whether `e` is affine in the symbols `is` picks, jointly, by its form:
// then e(x) = e(0) + sum_i x_i * (e(unit_i) - e(0)) exactly, and e(x) fails
// to evaluate exactly when e(0) does (the operators that can fail never see
// those symbols).
bool affineIn(const IndexExpr &e, const SymbolTest &is) {
  if (!readsAny(e, is))
    return true;
  switch (e.op) {
  case ExprOp::Sym:
    return true;
  case ExprOp::Add:
  case ExprOp::Sub:
    return affineIn(*e.operands[0], is) && affineIn(*e.operands[1], is);
  case ExprOp::Neg:
    return affineIn(*e.operands[0], is);
  case ExprOp::Mul:
    return (!readsAny(*e.operands[0], is) && affineIn(*e.operands[1], is)) ||
           (!readsAny(*e.operands[1], is) && affineIn(*e.operands[0], is));
  case ExprOp::Shl:
    return !readsAny(*e.operands[1], is) && affineIn(*e.operands[0], is);
  case ExprOp::LoopVar: // init +- k * step
    return (e.loop->stepOp == ExprOp::Add || e.loop->stepOp == ExprOp::Sub) && affineIn(*e.loop->init, is) &&
           affineIn(*e.loop->step, is);
  case ExprOp::Select: // a condition the symbols do not reach picks one affine arm for every x
    return !readsAny(*e.operands[0], is) && affineIn(*e.operands[1], is) && affineIn(*e.operands[2], is);
  default:
    return false;
  }
}

} // namespace warplint
