#include "analyzer/warp/UnreachedAccess.h"

namespace warplint {

namespace {

// Thread-iterations enumerated per shape before giving up on a proof.
constexpr int64_t kLaneBudget = 1 << 16;

bool readsOnlyShape(const ExprRef &e) {
  for (SymbolKind k : {SymbolKind::BlockIdx, SymbolKind::GridDim, SymbolKind::Param, SymbolKind::Uniform})
    if (e && e->dependsOn(k))
      return false;
  return true;
}

} // namespace

bool neverExecuted(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                   const EvaluationOptions &opts) {
  if (shapes.empty() || access.guards.empty())
    return false;
  // One guard that no thread passes decides alone, whatever the others and
  // the loops read (`if (!nIsPow2)` around `while (i < n)`).
  for (auto &g : access.guards)
    if (readsOnlyShape(g) && !g->dependsOnLoop()) {
      GuardedAccess one;
      one.byteOffset = IndexExpr::constant(0);
      one.guards = {g};
      bool noneTakes = true;
      for (auto &shape : shapes) {
        int64_t taken = 0;
        BlockEnumeration r = enumerateBlock(one, shape, opts, kLaneBudget, [&](const BlockLane &) { ++taken; });
        noneTakes = noneTakes && r.evaluated && r.complete && taken == 0;
      }
      if (noneTakes)
        return true;
    }
  for (auto &g : access.guards)
    if (!readsOnlyShape(g))
      return false;
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  for (auto &g : access.guards)
    g->collectLoops(loops);
  for (auto &l : loops)
    for (const ExprRef &part : {l->init, l->step, l->cond})
      if (!readsOnlyShape(part))
        return false;
  // Only the guards decide whether a thread takes part: an address outside
  // the array must not count as "not taken".
  GuardedAccess probe = access;
  probe.byteOffset = IndexExpr::constant(0);
  probe.extentBytes = 0;
  for (auto &shape : shapes) {
    int64_t taken = 0;
    BlockEnumeration r = enumerateBlock(probe, shape, opts, kLaneBudget, [&](const BlockLane &) { ++taken; });
    if (r.loopNeverRuns)
      continue; // a loop the access depends on never runs under this shape
    if (!r.evaluated || !r.complete || taken > 0)
      return false;
  }
  return true;
}

} // namespace warplint
