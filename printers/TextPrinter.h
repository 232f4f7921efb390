// Findings in the compiler format editors and CI logs already understand:
//   file.cu:12:5: warning: MESSAGE [rule-id]
//      12 |     float v = tile[threadIdx.x][threadIdx.y];
//         |               ^
//   file.cu:12:5: note: NOTE
// followed by what went wrong with the translation units themselves.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "printers/SourceLines.h"
#include "rules/Finding.h"
#include <ostream>
#include <string>
#include <vector>

namespace warplint {

struct TextOptions {
  bool color = false;
  bool showSource = true;
  // Compile errors of a unit that still produced an AST are summarized in one
  // note; this many are listed after it.
  size_t maxCompileErrorsListed = 3;
  // Paths under this directory are printed relative to it; empty: as given.
  std::string baseDir;
  // Findings an inline NOLINT silenced are printed too, with where and why.
  bool showSuppressed = false;
};

void printText(std::ostream &os, const AnalysisResults &results,
               const std::vector<Finding> &findings, const TextOptions &opts,
               SourceLines &sources);

// "2 warnings in 1 file (3 kernels analyzed in 2 files)", without newline;
// suppressed findings are counted apart ("; 1 finding suppressed").
std::string summaryLine(const AnalysisResults &results, const std::vector<Finding> &findings);
// "top predicted gains: ~1.74x transpose.cu:21 shared-bank-conflict (transposeCoalesced), ..."
// over the findings not suppressed that have a prediction above 1.00x; empty when none.
std::string topGainsLine(const std::vector<Finding> &findings, const std::string &baseDir, size_t count = 3);

// The path as the user would like to read it: relative to `baseDir` when under it.
std::string displayPath(const std::string &file, const std::string &baseDir);

// A source line as the snippet shows it: tabs expanded to stops of 8.
std::string expandTabs(const std::string &line);
// Where 1-based byte `column` of `line` lands in the expanded line (0-based),
// i.e. how many spaces precede the caret.
size_t displayColumn(const std::string &line, unsigned column);

} // namespace warplint
