// Recognizing how loop variables evolve: the induction variable of a `for`
// (`s *= 2`, `i += blockDim.x`) and locals the body updates once per
// iteration (`off *= 2` at the end of a Blelloch up-sweep step). Both become
// recurrences over the loop's iteration counter, so the evaluator can step
// through them exactly.
#pragma once

#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/IndexExpr.h"

#include "clang/AST/Stmt.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace warplint {

// Whether `s` holds a `continue` of the loop it is in (not of a nested loop).
bool continuesLoop(const clang::Stmt *s);

// Whether `e` reads a variable that `changes` (written in the loop): then
// its value may differ from one iteration to the next.
bool readsChanging(const clang::Stmt *e, const std::function<bool(const clang::VarDecl *)> &changes);

// Reads `v++`, `v -= e`, `v <<= e`, `v = v * e`, `v = 2 * v`, ... into
// rec.stepOp/step. The step must read nothing the loop changes (`changes`)
// nor `var` itself: it is translated once, before the loop.
bool parseLoopStep(const clang::Expr *update, const clang::VarDecl *var, ExprTranslator &tr, LoopRecurrence &rec,
                   const std::function<bool(const clang::VarDecl *)> &changes);

// The trip count when init, step and condition are all constants.
std::optional<int64_t> constantTripCount(const LoopRecurrence &rec);

// A local declared before the loop whose only write in the loop is one
// unconditional statement of the loop body. Before that statement it holds
// `before` at iteration k, after it `after` (the value of iteration k + 1).
// A `while` loop's counter (`while (k < n) { ...; ++k; }`) is one too.
struct CarriedVariable {
  const clang::VarDecl *var = nullptr;
  const clang::Stmt *update = nullptr;
  ExprRef before, after;
  std::shared_ptr<LoopRecurrence> beforeRec, afterRec; // their recurrences, for setting the condition
};

// `loopWrites`: the writes inside the loop (condition, body, increment);
// `valueBefore`: what a variable holds when the loop starts (null: unknown).
std::vector<CarriedVariable> carriedVariables(const clang::Stmt *loopBody, int loopId, ExprRef cond,
                                              ExprTranslator &tr, const LocalWrites &allWrites,
                                              const LocalWrites &loopWrites,
                                              const std::function<ExprRef(const clang::VarDecl *)> &valueBefore);

} // namespace warplint
