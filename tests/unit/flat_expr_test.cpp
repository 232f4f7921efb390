// FlatExpr (the evaluator's compiled address) must give evaluate()'s value,
// or its failure, on every binding: random expressions over every operator,
// symbol kind, loop recurrence and unknown leaf, and swept values changed in
// the order the uniform sweep changes them.
#include "analyzer/warp/FlatExpr.h"
#include "tests/unit/RandomExprs.h"
#include <gtest/gtest.h>


using namespace warplint;

using namespace warplint::test;

TEST(FlatExpr, AgreesWithEvaluateOnRandomExpressions) {
  RandomExprs r;
  const std::vector<int> swept{kSwept, kSwept + 1, kSwept + 2};
  int compared = 0, known = 0;
  for (int n = 0; n < 3000; ++n) {
    ExprRef e = r.node(5);
    FlatExpr flat(*e, swept);
    for (int bi = 0; bi < 4; ++bi) {
      Binding b = r.binding();
      bool bound = flat.bind(b);
      // The swept values in the order UniformSweep enumerates them (the
      // first fastest), so that at() reuses what did not change.
      for (int64_t v2 : {0, 3})
        for (int64_t v1 : {0, 1, 33})
          for (int64_t v0 : {0, 1, 2, 1024}) {
            int64_t values[3] = {v0, v1, v2};
            Binding withValues = b;
            for (int i = 0; i < 3; ++i)
              withValues.uniformOverride[swept[i]] = values[i];
            auto expected = evaluate(*e, withValues);
            auto got = bound ? flat.at(values) : std::nullopt;
            ASSERT_EQ(show(got), show(expected)) << e->str() << " at " << v0 << "," << v1 << "," << v2;
            ++compared;
            known += expected.has_value();
          }
    }
  }
  // Both outcomes are exercised, not only failures.
  EXPECT_GT(known, compared / 5);
  EXPECT_LT(known, compared);
}

TEST(FlatExpr, NoSweptSymbolsIsEvaluate) {
  auto tx = IndexExpr::symbol({SymbolKind::ThreadIdx, 0, "threadIdx.x"});
  auto n = IndexExpr::symbol({SymbolKind::Param, 0, "n"});
  auto e = IndexExpr::make(ExprOp::Div, {IndexExpr::mul(tx, n), IndexExpr::make(ExprOp::Sub, {n, tx})});
  FlatExpr flat(*e, {});
  EXPECT_FALSE(flat.readsSwept());
  Binding b;
  b.paramValue = 8;
  b.threadIdx[0] = 3;
  EXPECT_EQ(show(flat.evaluate(b, nullptr)), "4"); // 24 / 5
  b.threadIdx[0] = 8;
  EXPECT_EQ(show(flat.evaluate(b, nullptr)), "fails"); // division by zero
  b.threadIdx[0] = 2;
  EXPECT_EQ(show(flat.evaluate(b, nullptr)), "2"); // a failure leaves nothing stale
}

TEST(FlatExpr, LoopIterationsAsInputsAgreeWithEvaluate) {
  RandomExprs r;
  const std::vector<int> swept{kSwept};
  const std::vector<int> loops{0, 1}; // loop 2 stays read from the binding
  int compared = 0, known = 0;
  for (int n = 0; n < 2000; ++n) {
    ExprRef e = r.node(5);
    FlatExpr flat(*e, swept, loops);
    for (int bi = 0; bi < 3; ++bi) {
      Binding b = r.binding();
      bool bound = flat.bind(b);
      // The iterations in the evaluator's odometer order (loop 0 fastest).
      for (int64_t k1 : {0, 1, 4})
        for (int64_t k0 : {0, 1, 2, 5})
          for (int64_t v : {7, 0}) {
            int64_t values[3] = {v, k0, k1};
            Binding withValues = b;
            withValues.uniformOverride[kSwept] = v;
            withValues.loopIter[0] = k0;
            withValues.loopIter[1] = k1;
            auto expected = evaluate(*e, withValues);
            auto got = bound ? flat.at(values) : std::nullopt;
            ASSERT_EQ(show(got), show(expected)) << e->str() << " at " << v << "," << k0 << "," << k1;
            ++compared;
            known += expected.has_value();
          }
    }
  }
  EXPECT_GT(known, compared / 5);
  EXPECT_LT(known, compared);
}

// The closed forms of `*=`, `<<=` and `>>=` loop variables (FlatExpr) against
// the evaluator's step-by-step loopValueAt, past the point where the value
// wraps, shifts out or reaches a fixed point.
TEST(FlatExpr, MultiplicativeLoopVariablesAgreeWithStepping) {
  const std::vector<int64_t> starts{0, 1, -1, 3, -7, 1000003, INT64_MAX, INT64_MIN, int64_t{1} << 40};
  const std::vector<int64_t> steps{0, 1, 2, 3, -1, -2, 31, 62, 63, 64, -64, INT64_MIN};
  int compared = 0, known = 0;
  for (ExprOp op : {ExprOp::Mul, ExprOp::Shl, ExprOp::Shr, ExprOp::Div})
    for (int64_t x : starts)
      for (int64_t s : steps) {
        auto rec = std::make_shared<LoopRecurrence>();
        rec->loopId = 0;
        rec->var = "v";
        rec->stepOp = op;
        rec->init = IndexExpr::constant(x);
        rec->step = IndexExpr::constant(s);
        ExprRef e = IndexExpr::loopVar(rec);
        FlatExpr flat(*e, {}, {0});
        Binding b;
        ASSERT_TRUE(flat.bind(b));
        for (int64_t k : {0, 1, 2, 3, 5, 20, 21, 22, 31, 32, 33, 62, 63, 64, 65, 100, 1000}) {
          int64_t values[1] = {k};
          auto got = flat.at(values);
          auto expected = loopValueAt(*rec, b, k);
          ASSERT_EQ(show(got), show(expected)) << "op " << static_cast<int>(op) << " x " << x << " step " << s << " k " << k;
          ++compared;
          known += expected.has_value();
        }
      }
  EXPECT_GT(known, compared / 2);
  EXPECT_LT(known, compared);
}
