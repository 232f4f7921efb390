// The analyzer's facts as JSON (`warplint check --dump-model`): the kernel
// model and every access's warp evaluations, for debugging and for tools.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "gains/PredictedGains.h"
#include <nlohmann/json.hpp>

namespace warplint {

// With `gains`, each kernel's cost block (the model's components, occupancy and
// assumptions) too.
nlohmann::json modelToJson(const AnalysisResults &results, const GainsResult *gains = nullptr);

// One data object's facts (class, evidence, accesses, block sharing), as
// both --dump-model and the JSON report's classification write them.
nlohmann::ordered_json dataObjectJson(const KernelInfo &k, const DataObject &o);

} // namespace warplint
