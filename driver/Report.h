// From facts and findings to the bytes the user asked for, and to the exit
// status. Kept apart from main() so that tests can run it on hand-made results.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "driver/CommandLine.h"
#include "gains/PredictedGains.h"
#include "rules/Finding.h"
#include "rules/Rule.h"
#include <functional>
#include <string>
#include <vector>

namespace warplint {

struct ReportOptions {
  OutputFormat format = OutputFormat::Text;
  bool color = false;
  std::string baseDir; // paths under it are shown (text) or referenced (SARIF) relative to it
  std::vector<const RuleInfo *> rules; // the rules that ran, for SARIF
  bool showSuppressed = false;         // text: also print findings a NOLINT silenced
  bool explain = false; // text: the per-kernel classification table after the findings
  const GainsResult *gains = nullptr; // the kernels' cost reports (JSON units[].costs, --explain)
};

std::string renderReport(const AnalysisResults &results, const std::vector<Finding> &findings,
                         const ReportOptions &opts);

// 2 when a unit could not be analyzed at all, else 1 when a finding that is
// not suppressed is at least as severe as `failOn`, else 0.
int exitStatus(const AnalysisResults &results, const std::vector<Finding> &findings,
               Severity failOn = Severity::Note);
// The same, where a finding whose predicted kernel gain is below
// `failMinGain(finding)` percent does not count (one without a prediction does).
int exitStatus(const AnalysisResults &results, const std::vector<Finding> &findings, Severity failOn,
               const std::function<double(const Finding &)> &failMinGain);

// Whether text output gets ANSI colors: --color, else a terminal that is not
// "dumb" and no NO_COLOR in the environment.
bool useColor(ColorMode mode, bool toTerminal, const char *noColorEnv, const char *termEnv);

} // namespace warplint
