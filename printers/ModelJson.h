// The analyzer's facts as JSON (`warplint check --dump-model`): the kernel
// model and every access's warp evaluations, for debugging and for tools.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include <nlohmann/json.hpp>

namespace warplint {

nlohmann::json modelToJson(const AnalysisResults &results);

} // namespace warplint
