// GuardRanges lets a guard-value retry be skipped when a guard is false for
// every lane the warp model could evaluate (issue 19). Sound or it hides
// findings: wherever guardNeverPasses says so, evaluate() must give 0 (not
// nonzero, and not a failure, which counts as passing) at every thread of
// blocks 0 and 1 (or the grid's last block) and every loop iteration below
// the cap.
#include "analyzer/warp/GuardRanges.h"
#include "analyzer/warp/WarpBindings.h"
#include "tests/unit/RandomExprs.h"
#include <gtest/gtest.h>

using namespace warplint;
using namespace warplint::test;

namespace {

// A comparison of a random expression with a constant, as guards are.
ExprRef randomGuard(RandomExprs &r) {
  const ExprOp cmp[] = {ExprOp::Lt, ExprOp::Le, ExprOp::Gt, ExprOp::Ge, ExprOp::Eq, ExprOp::Ne};
  ExprRef e = IndexExpr::make(cmp[r.pick(6)], {r.node(4), IndexExpr::constant(r.pick(40) - 8)});
  if (r.pick(3) == 0)
    e = IndexExpr::make(r.pick(2) ? ExprOp::LAnd : ExprOp::LOr, {e, r.node(3)});
  return e;
}

} // namespace

TEST(GuardRanges, NeverPassesOnlyWhereEveryLaneAndIterationFails) {
  RandomExprs r;
  int claimed = 0, checked = 0;
  for (int n = 0; n < 4000; ++n) {
    ExprRef g = randomGuard(r);
    BlockShape shape{1 + r.pick(64), 1 + r.pick(4), 1 + r.pick(2)};
    EvaluationOptions opts;
    opts.symbolicValue = r.pick(2) ? 1024 : r.pick(9);
    opts.maxIterationsPerLoop = 1 + r.pick(8);
    if (r.pick(2))
      opts.paramOverrides[r.pick(3)] = r.pick(9) - 2;
    if (r.pick(2))
      opts.uniformOverrides[r.pick(2)] = r.pick(9);
    opts.lastBlock = r.pick(4) == 0;
    opts.grid = BlockShape{1 + r.pick(6), 1 + r.pick(3), 1 + r.pick(2)};
    if (!guardNeverPasses(*g, {shape}, opts))
      continue;
    ++claimed;
    Binding b = blockBinding(shape, opts);
    for (int64_t bi : {0, 1})
      for (int64_t tid = 0; tid < shape.threads(); tid += 1 + tid / 8) {
        bindThread(b, shape, tid);
        for (int d = 0; d < 3; ++d) // blocks 0 and 1, or the grid's last (as evaluateWarpAccessSamples binds them)
          b.blockIdx[d] = opts.lastBlock ? b.gridDim[d] - 1 : bi;
        for (int k0 = 0; k0 < opts.maxIterationsPerLoop; ++k0)
          for (int k1 : {0, opts.maxIterationsPerLoop - 1})
            for (int k2 : {0, k0}) {
              b.loopIter[0] = k0, b.loopIter[1] = k1, b.loopIter[2] = k2;
              auto v = evaluate(*g, b);
              ASSERT_TRUE(v && *v == 0) << g->str() << " passes at thread " << tid << " block " << bi;
              ++checked;
            }
      }
  }
  EXPECT_GT(claimed, 100); // it does rule guards out
  EXPECT_GT(checked, 10000);
}

// The d3q19-bgk guard: x + x0 == 0 with x = threadIdx.x + blockIdx.x *
// blockDim.x stepped by blockDim.x * gridDim.x; no lane at x0 = 8, some at x0 = 0.
TEST(GuardRanges, LoopVariableFromThreadIndex) {
  auto rec = std::make_shared<LoopRecurrence>();
  rec->loopId = 0;
  rec->var = "x";
  auto tid = IndexExpr::symbol({SymbolKind::ThreadIdx, 0, "threadIdx.x"});
  auto bid = IndexExpr::symbol({SymbolKind::BlockIdx, 0, "blockIdx.x"});
  auto bdim = IndexExpr::symbol({SymbolKind::BlockDim, 0, "blockDim.x"});
  auto gdim = IndexExpr::symbol({SymbolKind::GridDim, 0, "gridDim.x"});
  rec->init = IndexExpr::make(ExprOp::Add, {tid, IndexExpr::make(ExprOp::Mul, {bid, bdim})});
  rec->step = IndexExpr::make(ExprOp::Mul, {bdim, gdim});
  rec->stepOp = ExprOp::Add;
  auto x0 = IndexExpr::symbol({SymbolKind::Param, 0, "x0"});
  auto guard = IndexExpr::make(ExprOp::Eq, {IndexExpr::make(ExprOp::Add, {IndexExpr::loopVar(rec), x0}),
                                            IndexExpr::constant(0)});
  EvaluationOptions opts;
  opts.paramOverrides[0] = 8;
  EXPECT_TRUE(guardNeverPasses(*guard, {{128, 1, 1}, {256, 1, 1}}, opts));
  opts.paramOverrides[0] = 0;
  EXPECT_FALSE(guardNeverPasses(*guard, {{128, 1, 1}}, opts));
  // The grid's last block (blockIdx = gridDim - 1): x >= 1023 * 128 there.
  opts.lastBlock = true;
  EXPECT_TRUE(guardNeverPasses(*guard, {{128, 1, 1}}, opts));
  // x < 64 passes in block 0 only: ruled out in the last block, not in blocks 0 and 1.
  auto below = IndexExpr::make(ExprOp::Lt, {IndexExpr::loopVar(rec), IndexExpr::constant(64)});
  EXPECT_TRUE(guardNeverPasses(*below, {{128, 1, 1}}, opts));
  opts.lastBlock = false;
  EXPECT_FALSE(guardNeverPasses(*below, {{128, 1, 1}}, opts));
}
