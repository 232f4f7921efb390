// check --fix / --fix-dry-run / --export-fixes: hands the findings' fixes to
// the rewriter and reports what became of each one.
#pragma once

#include "analyzer/Analyzer.h"
#include "driver/CommandLine.h"
#include "rules/Rule.h"

namespace warplint {

// 0 when done (refused fixes are reported, not errors), 2 when a file or the
// export could not be written.
int runFixes(const CheckOptions &o, const AnalysisResults &results, const std::vector<Finding> &findings,
             const std::vector<CompileJob> &jobs, const AnalyzerOptions &analyzerOpts, const RuleContext &ctx,
             const RuleOptions &ruleOpts);

} // namespace warplint
