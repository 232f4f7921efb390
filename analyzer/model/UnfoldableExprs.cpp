#include "analyzer/model/UnfoldableExprs.h"

using namespace clang;

namespace warplint {

bool UnfoldableExprs::surely(const Expr *e) {
  if (!cplusplus_ || !e)
    return false; // C reads const-less integers in some folds; not needed here
  e = e->IgnoreParens();
  auto it = known_.find(e);
  if (it != known_.end())
    return it->second;
  bool result = compute(e);
  known_[e] = result;
  return result;
}

bool UnfoldableExprs::compute(const Expr *e) {
  if (e->isValueDependent() || e->containsErrors())
    return false;
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (!v || v->getType()->isReferenceType())
      return false;
    // A parameter has no value outside a call being evaluated.
    if (isa<ParmVarDecl>(v))
      return true;
    // C++ never reads a non-const, non-constexpr variable in a constant
    // evaluation ("read of non-const variable").
    return v->hasLocalStorage() && !v->isConstexpr() && !v->getType().isConstQualified() &&
           !v->getType().isVolatileQualified();
  }
  if (auto *cast = dyn_cast<ImplicitCastExpr>(e)) {
    switch (cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_IntegralToBoolean:
      return surely(cast->getSubExpr());
    default:
      return false;
    }
  }
  if (auto *u = dyn_cast<UnaryOperator>(e)) {
    switch (u->getOpcode()) {
    case UO_Minus:
    case UO_Plus:
    case UO_Not:
    case UO_LNot:
      return surely(u->getSubExpr());
    default:
      return false;
    }
  }
  if (auto *b = dyn_cast<BinaryOperator>(e)) {
    // Operators that evaluate both operands and fail where either does; the
    // short-circuiting ones, the comma and assignments are left alone.
    if (b->isLogicalOp() || b->isCommaOp() || b->isAssignmentOp() || b->isCompoundAssignmentOp())
      return false;
    if (!b->getLHS()->getType()->isIntegralOrEnumerationType() ||
        !b->getRHS()->getType()->isIntegralOrEnumerationType())
      return false;
    return surely(b->getLHS()) || surely(b->getRHS());
  }
  return false;
}

} // namespace warplint
