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

// Every parameter takes one default value (large), so a guard or loop bound
// that subtracts one parameter from another (`tid < Size - 1 - t`,
// `x < w - r`) leaves no lane. Then each parameter the guards or loop bounds
// read is tried alone at a small value; the first that activates lanes is
// kept, in f.evals, and stated in f.guardValueAssumed and f.assumptions (the
// rules report such a verdict as a note). False, and f as it was, otherwise.
bool evaluateWithSmallGuardParameter(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                                     const EvaluationOptions &opts, MemoryAccess &f);

} // namespace warplint
