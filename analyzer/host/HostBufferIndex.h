// What HostBuffers indexes before it traces anything: every definition of
// a variable or member in the unit's own files (initializations,
// assignments, allocation calls writing through `&p`, calls that may write a
// pointer through its address), cudaHostRegister'd buffers, the calls of each
// function and what is written after initialization. Internal to
// analyzer/host.
#pragma once

#include "analyzer/host/HostBuffers.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace warplint {

struct HostBuffers::Index {
  struct Def {
    enum Kind { Value, Alloc, Opaque } kind = Value;
    const clang::Expr *value = nullptr;
    MemoryOrigin alloc = MemoryOrigin::Unknown;
    std::string allocator, reason;
    SourceLocation loc;
    const clang::Expr *size = nullptr; // the allocation's size argument, evaluated when traced
  };
  std::map<const clang::ValueDecl *, std::vector<Def>> defs;
  std::map<const clang::ValueDecl *, SourceLocation> registered;
  std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> calls;
  std::set<const clang::ValueDecl *> written; // assigned after initialization, incremented, address taken
};

// Fills `ix` from the unit's own files (system headers skipped); `hb`
// resolves cudaHostRegister's argument to the buffer it names.
void indexHostBuffers(clang::ASTContext &ctx, HostBuffers::Index &ix, const HostBuffers &hb);

// Declarations written (assigned, incremented, address taken, declared) in `s`.
std::set<const clang::ValueDecl *> declsWrittenIn(const clang::Stmt *s);

// `e` without parentheses, implicit and explicit casts and temporaries.
const clang::Expr *stripCasts(const clang::Expr *e);
// The declaration an lvalue names: a variable or a member (any object).
const clang::ValueDecl *namedDecl(const clang::Expr *e);

} // namespace warplint
