// Counts what one block of a kernel does (analyzer/results/KernelWork.h):
// every warp of the block at every iteration of the loops around each access
// (enumerated up to a budget, the rest multiplied in from the loops' trip
// counts at the stated values), and the body's operations by loop nest.
// Facts for the cost model; no hardware figure is used here.
#pragma once

#include "analyzer/model/KernelWalker.h"
#include "analyzer/results/KernelWork.h"
#include "analyzer/warp/AccessEvaluator.h"

namespace warplint {

struct TallyOptions {
  // Thread-iterations one access's enumeration may evaluate before the
  // remaining iterations are extrapolated from the enumerated ones.
  int64_t maxLaneEvaluations = 8192;
  // Iterations a loop's trip count is stepped through before a closed form
  // (an arithmetic counter) or the cap is used.
  int64_t maxSteppedIterations = 4096;
};

// The work of one block of `k` under its first block shape. `eo` holds the
// grid and the parameters' value, as the warp evaluation used them.
KernelWork tallyKernelWork(const ModeledKernel &k, const EvaluationOptions &eo, const TallyOptions &opts = {});

// Iterations of `rec` that thread 0 of block 0 runs under `base` (nullopt
// when its condition cannot be evaluated), and whether a cap stopped the count.
std::optional<double> loopTripCount(const LoopRecurrence &rec, const Binding &base, int64_t maxStepped,
                                    bool &capped);

} // namespace warplint
