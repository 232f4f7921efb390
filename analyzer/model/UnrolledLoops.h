// What the locals a `for` loop with a small constant trip count writes hold
// after it, found by stepping through its iterations: `for (i = 2; i <= 512;
// i *= 2) if (nf >= i) df = i;` leaves df = nf >= 512 ? 512 : (nf >= 256 ?
// 256 : ... df), the joins the walker makes at an `if`. Only for bodies that
// compute nothing but locals from locals: assignments and increments of
// tracked locals, `if`s, declarations, and statements that write no local
// (stores to memory, __syncthreads()). A load, a call, a nested loop or a way
// out of an iteration (`break`, `continue`, `return`, `goto`) leaves the
// values opaque: a load may see what an earlier iteration stored.
#pragma once

#include "analyzer/model/Assignments.h"
#include "analyzer/model/LoopExitValues.h"

#include "clang/AST/Stmt.h"

namespace warplint {

// At most this many iterations are stepped through.
constexpr int64_t kMaxUnrolledTrips = 64;

// Steps through `loop`'s iterations from the values `values` holds now (the
// loop's entry) with `counter` (`counterRec`, whose trip count is a constant)
// bound to each iteration's value. Returns the locals the body writes with
// their values after the last iteration; empty when the body is not one it
// can step through. `values` is left as it was.
LocalValues unrolledValues(const clang::ForStmt *loop, const clang::VarDecl *counter,
                           const LoopRecurrence &counterRec, ReachingValues &values);

} // namespace warplint
