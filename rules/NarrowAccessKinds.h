// How global-narrow-access reads the analyzer's narrow-access groups
// (KernelInfo::narrowGroups), shared with global-uncoalesced so that a packed
// pattern is one narrow finding and not one uncoalesced finding per byte.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include <set>

namespace warplint {

enum class NarrowKind {
  None,
  // Each instruction already moves the warp's bytes contiguously, a 1- or
  // 2-byte element a lane (`p[i]`, grid-stride loops, flag arrays).
  ElementALane,
  // Each instruction leaves gaps between lanes that the thread's sibling
  // accesses fill (`p[4*i+0..3]`, RGB triples): a thread moves up to 16
  // consecutive bytes, one narrow access at a time.
  SiblingsFillGaps,
};

// Bytes a thread may move one narrow access at a time and still be one
// vector access: uint4.
constexpr int64_t kMaxPackedThreadBytes = 16;

NarrowKind narrowKind(const NarrowAccessGroup &g);

// Indices into k.accesses of the accesses in SiblingsFillGaps groups: the
// sectors one of them touches beyond its own bytes are its siblings' bytes.
std::set<size_t> accessesWithGapFillingSiblings(const KernelInfo &k);

} // namespace warplint
