// Parent maps of function bodies, each made once and shared by the facts that
// walk up from a statement of a kernel (or of a callee they follow): the
// pointer parameters' uses, the byte-pack windows and the private arrays each
// made their own, three walks of a stencil kernel's thousands of statements
// (issue 19). The maps are only read once made.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <memory>

namespace warplint {

class BodyParents {
public:
  const clang::ParentMap &of(const clang::Stmt *body) {
    std::unique_ptr<clang::ParentMap> &slot = maps_[body];
    if (!slot)
      slot = std::make_unique<clang::ParentMap>(const_cast<clang::Stmt *>(body));
    return *slot;
  }

  // The map of `fn`'s body when `s` lies in it; null otherwise (no body, or
  // `s` elsewhere: a caller then asks the unit's ASTContext map).
  const clang::ParentMap *holding(const clang::FunctionDecl *fn, const clang::Stmt *s) {
    if (!fn || !fn->getBody())
      return nullptr;
    const clang::ParentMap &pm = of(fn->getBody());
    return s == fn->getBody() || pm.hasParent(s) ? &pm : nullptr;
  }

  // `s`'s parent within its function: null at the top of the body, and at
  // a lambda's body (the unit's map gives its call operator there, a
  // function of its own; a body map gives the LambdaExpr).
  static const clang::Stmt *parentWithinFunction(const clang::ParentMap &pm, const clang::Stmt *s) {
    const clang::Stmt *p = pm.getParent(s);
    if (auto *lambda = llvm::dyn_cast_or_null<clang::LambdaExpr>(p); lambda && lambda->getBody() == s)
      return nullptr;
    return p;
  }

private:
  std::map<const clang::Stmt *, std::unique_ptr<clang::ParentMap>> maps_;
};

} // namespace warplint
