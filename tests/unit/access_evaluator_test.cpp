// The index algebra and the warp instantiation over symbolic addresses: the
// positives and the traps of the two diagnostics, without Clang.
#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/warp/WarpOutcomes.h"
#include <gtest/gtest.h>

using namespace warplint;

namespace {

ExprRef C(int64_t v) { return IndexExpr::constant(v); }
ExprRef tx() { return IndexExpr::symbol({SymbolKind::ThreadIdx, 0, "threadIdx.x"}); }
ExprRef ty() { return IndexExpr::symbol({SymbolKind::ThreadIdx, 1, "threadIdx.y"}); }
ExprRef bdx() { return IndexExpr::symbol({SymbolKind::BlockDim, 0, "blockDim.x"}); }
ExprRef bx() { return IndexExpr::symbol({SymbolKind::BlockIdx, 0, "blockIdx.x"}); }
ExprRef param(const char *n) { return IndexExpr::symbol({SymbolKind::Param, 0, n}); }
ExprRef op(ExprOp o, ExprRef a, ExprRef b) { return IndexExpr::make(o, {a, b}); }
ExprRef add(ExprRef a, ExprRef b) { return op(ExprOp::Add, a, b); }
ExprRef mul(ExprRef a, ExprRef b) { return op(ExprOp::Mul, a, b); }

WarpAccessEval shared(ExprRef elementIndex, BlockShape b, int64_t width = 4, std::vector<ExprRef> guards = {}) {
  GuardedAccess a{mul(elementIndex, C(width)), width, AddressSpace::Shared, std::move(guards)};
  auto e = evaluateWarpAccess(a, b, {});
  EXPECT_TRUE(e.has_value());
  return e.value_or(WarpAccessEval{});
}

WarpAccessEval global(ExprRef elementIndex, BlockShape b, int64_t width = 4) {
  GuardedAccess a{mul(elementIndex, C(width)), width, AddressSpace::Global, {}};
  auto e = evaluateWarpAccess(a, b, {});
  EXPECT_TRUE(e.has_value());
  return e.value_or(WarpAccessEval{});
}

} // namespace

TEST(IndexExpr, FoldsConstantsAndPrints) {
  EXPECT_EQ(add(C(2), C(3))->value, 5);
  EXPECT_EQ(mul(tx(), C(1))->str(), "threadIdx.x");
  EXPECT_EQ(add(mul(tx(), C(32)), ty())->str(), "threadIdx.x*32 + threadIdx.y");
}

TEST(IndexExpr, UnknownNeverEvaluates) {
  ExprRef e = add(tx(), IndexExpr::unknown("a value loaded from memory"));
  EXPECT_FALSE(e->isKnown());
  EXPECT_EQ(e->firstUnknownReason(), "a value loaded from memory");
  EXPECT_FALSE(evaluate(*e, Binding{}).has_value());
  EXPECT_FALSE(evaluate(*op(ExprOp::Div, tx(), C(0)), Binding{}).has_value());
}

TEST(IndexExpr, LoopRecurrenceSteps) {
  auto rec = std::make_shared<LoopRecurrence>();
  rec->loopId = 0;
  rec->var = "s";
  rec->init = C(1);
  rec->stepOp = ExprOp::Mul;
  rec->step = C(2);
  Binding b;
  EXPECT_EQ(*loopValueAt(*rec, b, 4), 16);
  rec->stepOp = ExprOp::Shr;
  rec->init = C(128);
  rec->step = C(1);
  EXPECT_EQ(*loopValueAt(*rec, b, 3), 16);
}

TEST(Evaluator, TransposeColumnReadIs32Way) {
  // tile[32][32]: tile[threadIdx.x][threadIdx.y] with 32x8 blocks.
  auto e = shared(add(mul(tx(), C(32)), ty()), {32, 8, 1});
  EXPECT_EQ(e.bankConflictDegree, 32);
  EXPECT_EQ(e.laneStrideBytes, 128);
}

TEST(Evaluator, PaddedTileIsConflictFree) {
  EXPECT_EQ(shared(add(mul(tx(), C(33)), ty()), {32, 8, 1}).bankConflictDegree, 1);
}

TEST(Evaluator, RowReadOfSquareTileIsConflictFree) {
  EXPECT_EQ(shared(add(mul(ty(), C(32)), tx()), {32, 32, 1}).bankConflictDegree, 1);
}

TEST(Evaluator, SkewedAndSwizzledIndicesAreConflictFree) {
  // tile[tx][(ty + tx) % 32] and tile[tx][ty ^ tx]
  ExprRef skew = add(mul(tx(), C(32)), op(ExprOp::Rem, add(ty(), tx()), C(32)));
  EXPECT_EQ(shared(skew, {32, 8, 1}).bankConflictDegree, 1);
  ExprRef swz = add(mul(tx(), C(32)), op(ExprOp::Xor, ty(), tx()));
  EXPECT_EQ(shared(swz, {32, 8, 1}).bankConflictDegree, 1);
}

