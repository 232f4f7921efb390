// Which shared-memory loads read values that other lanes of the same warp
// stored, with no __syncthreads in between (analyzer/results/WarpExchange.h):
// every thread of the block is run through the kernel's shared accesses,
// barriers and __syncwarp calls in program order, at every iteration of the
// loops around them, with a shadow of each array recording who stored each
// byte last.
#pragma once

#include "analyzer/model/KernelWalker.h"
#include "analyzer/warp/AccessEvaluator.h"

namespace warplint {

// Fills k.info.warpExchanges. Needs the accesses evaluated and
// k.info.blockShapes set; each shape (up to four, 1024 threads each) is run.
void describeWarpExchanges(ModeledKernel &k, const EvaluationOptions &opts);

} // namespace warplint
