#include "analyzer/warp/UnreachedAccess.h"
#include "analyzer/warp/UniformSweep.h"

#include <set>

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

// The loops whose bounds decide whether a thread takes the access: those of
// its guards, and with `address` also those its address walks.
std::vector<std::shared_ptr<const LoopRecurrence>> deciding(const GuardedAccess &access, bool address) {
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  if (address)
    access.byteOffset->collectLoops(loops);
  for (auto &g : access.guards)
    g->collectLoops(loops);
  return loops;
}

// Whether no thread of any shape's block takes `probe` (its address is
// ignored): every thread enumerated at every iteration and none passed, or,
// with `emptyLoopCounts`, a loop it depends on never runs.
bool noThreadTakes(const GuardedAccess &probe, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts,
                   bool emptyLoopCounts) {
  for (auto &shape : shapes) {
    int64_t taken = 0;
    BlockEnumeration r = enumerateBlock(probe, shape, opts, kLaneBudget, [&](const BlockLane &) { ++taken; });
    if (emptyLoopCounts && r.loopNeverRuns)
      continue;
    if (!r.evaluated || !r.complete || taken > 0)
      return false;
  }
  return true;
}

} // namespace

bool neverExecuted(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                   const EvaluationOptions &opts) {
  if (shapes.empty() || access.guards.empty())
    return false;
  // Only the guards decide whether a thread takes part: an address outside
  // the array must not count as "not taken".
  GuardedAccess probe = access;
  probe.byteOffset = IndexExpr::constant(0);
  probe.extentBytes = 0;
  // One guard that no thread passes decides alone, whatever the others and
  // the loops read (`if (!nIsPow2)` around `while (i < n)`).
  for (auto &g : access.guards)
    if (readsOnlyShape(g) && !g->dependsOnLoop()) {
      GuardedAccess one = probe;
      one.guards = {g};
      if (noThreadTakes(one, shapes, opts, false))
        return true;
    }
  for (auto &g : access.guards)
    if (!readsOnlyShape(g))
      return false;
  for (auto &l : deciding(access, false))
    for (const ExprRef &part : {l->init, l->step, l->cond})
      if (!readsOnlyShape(part))
        return false;
  return noThreadTakes(probe, shapes, opts, true);
}

bool evaluateWithSmallGuardParameter(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                                     const EvaluationOptions &opts, MemoryAccess &f) {
  std::vector<Symbol> symbols;
  for (auto &g : access.guards)
    g->collectSymbols(symbols);
  for (auto &l : deciding(access, true))
    for (const ExprRef &part : {l->init, l->step, l->cond})
      if (part)
        part->collectSymbols(symbols);
  std::set<int> tried;
  const std::vector<std::string> assumptions = f.assumptions; // each evaluation adds its own
  for (const Symbol &s : symbols) {
    if (s.kind != SymbolKind::Param || s.boolean || !tried.insert(s.index).second || tried.size() > 4)
      continue;
    for (int64_t value : {8, 1}) {
      EvaluationOptions small = opts;
      small.paramOverrides[s.index] = value;
      f.assumptions = assumptions;
      evaluateAccess(access, shapes, small, f);
      if (!f.evals.empty()) {
        f.guardValueAssumed = s.name + " = " + std::to_string(value);
        f.assumptions.push_back("no lane passes the guards with every parameter at " +
                                std::to_string(opts.symbolicValue) + "; evaluated with " + f.guardValueAssumed);
        return true;
      }
    }
  }
  f.assumptions = assumptions;
  return false;
}

} // namespace warplint
