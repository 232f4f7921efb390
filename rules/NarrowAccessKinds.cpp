#include "rules/NarrowAccessKinds.h"

#include <cstdlib>

namespace warplint {

NarrowKind narrowKind(const NarrowAccessGroup &g) {
  // A full warp: a few lanes (`if (threadIdx.x < 4)`) move few bytes
  // however wide their accesses.
  if (!g.warpContiguous || g.laneStrideBytes == 0 || g.activeLanes < 32)
    return NarrowKind::None;
  int64_t stride = std::llabs(g.laneStrideBytes);
  if (stride == g.widthBytes)
    return NarrowKind::ElementALane;
  // A longer run a thread is a row walk: even packed into vectors the lanes
  // would stay apart, which is global-uncoalesced's concern.
  if (stride > g.widthBytes && stride <= kMaxPackedThreadBytes)
    return NarrowKind::SiblingsFillGaps;
  return NarrowKind::None;
}

std::set<size_t> accessesWithGapFillingSiblings(const KernelInfo &k) {
  std::set<size_t> out;
  for (const NarrowAccessGroup &g : k.narrowGroups)
    if (narrowKind(g) == NarrowKind::SiblingsFillGaps)
      out.insert(g.accesses.begin(), g.accesses.end());
  return out;
}

} // namespace warplint
