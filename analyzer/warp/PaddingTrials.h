// Re-evaluates every access of a bank-conflicted multi-dimensional shared
// array with its innermost dimension padded, so that a rule can pick the
// smallest padding that leaves no conflict. Facts only: ArrayInfo::paddingTrials
// and the layout escapes that only evaluation can show (an index leaving its row).
#pragma once

#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/model/KernelWalker.h"

namespace warplint {

void evaluatePaddings(ModeledKernel &k, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts);

} // namespace warplint
