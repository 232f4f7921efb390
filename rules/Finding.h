// What a rule says about the code: one finding per problem, with the facts
// behind it in `details` for machines and `notes` for people.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/Fix.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warplint {

struct FindingNote {
  SourceLocation loc; // may be invalid: the note then follows the finding
  std::string message;
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
};

} // namespace warplint
