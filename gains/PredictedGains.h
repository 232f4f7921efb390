// What each finding is worth on its kernel: the kernel cost model
// (analyzer/cost/KernelCostModel.h) run on the kernel as written and on its
// work with the finding's change applied (the fix it offers, or for a
// diagnose-only finding the change its notes describe). A stage between the
// rules and the printers: it adds to findings (details.predicted_kernel_speedup,
// details.bottleneck, a note) and never removes their per-access facts.
#pragma once

#include "analyzer/cost/KernelCostModel.h"
#include "analyzer/profile/HardwareProfile.h"
#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

// One kernel's cost as written, and with changes applied.
struct KernelCostReport {
  size_t unit = 0, kernelIndex = 0;
  std::string kernel;       // name and template arguments, as reports show it
  SourceLocation loc;
  std::string profileId;    // the profile whose figures were used
  KernelCost asWritten;
  // Kernel time as written over the time with every offered fix of the
  // kernel applied (findings with a rewrite), and with every finding's change.
  std::optional<double> allFixesSpeedup, allFindingsSpeedup;
  // Per rule: the speedup with every finding of that rule in the kernel applied.
  std::map<std::string, double> ruleSpeedups;
};

struct GainsResult {
  std::vector<KernelCostReport> kernels;
  const KernelCostReport *forKernel(size_t unit, size_t kernelIndex) const;
};

// The profile each unit's rules ran with (null: no profile, no prediction).
using UnitProfile = std::function<const HardwareProfile *(size_t unit)>;

// Adds the predicted gain to every finding of a kernel the model can cost,
// and returns every kernel's cost report (kernels without findings too).
GainsResult attachPredictedGains(const AnalysisResults &results, std::vector<Finding> &findings,
                                 const UnitProfile &profileOf);

// The predicted kernel gain of a finding in percent ((speedup - 1) * 100),
// or nullopt when it has none.
std::optional<double> predictedGainPercent(const Finding &f);

} // namespace warplint
