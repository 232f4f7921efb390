// The findings global-narrow-access makes from the analyzer's narrow-access
// groups (rules/NarrowAccessKinds.h says which groups are narrow): one for a
// thread's sibling accesses that fill each other's gaps, one per pointer for
// an element a lane.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include "rules/Rule.h"

namespace warplint {

// A SiblingsFillGaps group: a warning, the siblings in notes, no rewrite
// (the proven packings come from BytePackWindow findings).
Finding siblingGroupFinding(const std::string &rule, const KernelInfo &k, const NarrowAccessGroup &g,
                            const RuleContext &ctx);

// The first ElementALane group of a pointer: a note (the access is coalesced
// and the remedy changes the launch).
Finding elementALaneFinding(const std::string &rule, const KernelInfo &k, const NarrowAccessGroup &g,
                            const RuleContext &ctx);

// A later ElementALane group of the same pointer, as notes on its finding.
void addElementALaneSiblings(const KernelInfo &k, const NarrowAccessGroup &g, Finding &f);

// The measured cost of `widthBytes`-wide elements against 4-byte ones on the
// profile's GPU, as a note and in details.measured_cost; nothing without one.
void addNarrowCost(const RuleContext &ctx, int64_t widthBytes, Finding &f);

} // namespace warplint
