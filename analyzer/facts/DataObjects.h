// The data objects of a kernel and how its threads use them (seed 000,
// Fig. 14: analyze the accesses, identify temporal, reusable and read-only
// data). For each pointer parameter and each shared, constant and private
// array: its accesses, a class with the evidence, and, from enumerating every
// thread of one block, how many threads and warp requests read each element.
// Facts only: which guideline applies and what to report is for rules/.
#pragma once

#include "analyzer/model/KernelWalker.h"
#include "analyzer/warp/AccessEvaluator.h"

namespace warplint {

// Fills k.info.dataObjects. Needs the accesses evaluated (evals, worstEval)
// and k.info.blockShapes set; the first block shape is the one enumerated.
void describeDataObjects(ModeledKernel &k, const EvaluationOptions &opts);

} // namespace warplint
