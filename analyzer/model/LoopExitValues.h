// What the locals a loop writes hold at the loop's boundaries, where the
// walker can say without stepping through it:
// - after the loop, when lanes leave it only through its condition and the
//   condition compares the counter with a bound the loop does not change:
//   the counter and the locals the body advances once per iteration
//   (CarriedVariable) hold their recurrence's value at the trip count
//   (`c += xy` in `for (k = 1; k < nz - 1; ++k)`: c0 + max(0, nz - 2) * xy);
// - at the start of every iteration, when the body's last write to a local
//   sets it back to the value it held when the loop started (`wtx = tx;`
//   after a strided copy that advanced it), and after the loop too.
#pragma once

#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/LoopRecurrences.h"

#include "clang/AST/Stmt.h"

#include <functional>
#include <utility>
#include <vector>

namespace warplint {

// How many times the body runs, over the values at the loop's entry, for a
// counter `rec` compared by `<`, `<=`, `>` or `>=` with a bound that does not
// change in the loop and stepped by a positive constant (or any recurrence
// whose trip count is a constant); null otherwise.
ExprRef tripCount(const LoopRecurrence &rec);

// The value of `rec` after `trips` iterations; null when it has no closed
// form (a multiplicative step and a trip count that is not a small constant).
ExprRef valueAfter(const LoopRecurrence &rec, const ExprRef &trips);

// Structural equality of two values (the same symbols, not the same text).
bool sameValue(const IndexExpr &a, const IndexExpr &b);

using LocalValues = std::vector<std::pair<const clang::VarDecl *, ExprRef>>;

// After `loop` (a `for` or a `while`): the values of its counter (`counter`,
// the recurrence `counterRec` that its condition compares; for a `for`, its
// induction variable) and of the carried locals. Empty when lanes may leave
// otherwise than by the condition (`break`, `goto`, a `do` loop) or the trip
// count has no closed form. `changes` tells the locals the loop writes or
// that may change unseen.
LocalValues valuesAfterLoop(const clang::Stmt *loop, const clang::VarDecl *counter, const LoopRecurrence *counterRec,
                            const std::vector<CarriedVariable> &carried,
                            const std::function<bool(const clang::VarDecl *)> &changes);

// Locals that `loop`'s body sets back, as its last write to them, to the
// value they held when the loop started, with that value. `candidates` are
// the tracked locals the loop writes that are not carried nor its counter;
// `valueBefore` what each held at the loop's entry (null: unknown).
LocalValues restoredEachIteration(const clang::Stmt *loop, const std::vector<const clang::VarDecl *> &candidates,
                                  ExprTranslator &tr, const std::function<ExprRef(const clang::VarDecl *)> &valueBefore,
                                  const std::function<bool(const clang::VarDecl *)> &changes);

// Whether `s` reads memory, calls a function or reads a global that is not
// const: values a loop may change without writing a local.
bool readsMemoryOrCalls(const clang::Stmt *s);

// Whether lanes may leave a loop's body by a `break` of that loop or a `goto`
// (true for a null body).
bool leavesEarly(const clang::Stmt *body);
// The body of a `for`, `while` or `do`; null for anything else.
const clang::Stmt *loopBody(const clang::Stmt *loop);

} // namespace warplint
