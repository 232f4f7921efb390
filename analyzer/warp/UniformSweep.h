// Accesses whose address involves warp-uniform values the analyzer cannot pin
// down (scalar parameters, values loaded from warp-uniform addresses, locals
// every assignment of which is uniform). The lane pattern is exact; the
// uniform values are taken at sample values (0 to 64 and a few large ones
// for one symbol, a grid for several), and the evaluation that holds for all
// of them is kept as the access's verdict. The samples stay in the model so
// that rules can state the condition under which a worse verdict holds
// ("when size >= 8").
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/warp/AccessEvaluator.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

// Evaluates `access` under every shape into f.evals / f.worstEval, sweeping
// the warp-uniform unknowns of its address when there are any (then
// f.uniformSweep and assumptions are set too).
void evaluateAccess(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                    const EvaluationOptions &opts, MemoryAccess &f);

// The sample values for which `holds` is true, described over the symbols:
// "size >= 8", "w is a multiple of 16", "every value"; nullopt when no
// condition on one symbol describes them. Samples with no evaluation do not
// count; degenerate ones (a zero stride) count only when `holds` is true.
std::optional<std::string> describeCondition(const UniformSweep &sweep,
                                             const std::function<bool(const UniformSample &)> &holds);

// Whether `holds` is true for every admissible, non-degenerate sample.
bool holdsForEveryValue(const UniformSweep &sweep, const std::function<bool(const UniformSample &)> &holds);

} // namespace warplint
