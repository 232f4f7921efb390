// Binding a warp of a block for the warp model: the block's and grid's
// dimensions and parameter values, a thread's threadIdx, the warps that
// stand for a block, a lane's guards and a warp-uniform loop's iterations.
// The pieces of evaluateWarpAccessSamples' enumeration, for facts that
// evaluate several accesses of one warp together (NarrowAccessGroups).
#pragma once

#include "analyzer/model/IndexExpr.h"
#include "analyzer/warp/AccessEvaluator.h"

#include <cstdint>
#include <vector>

namespace warplint {

// The block's and grid's dimensions and the parameters' value.
Binding blockBinding(const BlockShape &block, const EvaluationOptions &opts);
// threadIdx of the linear thread id `tid` (x fastest).
void bindThread(Binding &b, const BlockShape &block, int64_t tid);
// Representative warps of a block: the first two (a 2-D block's second row
// of warps often differs) and the last.
std::vector<int> representativeWarps(const BlockShape &block);
// Whether the lane bound in `b` passes every guard of `a` (an unknown guard
// is taken as passed).
bool laneActive(const GuardedAccess &a, const Binding &b);
// The iterations at which a warp-uniform loop is evaluated: all of them while
// its condition holds for some lane, up to `cap`.
std::vector<int64_t> loopIterations(const LoopRecurrence &rec, const Binding &base, int cap);

} // namespace warplint
