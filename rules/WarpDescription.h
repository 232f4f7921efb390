// Shared wording for what a warp does at an access: which lanes, which block
// shape and where it came from, the address form and the assumptions made.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warplint {

// "0-31", "0, 4, 8, ..., 28" or "0, 3, 7".
std::string laneList(const std::vector<int> &lanes);

// The evaluation a rule reports: the access's worst one.
const WarpAccessEval &worstEvaluation(const MemoryAccess &a);

// Notes common to every access finding: block shape and source, iteration,
// address form, assumptions.
void addContextNotes(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e,
                     std::vector<FindingNote> &notes);

// The same facts for `details`.
nlohmann::json contextDetails(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e);

std::string accessVerb(const MemoryAccess &a); // "read", "write" or "read-modify-write"

} // namespace warplint
