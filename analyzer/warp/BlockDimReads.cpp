#include "analyzer/warp/BlockDimReads.h"
#include "analyzer/warp/ExprForms.h"

#include <set>

namespace warplint {

// Whether the address, a guard or a loop bound either reads (conditions of
// loops included, which IndexExpr::dependsOn does not look into) reads
// blockDim: then a warp's outcome depends on the block's size.
bool readsBlockDim(const GuardedAccess &a) {
  auto isBlockDim = [](const Symbol &s) { return s.kind == SymbolKind::BlockDim; };
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  a.byteOffset->collectLoops(loops);
  for (auto &g : a.guards)
    g->collectLoops(loops);
  for (size_t i = 0; i < loops.size(); ++i) // grows: a condition may read further loops
    if (loops[i]->cond)
      loops[i]->cond->collectLoops(loops);
  if (readsAny(*a.byteOffset, isBlockDim))
    return true;
  for (auto &g : a.guards)
    if (readsAny(*g, isBlockDim))
      return true;
  for (auto &l : loops)
    if (readsAny(*l->init, isBlockDim) || readsAny(*l->step, isBlockDim) || (l->cond && readsAny(*l->cond, isBlockDim)))
      return true;
  return false;
}

// Whether `e` is 0 whenever blockIdx is (blockIdx.x * blockDim.x, shifted
// or scaled), by its form.
static bool zeroInBlockZero(const IndexExpr &e) {
  switch (e.op) {
  case ExprOp::Const: return e.value == 0;
  case ExprOp::Sym: return e.sym.kind == SymbolKind::BlockIdx;
  case ExprOp::Mul:
  case ExprOp::And: return zeroInBlockZero(*e.operands[0]) || zeroInBlockZero(*e.operands[1]);
  case ExprOp::Add:
  case ExprOp::Sub: return zeroInBlockZero(*e.operands[0]) && zeroInBlockZero(*e.operands[1]);
  case ExprOp::Shl:
  case ExprOp::Shr: return zeroInBlockZero(*e.operands[0]);
  default: return false;
  }
}

// Whether `e` reads blockDim other than in a part zeroInBlockZero: in block
// (0, 0, 0) its value then does not depend on the block's size. Loops are
// followed into their initial value, step and condition, each once.
static bool readsBlockDimInBlockZero(const IndexExpr &e, std::set<int> &loopsSeen) {
  if (zeroInBlockZero(e))
    return false;
  if (e.op == ExprOp::Sym)
    return e.sym.kind == SymbolKind::BlockDim;
  if (e.op == ExprOp::LoopVar) {
    if (!loopsSeen.insert(e.loop->loopId).second)
      return false;
    return readsBlockDimInBlockZero(*e.loop->init, loopsSeen) || readsBlockDimInBlockZero(*e.loop->step, loopsSeen) ||
           (e.loop->cond && readsBlockDimInBlockZero(*e.loop->cond, loopsSeen));
  }
  for (auto &o : e.operands)
    if (readsBlockDimInBlockZero(*o, loopsSeen))
      return true;
  return false;
}

bool readsBlockDimInBlockZero(const GuardedAccess &a) {
  std::set<int> loopsSeen;
  if (readsBlockDimInBlockZero(*a.byteOffset, loopsSeen))
    return true;
  for (auto &g : a.guards)
    if (readsBlockDimInBlockZero(*g, loopsSeen))
      return true;
  return false;
}

} // namespace warplint
