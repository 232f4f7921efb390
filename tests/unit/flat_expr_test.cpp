// FlatExpr (the evaluator's compiled address) must give evaluate()'s value,
// or its failure, on every binding: random expressions over every operator,
// symbol kind, loop recurrence and unknown leaf, and swept values changed in
// the order the uniform sweep changes them.
#include "analyzer/warp/FlatExpr.h"
#include <gtest/gtest.h>

#include <random>

using namespace warplint;

namespace {

constexpr int kSwept = 1 << 24; // ids of the swept uniforms, as UniformSweep numbers them

struct RandomExprs {
  std::mt19937 rng{12345};
  std::vector<ExprRef> pool; // earlier nodes, reused so that subtrees are shared

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

  ExprRef leaf() {
    switch (pick(9)) {
    case 0: return IndexExpr::constant(pick(11) - 3);
    case 1: return IndexExpr::symbol({SymbolKind::ThreadIdx, pick(3), "t"});
    case 2: return IndexExpr::symbol({SymbolKind::BlockIdx, pick(3), "b"});
    case 3: return IndexExpr::symbol({SymbolKind::BlockDim, pick(3), "bd"});
    case 4: return IndexExpr::symbol({SymbolKind::GridDim, pick(3), "gd"});
    case 5: return IndexExpr::symbol({SymbolKind::Param, pick(3), "p"});
    case 6: return IndexExpr::symbol({SymbolKind::Uniform, pick(2), "u"});
    case 7: return IndexExpr::symbol({SymbolKind::Uniform, kSwept + pick(3), "s"});
    default: return pick(4) == 0 ? IndexExpr::unknown("data") : IndexExpr::constant(pick(5));
    }
  }

  ExprRef node(int depth) {
    if (depth == 0 || pick(5) == 0)
      return leaf();
    if (!pool.empty() && pick(6) == 0)
      return pool[pick(static_cast<int>(pool.size()))];
    ExprRef e;
    if (pick(8) == 0) {
      auto rec = std::make_shared<LoopRecurrence>();
      rec->loopId = pick(3);
      rec->var = "k";
      rec->init = node(depth - 1);
      const ExprOp steps[] = {ExprOp::Add, ExprOp::Sub, ExprOp::Mul, ExprOp::Div, ExprOp::Shl, ExprOp::Shr};
      rec->stepOp = steps[pick(6)];
      rec->step = pick(2) ? IndexExpr::constant(pick(4)) : node(depth - 1);
      e = IndexExpr::loopVar(rec);
    } else {
      const ExprOp ops[] = {ExprOp::Add, ExprOp::Sub, ExprOp::Mul, ExprOp::Div, ExprOp::Rem, ExprOp::Shl,
                            ExprOp::Shr, ExprOp::And, ExprOp::Or,  ExprOp::Xor, ExprOp::Min, ExprOp::Max,
                            ExprOp::Neg, ExprOp::Not, ExprOp::BitNot, ExprOp::Lt, ExprOp::Le, ExprOp::Gt,
                            ExprOp::Ge,  ExprOp::Eq,  ExprOp::Ne,  ExprOp::LAnd, ExprOp::LOr, ExprOp::Select};
      ExprOp o = ops[pick(24)];
      size_t arity = o == ExprOp::Select ? 3 : (o == ExprOp::Neg || o == ExprOp::Not || o == ExprOp::BitNot) ? 1 : 2;
      std::vector<ExprRef> operands;
      for (size_t i = 0; i < arity; ++i)
        operands.push_back(node(depth - 1));
      e = IndexExpr::make(o, operands);
    }
    pool.push_back(e);
    return e;
  }

  Binding binding() {
    Binding b;
    for (int d = 0; d < 3; ++d) {
      b.threadIdx[d] = pick(40);
      b.blockIdx[d] = pick(3);
      b.blockDim[d] = 1 + pick(64);
      b.gridDim[d] = 1 + pick(8);
    }
    for (int l = 0; l < 3; ++l)
      if (pick(4) != 0) // sometimes a loop is not bound: evaluation fails
        b.loopIter[l] = pick(6);
    b.paramValue = pick(2) ? 1024 : pick(9);
    if (pick(2))
      b.paramOverride[pick(3)] = pick(9) - 2;
    if (pick(2))
      b.uniformOverride[pick(2)] = pick(9);
    return b;
  }
};

std::string show(const std::optional<int64_t> &v) { return v ? std::to_string(*v) : "fails"; }

} // namespace

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
