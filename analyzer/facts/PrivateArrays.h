// Which thread-private arrays the compiler cannot keep in registers for a
// reason the source shows: a subscript that is not a compile-time constant
// once every loop with a constant trip count is fully unrolled, or an address
// that leaves the code indexing it. Sizes are recorded for the rule to weigh
// against the measured register budget. Facts only; rules decide.
#pragma once

#include "analyzer/results/PrivateMemory.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace warplint {

class BodyParents; // analyzer/facts/BodyParents.h

// Every private array declared in `fn` or in the __device__ functions it
// calls (analyzed in place, up to 4 calls deep, their parameters standing
// for the caller's arguments).
// `parents`: the bodies' parent maps to share (null: made here).
std::vector<PrivateArray> describePrivateArrays(clang::ASTContext &ctx, const clang::FunctionDecl *fn,
                                                BodyParents *parents = nullptr);

// The loads from memory whose values the subscripts of `access` read,
// directly or through locals' initializers: `in[i]` for `c[in[i]]` and for
// `int k = in[i]; c[k]`. Their begin locations, as MemoryAccess::loc writes
// them.
std::vector<SourceLocation> indexLoadLocations(clang::ASTContext &ctx, const clang::Expr *access);

} // namespace warplint
