// What a host-side finding is worth on the GPU work its host function shows
// (issue 20 item 5): the copies and kernel launches written in that function,
// each priced with the active profile's measurements (a copy's time from
// host_transfer_bandwidth and host_copy_latency at its size, memory and
// direction; a launch's from the kernel cost model), summed as written and
// with the finding's change applied (the buffer pinned, a loop's copies
// batched into one, a run of small copies packed into one copy each time it
// runs, the sequence staged over streams). Added to the finding as
// details.predicted_sequence_speedup and a note; nothing is removed.
#pragma once

#include "gains/PredictedGains.h"

#include <vector>

namespace warplint {

// Per-copy time of `bytes` (us) from the profile's measurements, linear
// between the measured sizes; nullopt when the profile lacks them.
std::optional<double> transferTimeUs(const HardwareProfile &p, const std::string &direction,
                                     const std::string &memory, double bytes);

void attachSequenceGains(const AnalysisResults &results, const GainsResult &kernels, std::vector<Finding> &findings,
                         const UnitProfile &profileOf);

} // namespace warplint
