// OffsetPolynomial (the byte-packing fix's proof that a thread's bytes are
// W*E+0..W-1) must never prove what evaluate() contradicts: on random
// expressions over every symbol kind, loop variables and opaque operators,
// a polynomial that is divisible by W evaluates to multiples of W, a
// constant difference is the evaluated difference, and a lane coefficient is
// the step from one threadIdx.x to the next, under random bindings.
#include "analyzer/model/OffsetPolynomial.h"
#include <gtest/gtest.h>

#include <random>

using namespace warplint;

namespace {

struct RandomExprs {
  std::mt19937 rng{4242};
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

  // Two loops, each one recurrence (a loop id names one recurrence, as in
  // the model), whose init and step read no loop.
  std::shared_ptr<const LoopRecurrence> loops[2];
  std::shared_ptr<const LoopRecurrence> loop(int id) {
    if (!loops[id]) {
      auto rec = std::make_shared<LoopRecurrence>();
      rec->loopId = id;
      rec->var = "i" + std::to_string(id);
      rec->init = IndexExpr::add(leaf(false), IndexExpr::mul(leaf(false), leaf(false)));
      rec->stepOp = id == 1 ? ExprOp::Mul : ExprOp::Add;
      rec->step = IndexExpr::mul(leaf(false), leaf(false));
      loops[id] = rec;
    }
    return loops[id];
  }

  ExprRef leaf(bool loopsToo = true) {
    switch (pick(loopsToo ? 8 : 6)) {
    case 0: return IndexExpr::constant(pick(9) - 3);
    case 1: return IndexExpr::symbol({SymbolKind::ThreadIdx, pick(2), "t"});
    case 2: return IndexExpr::symbol({SymbolKind::BlockIdx, 0, "b"});
    case 3: return IndexExpr::symbol({SymbolKind::BlockDim, 0, "bd"});
    case 4: return IndexExpr::symbol({SymbolKind::Param, pick(2), "p"});
    case 5: return IndexExpr::symbol({SymbolKind::Uniform, pick(2), "u"});
    case 6: return IndexExpr::loopVar(loop(pick(2)));
    default: return IndexExpr::constant(4);
    }
  }

  ExprRef node(int depth) {
    if (depth == 0 || pick(4) == 0)
      return leaf();
    static const ExprOp ops[] = {ExprOp::Add, ExprOp::Sub, ExprOp::Mul, ExprOp::Mul, ExprOp::Shl,
                                 ExprOp::Div, ExprOp::Rem, ExprOp::Neg, ExprOp::Select};
    ExprOp op = ops[pick(9)];
    if (op == ExprOp::Neg)
      return IndexExpr::make(op, {node(depth - 1)});
    if (op == ExprOp::Select)
      return IndexExpr::make(op, {node(depth - 1), node(depth - 1), node(depth - 1)});
    if (op == ExprOp::Shl)
      return IndexExpr::make(op, {node(depth - 1), IndexExpr::constant(pick(4))});
    return IndexExpr::make(op, {node(depth - 1), node(depth - 1)});
  }

