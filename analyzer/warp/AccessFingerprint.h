// A key that names everything an access's evaluation reads: the address and
// guard expressions by structure (not by pointer), the width, space and
// extent, the block shapes and every evaluation option. Two accesses with the
// same key evaluate alike, so the result of one stands for the other: a
// stencil kernel repeats the same index expression hundreds of times
// (HeCBench sw4ck: 36,060 sweeps over 53 distinct addresses; issue 19).
#pragma once

#include "analyzer/warp/AccessEvaluator.h"

#include <string>
#include <vector>

namespace warplint {

// The guards alone, by structure (the lanes they let through depend on
// nothing else but the binding).
std::string guardsFingerprint(const std::vector<ExprRef> &guards);

// The guards with what else a lane's verdict under them reads from a block's
// binding (block shape, grid, parameter and uniform values): the active
// lanes of a warp are the same for equal keys.
std::string guardsContextFingerprint(const std::vector<ExprRef> &guards, const BlockShape &block,
                                     const Binding &base);

std::string accessFingerprint(const GuardedAccess &access, AddressSpace space, const std::vector<BlockShape> &shapes,
                              const EvaluationOptions &opts);

} // namespace warplint
