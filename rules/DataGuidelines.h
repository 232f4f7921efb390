// Which of seed 000's guidelines (section 7) apply to a data object of the
// class the analyzer found for it (Fig. 14: classify the data, then apply
// the guidelines). A judgment, so it lives with the rules; `--explain` and
// the JSON report print it.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include <string>
#include <vector>

namespace warplint {

// Guideline ids, most relevant first; empty for unclassified objects.
std::vector<std::string> guidelinesFor(const KernelInfo &k, const DataObject &o);

} // namespace warplint
