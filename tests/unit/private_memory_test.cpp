// Distinct constant addresses per warp (constant-divergent-access) and the
// ptxas -v parser behind --ptxas-confirm, without Clang or a toolkit.
#include "analyzer/native/PtxasFrames.h"
#include "analyzer/warp/AccessEvaluator.h"
#include <gtest/gtest.h>

using namespace warplint;

namespace {

WarpAccessEval constantRead(ExprRef elementIndex, BlockShape b) {
  GuardedAccess a{IndexExpr::mul(elementIndex, IndexExpr::constant(4)), 4, AddressSpace::Constant, {}};
  auto e = evaluateWarpAccess(a, b, {});
  EXPECT_TRUE(e.has_value());
  return e.value_or(WarpAccessEval{});
}

ExprRef tx() { return IndexExpr::symbol({SymbolKind::ThreadIdx, 0, "threadIdx.x"}); }
ExprRef bx() { return IndexExpr::symbol({SymbolKind::BlockIdx, 0, "blockIdx.x"}); }

} // namespace

TEST(ConstantAddresses, PerLaneIndexIs32Distinct) {
  auto e = constantRead(tx(), {256, 1, 1});
  EXPECT_EQ(e.distinctAddresses, 32);
  EXPECT_EQ(e.distinctLines, 1);
}

TEST(ConstantAddresses, WarpIndexIsUniformOnlyWhenRowsHoldWholeWarps) {
  ExprRef warp = IndexExpr::make(ExprOp::Div, {tx(), IndexExpr::constant(32)});
  EXPECT_EQ(constantRead(warp, {256, 1, 1}).distinctAddresses, 1);
  EXPECT_EQ(constantRead(IndexExpr::add(warp, bx()), {256, 1, 1}).distinctAddresses, 1);
  // 48 lanes a row: a warp's lanes read x / 32 of two rows' lanes.
  ExprRef ty = IndexExpr::symbol({SymbolKind::ThreadIdx, 1, "threadIdx.y"});
  ExprRef rowWarp = IndexExpr::add(warp, IndexExpr::mul(ty, IndexExpr::constant(2)));
  EXPECT_EQ(constantRead(rowWarp, {48, 4, 1}).distinctAddresses, 2);
}

TEST(ConstantAddresses, ModuloCountsDistinctWords) {
  auto e = constantRead(IndexExpr::make(ExprOp::Rem, {tx(), IndexExpr::constant(4)}), {128, 1, 1});
  EXPECT_EQ(e.distinctAddresses, 4);
  auto spread = constantRead(IndexExpr::mul(tx(), IndexExpr::constant(64)), {128, 1, 1});
  EXPECT_EQ(spread.distinctAddresses, 32);
  EXPECT_EQ(spread.distinctLines, 32);
}

TEST(PtxasVerbose, ParsesFramesPerFunction) {
  const char *text =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z11histogram16PKiPii' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z11histogram16PKiPii\n"
      "    64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 18 registers, used 0 barriers, 64 bytes cumulative stack size\n"
      "ptxas info    : Function properties for _Z9templatedILi3EEvPKfPf\n"
      "    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n";
  auto f = parsePtxasVerbose(text);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f["_Z11histogram16PKiPii"].stackFrameBytes, 64);
  EXPECT_EQ(f["_Z11histogram16PKiPii"].demangled, "histogram16(int const*, int*, int)");
  EXPECT_EQ(f["_Z9templatedILi3EEvPKfPf"].stackFrameBytes, 0);
  EXPECT_EQ(f["_Z9templatedILi3EEvPKfPf"].spillStoreBytes, 8);
  EXPECT_EQ(f["_Z9templatedILi3EEvPKfPf"].spillLoadBytes, 4);
}
