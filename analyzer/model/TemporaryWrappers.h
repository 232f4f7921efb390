// The nodes Clang wraps around a C++ temporary (cleanups, materialization,
// binding, a functional cast), which say nothing about the value inside.
#pragma once

#include "clang/AST/ExprCXX.h"

namespace warplint {

// The expression directly inside `e` when `e` is one of those wrappers;
// null otherwise. Callers loop, peeling their own kinds of node as well.
inline const clang::Expr *peelTemporaryWrapper(const clang::Expr *e) {
  using namespace clang;
  if (auto *ewc = dyn_cast<ExprWithCleanups>(e))
    return ewc->getSubExpr();
  if (auto *mte = dyn_cast<MaterializeTemporaryExpr>(e))
    return mte->getSubExpr();
  if (auto *bte = dyn_cast<CXXBindTemporaryExpr>(e))
    return bte->getSubExpr();
  if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(e))
    return fc->getSubExpr();
  return nullptr;
}

} // namespace warplint
