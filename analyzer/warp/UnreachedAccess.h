#pragma once
// An access no warp evaluation covers may simply never run: a branch that
// the kernel's own constants rule out for this block shape (the
// `if (blockSize >= 512)` steps of a reduction template instantiated with
// blockSize = 64). That is a fact about the code, not a gap in the model.

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/warp/AccessEvaluator.h"

#include <vector>

namespace warplint {

// True when, for every shape, a loop the access depends on never runs or
// no thread of the block passes the access's
// guards at any iteration of the loops it depends on, and every guard and
// loop bound reads only constants, thread indices and block dimensions (a
// guard on a parameter, a block index or a loaded value could pass for
// other values, so it proves nothing).
bool neverExecuted(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                   const EvaluationOptions &opts);

// Retries for an access whose evaluation found no lane, in the order of how
// little each assumes; the first that activates lanes is kept, in f.evals,
// with what it assumed in f.assumptions:
//  1. a guard that reads only values uniform across the block and nothing the
//     address, the other guards or the loops read (`nf == NUMBER_THREADS`)
//     selects whole blocks, not lanes: the access is evaluated where it
//     holds, which is exact for every such block: `access` then loses those
//     guards, so that every later evaluation of it (padding trials,
//     narrow-access groups, the block tallies) sees its lanes too;
//  2. the grid's last block (`else if (by == gridDim.y - 1)`), with and
//     without those guards;
//  3. every parameter takes one default value (large), so a guard or loop
//     bound that subtracts one parameter from another (`tid < Size - 1 - t`,
//     `x < w - r`) leaves no lane: each parameter or uniform value the guards
//     or loop bounds read is tried alone at a small value (8, then 1), then
//     all the parameters together (`ty + by * (16 - 2 * iteration) -
//     border_rows >= 0` in a tile that also reads `iteration`); the values
//     are stated in f.guardValueAssumed too, and the rules report a verdict
//     that holds only for them as a note.
// After (2) and (3), f.evaluatedWhereGuardsPass says so: no other evaluation
// under the default values sees a lane of the access.
// False, and f as it was, when none activates a lane.
bool evaluateWhereGuardsPass(GuardedAccess &access, const std::vector<BlockShape> &shapes,
                             const EvaluationOptions &opts, MemoryAccess &f);

} // namespace warplint
