// Recognizing how loop variables evolve: the induction variable of a `for`
// (`s *= 2`, `i += blockDim.x`) and locals the body updates once per
// iteration (`off *= 2` at the end of a Blelloch up-sweep step). Both become
// recurrences over the loop's iteration counter, so the evaluator can step
// through them exactly.
#pragma once

#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/IndexExpr.h"

#include "clang/AST/Stmt.h"

#include <memory>
#include <optional>
#include <vector>

namespace warplint {

// Reads `v++`, `v -= e`, `v <<= e`, `v = v * e`, ... into rec.stepOp/step.
bool parseLoopStep(const clang::Expr *update, const clang::VarDecl *var, ExprTranslator &tr, LoopRecurrence &rec);

// The trip count when init, step and condition are all constants.
std::optional<int64_t> constantTripCount(const LoopRecurrence &rec);

// A local declared before the loop whose only write is one unconditional
// statement of the loop body. Before that statement it holds `before` at
// iteration k, after it `after` (the value of iteration k + 1).
struct CarriedVariable {
  const clang::VarDecl *var = nullptr;
  const clang::Stmt *update = nullptr;
  ExprRef before, after;
};

std::vector<CarriedVariable> carriedVariables(const clang::ForStmt *loop,
                                              const std::shared_ptr<const LoopRecurrence> &induction,
                                              ExprTranslator &tr, const LocalWrites &writes,
                                              const clang::SourceManager &sm);

} // namespace warplint
