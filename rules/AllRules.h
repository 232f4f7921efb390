// Factories for the rules the registry knows. Each rule lives in its own file;
// adding a rule means declaring its factory here and listing it in
// Registry.cpp, then regenerating docs/rules/ (`warplint docs --out docs/rules`).
#pragma once

#include "rules/Rule.h"
#include <memory>

namespace warplint {

std::unique_ptr<Rule> makeSharedBankConflictRule(); // rules/SharedBankConflict.cpp
std::unique_ptr<Rule> makeGlobalUncoalescedRule();  // rules/GlobalUncoalesced.cpp
std::unique_ptr<Rule> makeReadonlyParamRule();      // rules/ReadonlyParam.cpp
std::unique_ptr<Rule> makeGlobalNarrowAccessRule(); // rules/GlobalNarrowAccess.cpp
std::unique_ptr<Rule> makePrivateArrayLocalMemoryRule(); // rules/PrivateArrayLocalMemory.cpp
std::unique_ptr<Rule> makeConstantDivergentAccessRule(); // rules/ConstantDivergentAccess.cpp
std::unique_ptr<Rule> makeSharedStagingCandidateRule(); // rules/SharedStagingCandidate.cpp
std::unique_ptr<Rule> makeSharedStagingNoReuseRule();   // rules/SharedStagingNoReuse.cpp
std::unique_ptr<Rule> makeWarpShuffleCandidateRule();   // rules/WarpShuffleCandidate.cpp
// Host-side rules (rules/host/): judged once per unit over analyzer/host/HostFacts.h.
std::unique_ptr<Rule> makeHostPageableTransferRule();   // rules/host/HostPageableTransfer.cpp
std::unique_ptr<Rule> makeHostTransferBatchingRule();   // rules/host/HostTransferBatching.cpp
std::unique_ptr<Rule> makeHostTransferNoOverlapRule();  // rules/host/HostTransferNoOverlap.cpp
std::unique_ptr<Rule> makeManagedMemoryNoPrefetchRule(); // rules/host/ManagedMemoryNoPrefetch.cpp

} // namespace warplint
