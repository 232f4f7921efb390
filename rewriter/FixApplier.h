// Applying the fixes rules attached to findings: refuse overlapping edits and
// files that changed since they were analyzed, apply the rest in memory,
// re-parse and re-analyze the result (a fix that adds a compile error or
// leaves its finding is dropped), optionally compile it with nvcc, and only
// then write each file atomically.
#pragma once

#include "analyzer/Analyzer.h"
#include "analyzer/results/Fix.h"
#include "rules/Finding.h"
#include "rules/Rule.h"

#include <map>
#include <string>
#include <vector>

namespace warplint {

struct FixOptions {
  bool write = false;          // --fix: replace the files
  bool fixLaunch = false;      // --fix-launch: also fixes that edit launch sites
  std::string nvcc;            // --fix-verify-nvcc: nvcc to compile the result with ("" = no)
  std::vector<std::string> nvccFlags; // -I/-D/-std flags passed on to nvcc
};

// One fix and what became of it.
struct FixOutcome {
  Fix fix;
  std::string rule, kernel, message;
  SourceLocation loc;
  bool applied = false;
  std::string why; // when not applied
};

struct FixResult {
  std::vector<FixOutcome> outcomes;
  std::map<std::string, std::string> original; // absolute path -> contents before
  std::map<std::string, std::string> fixed;    // absolute path -> contents after the applied fixes
  std::vector<std::string> writeErrors;        // files that could not be written
  // The applied fixes, for --export-fixes.
  std::vector<const FixOutcome *> applied() const;
};

// `jobs` and `analyzerOpts` are those `results` came from; the rules re-run
// with `ruleCtx`/`ruleOpts` on the re-analyzed text.
FixResult applyFixes(const AnalysisResults &results, const std::vector<Finding> &findings,
                     const std::vector<CompileJob> &jobs, const AnalyzerOptions &analyzerOpts,
                     const RuleContext &ruleCtx, const RuleOptions &ruleOpts, const FixOptions &opts);

// `contents` with `replacements` (all in one file, none overlapping) applied.
std::string applyReplacements(const std::string &contents, std::vector<Replacement> replacements);

} // namespace warplint
