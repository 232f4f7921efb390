// The machine-readable report (`--format json`):
//   {"version", "findings": [{"rule", "severity", "file", "line", "column",
//    "kernel", "message", "notes": [...], "details": {...}}],
//    "suppressed": [the same, with "suppression": {"kind", "file", "line",
//    "column", "justification"}] (silenced by a NOLINT comment),
//    "errors": [{"file", "kind", "message"}],
//    "units": [{"file", "parsed", "kernels", "compile_errors", "compile_diagnostics",
//               "classification": [{"kernel", "file", "line", "objects": [{"name", "space",
//                 "kind", "class", "evidence", ..., "guidelines", "findings"}]}],
//               "costs": [{"kernel", "time_us", "bottleneck", "components_us", "fractions",
//                 "occupancy", "all_fixes_speedup", "assumptions", ...}]}]}
//   A finding the cost model priced has details.predicted_kernel_speedup,
//   details.bottleneck and details.kernel_cost.
// Keys keep this order (ordered_json) so that diffs of reports stay readable.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "gains/PredictedGains.h"
#include "rules/Finding.h"
#include <nlohmann/json.hpp>
#include <vector>

namespace warplint {

nlohmann::ordered_json findingToJson(const Finding &finding);
nlohmann::ordered_json reportToJson(const AnalysisResults &results,
                                    const std::vector<Finding> &findings,
                                    const GainsResult *gains = nullptr);

} // namespace warplint
