// What a finding's fix (or, for a diagnose-only finding, the change its notes
// describe) does to one block's counted work, rule by rule:
//   shared-bank-conflict       the access (the offered padding: every access
//                              of the array) at the padded layout's wavefronts
//   global-uncoalesced         the access at its ideal sectors
//   global-narrow-access       a thread's narrow accesses as one wide access
//                              (the one-byte-a-lane rewrite: a quarter of the
//                              grid, four bytes a thread)
//   private-array-local-memory the array in registers: no local traffic
//   constant-divergent-access  the table read through L1 instead
//   shared-staging-candidate   the pointer's reads through a shared tile:
//                              global requests divided by the reuse, shared
//                              reads in their place
//   shared-staging-no-reuse    the array's stores and loads gone
//   readonly-param             nothing the model counts changes
#pragma once

#include "analyzer/cost/KernelCostModel.h"
#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/KernelWork.h"
#include "rules/Finding.h"

#include <set>
#include <string>

namespace warplint {

struct WorkState {
  KernelWork work;
  CostOptions options;
  std::set<std::string> applied; // rewrites of the whole kernel already applied (applied once)
};

// Applies `f`'s change to `state`; false (state untouched) when the model
// has no such change for it, with `why`. `description` says what was applied.
bool applyFindingChange(const Finding &f, const KernelInfo &k, WorkState &state, std::string &description,
                        std::string &why);

} // namespace warplint