TEST(Evaluator, BroadcastIsUniform) {
  auto e = shared(ty(), {32, 8, 1});
  EXPECT_TRUE(e.uniform);
  EXPECT_EQ(e.bankConflictDegree, 1);
}

TEST(Evaluator, WarpIdOffsetsAreConflictFree) {
  // warp_id * 32 + lane with lane = tid % 32
  ExprRef warpId = op(ExprOp::Div, tx(), C(32));
  ExprRef lane = op(ExprOp::Rem, tx(), C(32));
  EXPECT_EQ(shared(add(mul(warpId, C(32)), lane), {256, 1, 1}).bankConflictDegree, 1);
  EXPECT_EQ(global(add(mul(warpId, C(32)), lane), {256, 1, 1}).sectors, 4);
}

TEST(Evaluator, TwoDimensionalBlockSpanningTwoRows) {
  // 16x16 block: a warp covers rows ty and ty+1 of 16 consecutive floats each.
  ExprRef row = add(mul(IndexExpr::symbol({SymbolKind::BlockIdx, 1, "blockIdx.y"}), C(16)), ty());
  ExprRef col = add(mul(bx(), C(16)), tx());
  auto g = global(add(mul(row, param("n")), col), {16, 16, 1});
  EXPECT_EQ(g.sectors, 4);
  EXPECT_EQ(g.idealSectors, 4);
  // A 16x16 float tile read by rows: conflict-free.
  EXPECT_EQ(shared(add(mul(ty(), C(16)), tx()), {16, 16, 1}).bankConflictDegree, 1);
  // ... and by columns: rows are 16 words apart, so lanes with tx of equal parity share a bank: 8-way.
  EXPECT_EQ(shared(add(mul(tx(), C(16)), ty()), {16, 16, 1}).bankConflictDegree, 8);
}

TEST(Evaluator, StridedGlobalReadTakes32Sectors) {
  ExprRef i = add(mul(bx(), bdx()), tx());
  auto e = global(mul(i, C(32)), {256, 1, 1});
  EXPECT_EQ(e.sectors, 32);
  EXPECT_EQ(e.idealSectors, 4);
  auto ok = global(i, {256, 1, 1});
  EXPECT_EQ(ok.sectors, 4);
}

TEST(Evaluator, ColumnWalkWithSymbolicPitchIsUncoalesced) {
  // a[tid * n + k]: pitch n taken as a large multiple of 32.
  auto e = global(mul(tx(), param("n")), {256, 1, 1});
  EXPECT_EQ(e.sectors, 32);
}

TEST(Evaluator, GuardsDeactivateLanes) {
  // if (threadIdx.x < 4) tile[threadIdx.x * 32]
  ExprRef guard = op(ExprOp::Lt, tx(), C(4));
  auto e = shared(mul(tx(), C(32)), {256, 1, 1}, 4, {guard});
  EXPECT_EQ(e.activeLanes, 4);
  EXPECT_EQ(e.bankConflictDegree, 4);
}

TEST(Evaluator, TreeReductionWorstIterationIsReported) {
  // for (s = 1; s < blockDim.x; s *= 2) { index = 2*s*tid; if (index < blockDim.x) sdata[index] }
  auto rec = std::make_shared<LoopRecurrence>();
  rec->loopId = 0;
  rec->var = "s";
  rec->init = C(1);
  rec->stepOp = ExprOp::Mul;
  rec->step = C(2);
  ExprRef s = IndexExpr::loopVar(rec);
  rec->cond = op(ExprOp::Lt, s, bdx());
  ExprRef index = mul(mul(C(2), s), tx());
  auto e = shared(index, {256, 1, 1}, 4, {op(ExprOp::Lt, index, bdx())});
  // s=1: 2-way, s=2: 4-way, s=4: 8-way, s=8: 16 lanes in 2 banks (8-way), s=16: 8 lanes in bank 0.
  EXPECT_EQ(e.bankConflictDegree, 8);
  EXPECT_EQ(e.iteration, "s = 4");
  // Sequential addressing: for (s = blockDim.x/2; s > 0; s >>= 1) if (tid < s) sdata[tid + s]
  auto seq = std::make_shared<LoopRecurrence>();
  seq->loopId = 1;
  seq->var = "s";
  seq->init = op(ExprOp::Div, bdx(), C(2));
  seq->stepOp = ExprOp::Shr;
  seq->step = C(1);
  ExprRef s2 = IndexExpr::loopVar(seq);
  seq->cond = op(ExprOp::Gt, s2, C(0));
  auto e2 = shared(add(tx(), s2), {256, 1, 1}, 4, {op(ExprOp::Lt, tx(), s2)});
  EXPECT_EQ(e2.bankConflictDegree, 1);
}

TEST(Evaluator, UnknownIndexIsNotEvaluated) {
  GuardedAccess a{add(tx(), IndexExpr::unknown("a value loaded from memory")), 4, AddressSpace::Shared, {}};
  EXPECT_FALSE(evaluateWarpAccess(a, {256, 1, 1}, {}).has_value());
}

