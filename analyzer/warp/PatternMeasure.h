// What the warp simulator measures of one lane pattern (bank conflicts,
// sectors, distinct constant addresses), and the severity that picks a
// warp's worst evaluation.
#pragma once

#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/warp/WarpSimulator.h"

#include <cstdint>

namespace warplint {

// a / 128 rounded down (a lane pattern is measured alike when every address
// moves by a multiple of 128 bytes).
int64_t floorDiv128(int64_t a);
// The lanes' pattern measured in `space`.
WarpAccessEval measurePattern(const LaneAddresses &lanes, AddressSpace space);
// Ranking used to pick the worst evaluation: larger is worse.
double evaluationSeverity(const WarpAccessEval &e, AddressSpace space);

} // namespace warplint
