// Groups a thread's 1- and 2-byte global accesses to one pointer that run
// together (one straight-line region or loop body, or the iterations of a
// short constant loop) and whose addresses differ by constants, and measures
// the group over the warp: bytes a lane moves per instruction, the lane
// stride, and whether the warp's bytes over all the group's accesses form one
// contiguous run (the sibling accesses fill each other's gaps). Facts only:
// KernelInfo::narrowGroups; rules decide what is narrow.
#pragma once

#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/model/KernelWalker.h"

namespace warplint {

// Fills k.info.narrowGroups; every access must already be evaluated
// (MemoryAccess::evals), which is how candidates are chosen.
void findNarrowAccessGroups(ModeledKernel &k, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts);

} // namespace warplint
