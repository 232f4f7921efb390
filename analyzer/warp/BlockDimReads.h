// What an access reads of blockDim, for measuring its warps once across
// block shapes (WarpsAcrossShapes): a warp's outcome is the same under every
// 1-D shape when nothing reads blockDim, or in block 0 when only parts that
// are 0 there do (blockIdx.x * blockDim.x + threadIdx.x).
#pragma once

#include "analyzer/warp/AccessEvaluator.h"

namespace warplint {

// Whether the address, a guard or a loop bound either reads (conditions of
// loops included, which IndexExpr::dependsOn does not look into) reads
// blockDim: then a warp's outcome depends on the block's size.
bool readsBlockDim(const GuardedAccess &a);
// Whether the address or a guard reads blockDim other than in a part that is
// 0 in block (0, 0, 0).
bool readsBlockDimInBlockZero(const GuardedAccess &a);

} // namespace warplint
