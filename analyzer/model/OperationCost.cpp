#include "analyzer/model/OperationCost.h"

#include <set>
#include <string>

namespace warplint {

using namespace clang;

OperationCost operationCost(const Expr *e) {
  OperationCost c;
  int fp64 = e->getType()->isSpecificBuiltinType(BuiltinType::Double) ? 1 : 0;
  auto one = [&] { return OperationCost{1, 0, fp64, false}; };
  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    if (bo->getOpcode() == BO_Assign || bo->getOpcode() == BO_Comma)
      return c;
    // a * b + c on floating point is one fused multiply-add: the add is free.
    auto isFloatMul = [](const Expr *x) {
      auto *m = dyn_cast<BinaryOperator>(x->IgnoreParenImpCasts());
      return m && m->getOpcode() == BO_Mul && m->getType()->isRealFloatingType();
    };
    bool addLike = bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub || bo->getOpcode() == BO_AddAssign ||
                   bo->getOpcode() == BO_SubAssign;
    if (addLike && bo->getType()->isRealFloatingType() && (isFloatMul(bo->getLHS()) || isFloatMul(bo->getRHS())))
      return c;
    return one();
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e))
    return uo->getOpcode() != UO_AddrOf && uo->getOpcode() != UO_Deref && uo->getOpcode() != UO_Plus ? one() : c;
  if (isa<ConditionalOperator>(e))
    return {1, 0, 0, false};
  if (auto *ice = dyn_cast<ImplicitCastExpr>(e)) {
    CastKind k = ice->getCastKind();
    return k == CK_IntegralToFloating || k == CK_FloatingToIntegral || k == CK_FloatingCast ? one() : c;
  }
  if (auto *call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *fd = call->getDirectCallee();
    std::string name = fd ? fd->getNameAsString() : "";
    if (name.rfind("__syncthreads", 0) == 0 || name == "__syncwarp" || name == "__barrier_sync")
      return {1, 0, 0, true};
    static const std::set<std::string> special{
        "sinf", "cosf", "tanf", "expf", "exp2f", "exp10f", "logf", "log2f", "log10f", "powf", "sqrtf",
        "rsqrtf", "__sinf", "__cosf", "__expf", "__logf", "__powf", "__fdividef", "sin", "cos", "exp",
        "log", "pow", "sqrt", "rsqrt", "tanhf", "tanh", "erff", "atanf", "atan2f", "sincosf", "cbrtf"};
    if (special.count(name))
      return {4, 1, fp64 * 4, false}; // a MUFU and its range reduction
    if (!name.empty())
      return one();
  }
  return c;
}

} // namespace warplint
