// The rewrite warp-shuffle-candidate applies with --fix: an unrolled warp
// tail of a shared-memory tree reduction (analyzer/results/WarpExchange.h,
// WarpTail) moved into a register with __shfl_down_sync, offered only where
// the warp model and the AST prove that lane 0 combines the same values in
// the same order and that later code reads nothing but the tail's result.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/WarpExchange.h"
#include "rules/Finding.h"

#include <string>
#include <vector>

namespace warplint {

// Adds the fix or the note saying why none is offered, and details["fix"],
// to `f`, the finding on `ex` (a "down" exchange ordered by `sync`).
void describeWarpTailFix(const KernelInfo &k, const WarpExchange &ex, const std::string &sync, Finding &f);

// A warp tail in a __device__ helper is rewritten in the helper's body, so
// only when every call of the helper in the unit is proven exact: the
// findings left pending by describeWarpTailFix get the fix or the refusal
// naming the call that fails. Run once per unit, after every kernel's check.
void settleHelperTailFixes(const TranslationUnitResult &unit, std::vector<Finding> &findings);

extern const char *const kWarpTailFixSafety;

} // namespace warplint
