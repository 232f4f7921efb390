// Shared wording for what a warp does at an access: which lanes, which block
// shape and where it came from, the address form and the assumptions made.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include <nlohmann/json.hpp>
#include <functional>
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

std::string accessVerb(const MemoryAccess &a);

// Which evaluation of an access a rule reports. With a known block shape:
// the worst one, when it shows the finding. With assumed shapes
// (KernelInfo::blockShapeAssumed, several plausible shapes tried): the
// mildest one when every shape shows the finding (what holds for all of
// them), else the worst of those that do, with `holdsForAll` false.
struct ShapeVerdict {
  const WarpAccessEval *eval = nullptr; // null: no finding
  bool holdsForAll = true;
  std::vector<BlockShape> holding, notHolding; // assumed shapes only
};
ShapeVerdict verdictOverShapes(const KernelInfo &k, const MemoryAccess &a,
                               const std::function<bool(const WarpAccessEval &)> &shows,
                               const std::function<double(const WarpAccessEval &)> &severity);

// Says on a finding what its verdict rests on when the block shape is
// assumed: a note listing the shapes it holds for, or, when it depends on the
// shape, severity "note" and the shapes it needs. Nothing for known shapes.
void qualifyByShape(const KernelInfo &k, const ShapeVerdict &v, Finding &f); // "read", "write" or "read-modify-write"

} // namespace warplint
