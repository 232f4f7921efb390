// Parent maps of function bodies, each made once and shared by the facts that
// walk up from a statement of a kernel (or of a callee they follow): the
// pointer parameters' uses, the byte-pack windows and the private arrays each
// made their own, three walks of a stencil kernel's thousands of statements
// (issue 19). The maps are only read once made.
#pragma once

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

private:
  std::map<const clang::Stmt *, std::unique_ptr<clang::ParentMap>> maps_;
};

} // namespace warplint