  Binding binding() {
    Binding b;
    for (int d = 0; d < 3; ++d) {
      b.threadIdx[d] = pick(64);
      b.blockIdx[d] = pick(8);
      b.blockDim[d] = 1 + pick(256);
      b.gridDim[d] = 1 + pick(16);
    }
    b.paramOverride[0] = pick(100) - 20;
    b.paramOverride[1] = pick(100);
    b.uniformOverride[0] = pick(50) - 10;
    b.uniformOverride[1] = pick(50);
    b.loopIter[0] = pick(5);
    b.loopIter[1] = pick(5);
    return b;
  }
};

TEST(OffsetPolynomial, DivisibilityDifferencesAndLaneStepAgreeWithEvaluation) {
  RandomExprs r;
  int proven = 0, differences = 0, lanes = 0;
  for (int i = 0; i < 4000; ++i) {
    int64_t w = r.pick(2) ? 4 : 16;
    // W * e + W * f often, e + c sometimes: cases where something is provable.
    ExprRef e = r.node(3), f = r.node(2);
    ExprRef scaled = IndexExpr::add(IndexExpr::mul(IndexExpr::constant(w), e),
                                    r.pick(2) ? IndexExpr::mul(f, IndexExpr::constant(w)) : f);
    auto p = offsetPolynomial(*scaled);
    int64_t c = r.pick(7) - 3;
    ExprRef shifted = IndexExpr::add(scaled, IndexExpr::constant(c));
    auto q = offsetPolynomial(*shifted);
    std::optional<OffsetPolynomial> d = p && q ? difference(*q, *p) : std::nullopt;
    for (int k = 0; k < 8; ++k) {
      Binding b = r.binding();
      auto v = evaluate(*scaled, b);
      if (!v)
        continue;
      if (p && p->divisibleBy(w)) {
        EXPECT_EQ(*v % w, 0) << scaled->str();
        ++proven;
      }
      auto vs = evaluate(*shifted, b);
      if (d && d->constant() && vs) {
        EXPECT_EQ(*vs - *v, *d->constant()) << shifted->str();
        ++differences;
      }
      if (p && p->laneCoefficient() && b.threadIdx[0] < 63) {
        Binding next = b;
        ++next.threadIdx[0];
        if (auto vn = evaluate(*scaled, next)) {
          EXPECT_EQ(*vn - *v, *p->laneCoefficient()) << scaled->str();
          ++lanes;
        }
      }
    }
  }
  // The test proves things, not only skips them.
  EXPECT_GT(proven, 1000);
  EXPECT_GT(differences, 1000);
  EXPECT_GT(lanes, 300);
}

TEST(OffsetPolynomial, TheIssuesIndexShapes) {
  auto tx = IndexExpr::symbol({SymbolKind::ThreadIdx, 0, "tx"});
  auto bx = IndexExpr::symbol({SymbolKind::BlockIdx, 0, "bx"});
  auto bdx = IndexExpr::symbol({SymbolKind::BlockDim, 0, "bdx"});
  auto gdx = IndexExpr::symbol({SymbolKind::GridDim, 0, "gdx"});
  auto four = IndexExpr::constant(4);
  auto tid = IndexExpr::add(IndexExpr::mul(bx, bdx), tx);
  // i = (blockIdx.x * blockDim.x + threadIdx.x) * 4
  auto local = offsetPolynomial(*IndexExpr::mul(tid, four));
  ASSERT_TRUE(local);
  EXPECT_TRUE(local->divisibleBy(4));
  EXPECT_FALSE(local->divisibleBy(8));
  EXPECT_EQ(local->laneCoefficient(), 4);
  // i + 3 - i
  auto plus3 = offsetPolynomial(*IndexExpr::add(IndexExpr::mul(tid, four), IndexExpr::constant(3)));
  ASSERT_TRUE(plus3);
  EXPECT_EQ(difference(*plus3, *local)->constant(), 3);
  EXPECT_FALSE(plus3->divisibleBy(4));
  // for (i = 4 * tid; ...; i += 4 * blockDim.x * gridDim.x)
  auto rec = std::make_shared<LoopRecurrence>();
  rec->loopId = 7;
  rec->init = IndexExpr::mul(four, tid);
  rec->stepOp = ExprOp::Add;
  rec->step = IndexExpr::mul(IndexExpr::mul(four, bdx), gdx);
  auto stride = offsetPolynomial(*IndexExpr::loopVar(rec));
  ASSERT_TRUE(stride);
  EXPECT_TRUE(stride->divisibleBy(4));
  EXPECT_EQ(stride->laneCoefficient(), 4);
  // 4 * tid + n: a run-time parameter leaves the multiple of 4 unproven.
  auto n = IndexExpr::symbol({SymbolKind::Param, 2, "n"});
  EXPECT_FALSE(offsetPolynomial(*IndexExpr::add(IndexExpr::mul(four, tid), n))->divisibleBy(4));
  // 4 * (tid / 2): lanes do not move by a constant.
  auto halves = offsetPolynomial(*IndexExpr::mul(four, IndexExpr::make(ExprOp::Div, {tx, IndexExpr::constant(2)})));
  ASSERT_TRUE(halves);
  EXPECT_TRUE(halves->divisibleBy(4));
  EXPECT_FALSE(halves->laneCoefficient());
  // An unknown leaf proves nothing.
  EXPECT_FALSE(offsetPolynomial(*IndexExpr::add(tx, IndexExpr::unknown("data"))));
}

} // namespace