TEST(Evaluator, DoublesInSharedMemory) {
  // double tile[32][32]: column read with 8-byte accesses.
  auto e = shared(add(mul(tx(), C(32)), ty()), {32, 8, 1}, 8);
  EXPECT_EQ(e.bankConflictDegree, 16);
  auto row = shared(add(mul(ty(), C(32)), tx()), {32, 8, 1}, 8);
  EXPECT_EQ(row.bankConflictDegree, 1);
}

namespace {

// Every sample's evaluation under each shape, with the warps kept across
// shapes (as UniformSweep evaluates) or each shape on its own.
std::vector<std::optional<WarpAccessEval>> acrossFourShapes(const GuardedAccess &a, const std::vector<int> &swept,
                                                            const std::vector<std::vector<int64_t>> &samples,
                                                            bool keepWarps, size_t *outcomesKept = nullptr) {
  std::vector<std::optional<WarpAccessEval>> all;
  WarpsAcrossShapes kept;
  for (BlockShape shape : {BlockShape{128, 1, 1}, BlockShape{256, 1, 1}, BlockShape{512, 1, 1}, BlockShape{1024, 1, 1}}) {
    auto r = evaluateWarpAccessSamples(a, shape, {}, swept, samples, nullptr, keepWarps ? &kept : nullptr);
    all.insert(all.end(), r.begin(), r.end());
  }
  if (outcomesKept)
    *outcomesKept = kept.outcomes.size();
  return all;
}

void expectSameEvaluations(const std::vector<std::optional<WarpAccessEval>> &x,
                           const std::vector<std::optional<WarpAccessEval>> &y) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(x[i].has_value(), y[i].has_value()) << i;
    if (!x[i])
      continue;
    EXPECT_EQ(x[i]->block.x, y[i]->block.x) << i;
    EXPECT_EQ(x[i]->warpInBlock, y[i]->warpInBlock) << i;
    EXPECT_EQ(x[i]->iteration, y[i]->iteration) << i;
    EXPECT_EQ(x[i]->bankConflictDegree, y[i]->bankConflictDegree) << i;
    EXPECT_EQ(x[i]->wavefronts, y[i]->wavefronts) << i;
    EXPECT_EQ(x[i]->activeLanes, y[i]->activeLanes) << i;
    EXPECT_EQ(x[i]->conflictLanes, y[i]->conflictLanes) << i;
  }
}

} // namespace

TEST(Evaluator, WarpsKeptAcrossShapesGiveTheSameEvaluations) {
  // A parallel cyclic reduction step: sdata[(tid + delta) & (n - 1)] with
  // delta doubling in a loop and n swept, under a guard on tid.
  auto rec = std::make_shared<LoopRecurrence>();
  rec->loopId = 0;
  rec->var = "delta";
  rec->init = C(1);
  rec->stepOp = ExprOp::Mul;
  rec->step = C(2);
  ExprRef delta = IndexExpr::loopVar(rec);
  rec->cond = op(ExprOp::Lt, delta, C(512));
  ExprRef n = IndexExpr::symbol({SymbolKind::Uniform, 1 << 24, "n"});
  ExprRef index = op(ExprOp::And, add(tx(), delta), op(ExprOp::Sub, n, C(1)));
  GuardedAccess a{mul(index, C(4)), 4, AddressSpace::Shared, {op(ExprOp::Lt, tx(), C(200))}};
  std::vector<std::vector<int64_t>> samples{{1}, {2}, {32}, {33}, {64}, {1024}};
  size_t kept = 0;
  auto shared = acrossFourShapes(a, {1 << 24}, samples, true, &kept);
  expectSameEvaluations(acrossFourShapes(a, {1 << 24}, samples, false), shared);
  EXPECT_GT(kept, 0u); // the warps were kept, and reused: the results above agree
  // The global index reads blockDim only in blockIdx.x * blockDim.x: block 0's
  // warps are kept, block 1's evaluated per shape.
  GuardedAccess global{mul(add(tx(), mul(bx(), bdx())), C(4)), 4, AddressSpace::Global,
                       {op(ExprOp::Lt, add(tx(), mul(bx(), bdx())), C(300))}};
  expectSameEvaluations(acrossFourShapes(global, {}, {{}}, false), acrossFourShapes(global, {}, {{}}, true, &kept));
  EXPECT_EQ(kept, 6u); // block 0 only: warps 0 and 1, and each shape's last (3, 7, 15, 31)
  // An address that reads blockDim otherwise is evaluated per shape, nothing kept.
  GuardedAccess sized{mul(add(tx(), bdx()), C(4)), 4, AddressSpace::Global, {}};
  expectSameEvaluations(acrossFourShapes(sized, {}, {{}}, false), acrossFourShapes(sized, {}, {{}}, true, &kept));
  EXPECT_EQ(kept, 0u);
  // Nor when only a loop's bound reads it.
  rec->cond = op(ExprOp::Lt, delta, bdx());
  expectSameEvaluations(acrossFourShapes(a, {1 << 24}, samples, false),
                        acrossFourShapes(a, {1 << 24}, samples, true, &kept));
  EXPECT_EQ(kept, 0u);
}
