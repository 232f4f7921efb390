// Whether a guard is false for every lane the warp model could evaluate,
// told from value ranges instead of enumerating lanes and loop iterations.
// A retry (UnreachedAccess: guard values, the grid's last block) that no
// lane can pass evaluated every warp of an access to find nothing: HeCBench
// d3q19-bgk spent a fifth of its time in retries of `if (x + x0 == 0)` at
// x0 = 8 and 1 with x >= 0 a loop variable, sw4ck made 350 last-block
// retries of `start0 + i < N0 && ...`. Sound for the evaluation's bindings:
// threadIdx within the block, blockIdx 0 or 1 (or gridDim - 1 under
// EvaluationOptions::lastBlock), parameters and uniforms at their bound
// values, a loop variable at iterations below
// EvaluationOptions::maxIterationsPerLoop; anything it cannot bound
// (division, shifts, unknowns, loops stepped other than by + or -) may pass.
#pragma once

#include "analyzer/warp/AccessEvaluator.h"

#include <vector>

namespace warplint {

// True only when `guard` is 0 at every thread of blocks 0 and 1 (the grid's
// last block under opts.lastBlock) of every shape, at every loop iteration
// the model evaluates, under opts' values.
bool guardNeverPasses(const IndexExpr &guard, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts);
// The same for one shape whose blockBinding (its dimensions and values) the
// caller has: the symbols the guard reads must be bound as blockBinding does.
bool guardNeverPassesUnder(const IndexExpr &guard, const Binding &block, const EvaluationOptions &opts);

} // namespace warplint
