// Whether a host call starts GPU work, following visible host functions
// into their bodies (memoized per function, at most 8 calls deep).
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <map>

namespace warplint {

// Whether a call starts GPU work: Yes for a launch API, a CUDA library
// call or a visible host function whose body launches (at any depth);
// Unseen where the work cannot be seen: a function of the program (not a
// system header's) with no body in this unit, a visible one that calls
// such a function, or a call through a pointer. The standard library and
// the rest of the CUDA runtime are No.
enum class LaunchKind { No, Unseen, Yes };

class LaunchReach {
public:
  explicit LaunchReach(const clang::SourceManager &sm) : sm_(sm) {}
  LaunchKind ofCall(const clang::CallExpr *call, int depth = 0);
  LaunchKind ofFunction(const clang::FunctionDecl *fd, int depth);
  bool inSystemHeader(const clang::Decl *d) const;

private:
  LaunchKind ofBody(const clang::Stmt *s, int depth);

  const clang::SourceManager &sm_;
  std::map<const clang::FunctionDecl *, LaunchKind> memo_;
};

} // namespace warplint
