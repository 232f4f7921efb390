// Every thread of one block at each iteration of the loops an address
// depends on, for facts about how a block's threads share memory
// (facts/DataObjects.cpp) and for the work a block does (cost/WorkTally.cpp).
#pragma once

#include "analyzer/warp/AccessEvaluator.h"

#include <functional>
#include <string>
#include <vector>

namespace warplint {

// One thread's address during a whole-block enumeration.
struct BlockLane {
  int thread = 0;       // linear thread id within the block (x fastest)
  int64_t step = 0;     // index of the loop-iteration combination; 0 without loops
  int64_t address = 0;  // byte offset
};

struct BlockEnumeration {
  bool evaluated = false; // every active thread's address evaluated (else no lane was visited)
  bool complete = false;  // every iteration of every loop the access depends on was enumerated
  int64_t steps = 0;      // iteration combinations enumerated
  std::string window;     // when not complete: which iterations were, e.g. "the first 64 iterations of k"
  std::vector<std::string> loopVars; // the loops enumerated, outermost first as found
  bool loopNeverRuns = false; // a loop's condition fails for every thread from the start
};

// Every thread of the block (block index 0), not only representative warps,
// at each iteration of the loops the address depends on: for counting how
// the threads of one block share elements (analyzer/facts/DataObjects.cpp).
// At most `maxLaneEvaluations` thread-iterations are evaluated: a loop's
// iterations are cut to a prefix (the first ones) and the result says so.
BlockEnumeration enumerateBlock(const GuardedAccess &access, const BlockShape &block, const EvaluationOptions &opts,
                                int64_t maxLaneEvaluations, const std::function<void(const BlockLane &)> &visit);

} // namespace warplint
