// FlatExpr's batched and per-thread forms (issue 19 speed work) must give
// evaluate()'s value, or its failure, as at() does: atColumns (every sample
// of the uniform sweep in one pass), threadIdx as inputs (one bind per block
// step, then per thread only what reads threadIdx), and loop variables far
// past their fixed points (0 under * / << >>, -1 under >>), where the
// step-by-step loop now stops early.
#include "analyzer/warp/FlatExpr.h"
#include <gtest/gtest.h>

#include <array>
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
        b.loopIter[l] = pick(3) ? pick(6) : 60 + pick(20); // past 64: fixed points
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

TEST(FlatExprBatch, AtColumnsAgreesWithEvaluate) {
  RandomExprs r;
  const std::vector<int> swept{kSwept, kSwept + 1, kSwept + 2};
  const std::vector<int> loops{1};
  int compared = 0, known = 0;
  const std::vector<std::array<int64_t, 4>> points{{0, 0, 0, 0}, {1, 0, 0, 3}, {2, 33, 0, 0}, {1024, 1, 3, 70},
                                                   {7, -1, 2, 1},  {64, 32, 1, 65}, {0, 0, 0, 0}};
  for (int n = 0; n < 3000; ++n) {
    ExprRef e = r.node(5);
    FlatExpr flat(*e, swept, loops);
    for (int bi = 0; bi < 3; ++bi) {
      Binding b = r.binding();
      bool bound = flat.bind(b);
      std::vector<std::vector<int64_t>> cols(4, std::vector<int64_t>(points.size()));
      for (size_t j = 0; j < points.size(); ++j)
        for (size_t k = 0; k < 4; ++k)
          cols[k][j] = points[j][k];
      const int64_t *columns[4] = {cols[0].data(), cols[1].data(), cols[2].data(), cols[3].data()};
      std::vector<int64_t> out(points.size());
      std::vector<char> ok(points.size());
      if (bound)
        flat.atColumns(columns, points.size(), out.data(), ok.data());
      for (size_t j = 0; j < points.size(); ++j) {
        Binding withValues = b;
        for (int i = 0; i < 3; ++i)
          withValues.uniformOverride[swept[i]] = points[j][i];
        withValues.loopIter[1] = points[j][3];
        auto expected = evaluate(*e, withValues);
        std::optional<int64_t> got;
        if (bound && ok[j])
          got = out[j];
        ASSERT_EQ(show(got), show(expected)) << e->str() << " at point " << j;
        // at() after atColumns still agrees (atColumns leaves no stale state)
        if (bound) {
          int64_t values[4] = {points[j][0], points[j][1], points[j][2], points[j][3]};
          ASSERT_EQ(show(flat.at(values)), show(expected)) << e->str() << " at() at point " << j;
        }
        ++compared;
        known += expected.has_value();
      }
    }
  }
  EXPECT_GT(known, compared / 5);
  EXPECT_LT(known, compared);
}

TEST(FlatExprBatch, ThreadInputsAgreeWithEvaluate) {
  RandomExprs r;
  int compared = 0, known = 0;
  for (int n = 0; n < 3000; ++n) {
    ExprRef e = r.node(5);
    FlatExpr flat(*e, {}, {}, true);
    for (int bi = 0; bi < 3; ++bi) {
      Binding b = r.binding();
      bool bound = flat.bind(b);
      // threads in block order (x fastest), as WarpExchanges and enumerateBlock run them
      for (int64_t z : {0, 1})
        for (int64_t y : {0, 2})
          for (int64_t x : {0, 1, 5, 31}) {
            Binding t = b;
            t.threadIdx[0] = x, t.threadIdx[1] = y, t.threadIdx[2] = z;
            auto expected = evaluate(*e, t);
            auto got = bound ? flat.at(t.threadIdx) : std::nullopt;
            ASSERT_EQ(show(got), show(expected)) << e->str() << " at thread " << x << "," << y << "," << z;
            ++compared;
            known += expected.has_value();
          }
    }
  }
  EXPECT_GT(known, compared / 5);
  EXPECT_LT(known, compared);
}
