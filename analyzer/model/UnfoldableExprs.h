// Expressions clang's constant evaluator surely cannot fold to an integer,
// told without running it. ExprTranslator asks Expr::EvaluateAsInt at every
// integral node it translates; each call sets up a whole evaluation, and on
// stencil kernels (HeCBench sw4ck) half the translation time went to calls
// that fail at a parameter or a local. Conservative: true only where C++
// constant evaluation reads a value it never has (a function parameter, a
// non-const local) through operators that evaluate every operand; anything
// else (calls, member accesses, sizeof, &&, ||, ?:, casts other than the
// integral ones) is left to EvaluateAsInt.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace warplint {

class UnfoldableExprs {
public:
  explicit UnfoldableExprs(const clang::ASTContext &ctx) : cplusplus_(ctx.getLangOpts().CPlusPlus) {}

  // True only when EvaluateAsInt(e) fails; false says nothing.
  bool surely(const clang::Expr *e);

private:
  bool compute(const clang::Expr *e);
  bool cplusplus_;
  llvm::DenseMap<const clang::Expr *, bool> known_; // each node decided once
};

} // namespace warplint
