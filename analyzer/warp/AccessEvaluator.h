// Instantiates the lanes of a warp for an access whose byte address is a
// symbolic expression, under a block shape, and measures what the warp does:
// bank-conflict degree for shared memory, sectors per request for global.
// Warp-uniform unknowns (loop iterations, warp index, block index) are
// enumerated and the worst case is kept, with the binding that produced it.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/model/IndexExpr.h"
#include <map>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct GuardedAccess {
  ExprRef byteOffset;          // address relative to a 256-byte aligned base
  int64_t widthBytes = 4;
  AddressSpace space = AddressSpace::Global;
  std::vector<ExprRef> guards; // each must be non-zero for a lane to take part
  // Bytes of the variable accessed when it is an array of known size; 0 if
  // unknown. A binding that puts a lane outside it is not a real execution
  // (an assumed parameter value or block shape was wrong) and is skipped.
  int64_t extentBytes = 0;
  // A plain store: 8- and 16-byte shared stores keep fixed half- and
  // quarter-warp phases where loads may merge them (LaneAddresses::store).
  bool store = false;
};

struct EvaluationOptions {
  std::optional<BlockShape> grid;
  int64_t symbolicValue = 1024;
  int maxIterationsPerLoop = 64;
  int maxBindings = 2048; // cap on (warp, block, iteration) combinations
  // Cap on (iteration combination x warp x block x sample) evaluations of one
  // swept access: beyond it the loops' iterations are thinned further, and
  // the sweep says so (a kernel with many symbolic sizes and three nested
  // loops otherwise costs tens of seconds; issue 19).
  int64_t sweepBudget = int64_t{1} << 16;
  // Values of particular parameters and uniform unknowns (by symbol index);
  // the others take symbolicValue.
  std::map<int, int64_t> paramOverrides, uniformOverrides;
  // Evaluate every warp of the block, not only the representative ones.
  bool everyWarp = false;
  // Evaluate the grid's last block (blockIdx = gridDim - 1 in every
  // dimension) instead of blocks 0 and 1: the one a `by == gridDim.y - 1`
  // edge branch runs in.
  bool lastBlock = false;
  // The block enumerateBlock walks (blockIdx.x, .y, .z): the work tally
  // walks a block's neighbours too, to see which sectors blocks share.
  int64_t blockIndex[3] = {0, 0, 0};
};

// The worst evaluation for this block shape, or nullopt when the address
// could not be evaluated for any lane (unknown index) or no lane is active.
std::optional<WarpAccessEval> evaluateWarpAccess(const GuardedAccess &access, const BlockShape &block,
                                                 const EvaluationOptions &opts);

// The same for several values of the uniform symbols `sweptIds` (ids of
// SymbolKind::Uniform symbols of the address only, not of its guards or
// loop bounds): one result per entry of `samples` (values parallel to
// sweptIds), each as evaluateWarpAccess gives with those values among
// opts.uniformOverrides. The enumeration (loops, guards, lanes taking part)
// is done once for all of them, the addresses from two evaluations per lane
// when they are affine in the symbols, and each distinct lane pattern (up
// to a shift by 128 bytes, which changes nothing measured) is measured once.
// `thinned`, when given, is set to the iteration combinations kept and those
// there were when the sweep budget thinned them (untouched otherwise).
struct ThinnedIterations {
  size_t kept = 0, total = 0;
};
// `acrossShapes`, when given, keeps the warps measured under one block shape
// for the next shapes of the same access and samples (WarpOutcomes.h).
struct WarpsAcrossShapes;
std::vector<std::optional<WarpAccessEval>>
evaluateWarpAccessSamples(const GuardedAccess &access, const BlockShape &block, const EvaluationOptions &opts,
                          const std::vector<int> &sweptIds, const std::vector<std::vector<int64_t>> &samples,
                          ThinnedIterations *thinned = nullptr, WarpsAcrossShapes *acrossShapes = nullptr);

} // namespace warplint
