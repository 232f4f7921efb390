// What a rule says about the code: one finding per problem, with the facts
// behind it in `details` for machines and `notes` for people.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/Fix.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct FindingNote {
  SourceLocation loc; // may be invalid: the note then follows the finding
  std::string message;
};

// An inline comment that silences a finding (clang-tidy's syntax, see
// driver/Suppressions.h). Suppressed findings are counted, not reported.
struct Suppression {
  std::string kind;          // "NOLINT", "NOLINTNEXTLINE" or "NOLINTBEGIN"
  SourceLocation loc;        // where the comment is
  std::string justification; // the reason written after it ("NOLINT(rule) tile is tiny"); may be empty
};

struct Finding {
  std::string rule;       // registry id, e.g. "shared-bank-conflict"
  std::string severity;   // "warning" or "note"
  SourceLocation loc;
  std::string kernel;
  std::string message;
  std::vector<FindingNote> notes;
  nlohmann::json details = nlohmann::json::object();
  std::vector<Fix> fixes; // at most one: the rewrite `--fix` applies (rewriter/)
  // Identity across edits (driver/Baseline.h): rule, file, kernel, the line's
  // text and its occurrence; set before reporting, empty until then.
  std::string fingerprint;
  std::optional<Suppression> suppression; // set by the driver after the rules ran
  // The kernel the rule judged: results.units[unit].kernels[kernel] (set by
  // runRules; the gains stage reads that kernel's work). Not reported.
  size_t unit = static_cast<size_t>(-1);
  size_t kernelIndex = static_cast<size_t>(-1);
};

} // namespace warplint
