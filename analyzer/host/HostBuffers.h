// Allocation origin of host-side pointer expressions (issue 20): follows a
// pointer through casts, pointer arithmetic, locals, globals, struct members
// (every assignment to the member in the unit), std::vector::data() and
// function parameters whose callers are visible, to the allocation: malloc,
// new, std::vector, stack arrays (pageable), cudaMallocHost, cudaHostAlloc,
// cudaHostRegister (pinned), cudaMallocManaged and __managed__ (managed),
// cudaMalloc (device). Anything else is Unknown with the reason: a pointer
// returned by an unanalyzed function, written through its address by a call,
// assigned allocations of different kinds, a parameter with no visible caller.
#pragma once

#include "analyzer/host/HostFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace warplint {

class HostBuffers {
public:
  // Indexes every assignment, allocation call and cudaHostRegister in the
  // unit's own files (system headers skipped).
  explicit HostBuffers(clang::ASTContext &ctx);
  ~HostBuffers();

  BufferOrigin origin(const clang::Expr *e);
  // The variable or member a pointer expression names after casts and
  // arithmetic are removed (null when none).
  const clang::ValueDecl *baseDecl(const clang::Expr *e) const;
  std::string keyOf(const clang::ValueDecl *d) const;

  // Integer value of `e` when constant, following locals initialized once
  // and never written again.
  std::optional<int64_t> evaluate(const clang::Expr *e) const;
  // Declarations written (assigned, incremented, address taken) anywhere in `s`.
  std::set<const clang::ValueDecl *> writtenIn(const clang::Stmt *s) const;

  struct Index; // what the unit assigns, allocates and registers (HostBuffers.cpp)

private:
  BufferOrigin traceDecl(const clang::ValueDecl *d, int depth);
  BufferOrigin trace(const clang::Expr *e, int depth);
  BufferOrigin combine(const std::vector<BufferOrigin> &defs, const clang::ValueDecl *d);

  clang::ASTContext &ctx_;
  std::unique_ptr<Index> index_;
  std::map<const clang::ValueDecl *, BufferOrigin> cache_;
  std::set<const clang::ValueDecl *> visiting_;
};

} // namespace warplint
