// A kernel's cost model as JSON: the per-kernel `cost` block of --dump-model
// and of the JSON report (units[].costs), and the work counts it rests on.
#pragma once

#include "analyzer/results/KernelWork.h"
#include "gains/PredictedGains.h"
#include <nlohmann/json.hpp>

namespace warplint {

nlohmann::ordered_json kernelCostJson(const KernelCostReport &r);
// The counts of one block (analyzer/cost/WorkTally.h), for --dump-model.
nlohmann::ordered_json kernelWorkJson(const KernelInfo &k, const KernelWork &w);

} // namespace warplint
