// The report as a SARIF 2.1.0 log (`--format sarif`), for code-scanning UIs:
// one run, the rules that ran as reportingDescriptors (docs from the
// registry), one result per finding with its notes as relatedLocations, and
// units that could not be analyzed as tool execution notifications. A
// finding's rewrite becomes a SARIF fix (the same edits `--fix` applies). A
// finding a NOLINT comment silenced stays a result with an `inSource`
// suppression.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include "rules/Rule.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warplint {

struct SarifOptions {
  // Files under this absolute directory get URIs relative to it (base id
  // SRCROOT); others get absolute file:// URIs. Empty: always absolute.
  std::string baseDir;
};

nlohmann::ordered_json reportToSarif(const AnalysisResults &results,
                                     const std::vector<Finding> &findings,
                                     const std::vector<const RuleInfo *> &rules,
                                     const SarifOptions &opts);

// RFC 3986 percent-encoding of a path, '/' kept. Exposed for tests.
std::string percentEncodePath(const std::string &path);

} // namespace warplint
