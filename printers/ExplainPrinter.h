// `warplint check --explain`: per kernel, the data objects the analyzer
// classified (seed 000 Fig. 14) as a table: object, space, class, accesses,
// the guidelines that apply and the findings about it, then the evidence for
// each class. The JSON report carries the same per unit ("classification").
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "gains/PredictedGains.h"
#include "rules/Finding.h"
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace warplint {

// Paths under `baseDir` are shown relative to it.
// With `gains`, each kernel's cost model follows its table: the time in each
// component, the bottleneck, the occupancy and what was assumed.
void printExplain(std::ostream &os, const AnalysisResults &results, const std::vector<Finding> &findings,
                  const std::string &baseDir, const GainsResult *gains = nullptr);

// The classification of every kernel of `unit`, with guidelines and the
// findings (rule, line, column) about each object.
nlohmann::ordered_json classificationToJson(const TranslationUnitResult &unit, const std::vector<Finding> &findings);

} // namespace warplint
