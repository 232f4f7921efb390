#include "analyzer/warp/WarpBindings.h"
#include "analyzer/warp/WarpSimulator.h"

namespace warplint {

Binding blockBinding(const BlockShape &block, const EvaluationOptions &opts) {
  Binding base;
  base.blockDim[0] = block.x;
  base.blockDim[1] = block.y;
  base.blockDim[2] = block.z;
  BlockShape grid = opts.grid.value_or(BlockShape{opts.symbolicValue, opts.symbolicValue, 1});
  base.gridDim[0] = grid.x;
  base.gridDim[1] = grid.y;
  base.gridDim[2] = grid.z;
  base.paramValue = opts.symbolicValue;
  base.paramOverride = opts.paramOverrides;
  base.uniformOverride = opts.uniformOverrides;
  for (int d = 0; d < 3; ++d)
    base.blockIdx[d] = opts.blockIndex[d];
  return base;
}

void bindThread(Binding &b, const BlockShape &block, int64_t tid) {
  b.threadIdx[0] = tid % block.x;
  b.threadIdx[1] = (tid / block.x) % block.y;
  b.threadIdx[2] = tid / (block.x * block.y);
}

std::vector<int> representativeWarps(const BlockShape &block) {
  int64_t warps = (block.threads() + kWarpSize - 1) / kWarpSize;
  std::vector<int> out{0};
  if (warps > 1)
    out.push_back(1);
  if (warps > 2)
    out.push_back(static_cast<int>(warps - 1));
  return out;
}

bool laneActive(const GuardedAccess &a, const Binding &b) {
  for (auto &g : a.guards) {
    auto v = evaluate(*g, b);
    if (v && *v == 0)
      return false; // a guard we cannot evaluate is taken as true
  }
  return true;
}

std::vector<int64_t> loopIterations(const LoopRecurrence &rec, const Binding &base, int cap) {
  std::vector<int64_t> ks;
  Binding withK = base; // one copy, its iteration and lane set in place
  for (int64_t k = 0; k < cap; ++k) {
    bool anyLane = false, known = true;
    withK.loopIter[rec.loopId] = k;
    for (int l = 0; l < kWarpSize && !anyLane; ++l) {
      withK.threadIdx[0] = l; // the condition is mostly uniform; a few lanes suffice
      if (!rec.cond) {
        anyLane = true;
        break;
      }
      auto c = evaluate(*rec.cond, withK);
      if (!c) {
        known = false;
        break;
      }
      anyLane = *c != 0;
    }
    if (!known) { // an unknown bound: a few representative iterations
      if (k < 4)
        ks.push_back(k);
      else
        break;
      continue;
    }
    if (!anyLane)
      break;
    ks.push_back(k);
  }
  return ks;
}

} // namespace warplint
