// FlatExpr's batched and per-thread forms (issue 19 speed work) must give
// evaluate()'s value, or its failure, as at() does: atColumns (every sample
// of the uniform sweep in one pass), threadIdx as inputs (one bind per block
// step, then per thread only what reads threadIdx), and loop variables far
// past their fixed points (0 under * / << >>, -1 under >>), where the
// step-by-step loop now stops early.
#include "analyzer/warp/BlockEnumeration.h"
#include "analyzer/warp/FlatExpr.h"
#include "tests/unit/RandomExprs.h"
#include <gtest/gtest.h>

#include <array>

using namespace warplint;

using namespace warplint::test;

TEST(FlatExprBatch, AtColumnsAgreesWithEvaluate) {
  RandomExprs r;
  r.farLoopIterations = true;
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
  r.farLoopIterations = true;
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

// The sweep's samples once per warp, then per lane only the instructions that
// read threadIdx (prepareThreadColumns / atThreadColumns): evaluate()'s value
// or failure at every thread and sample, however the lanes and samples
// interleave with a new bind().
TEST(FlatExprBatch, ThreadColumnsAgreeWithEvaluate) {
  RandomExprs r;
  r.farLoopIterations = true;
  const std::vector<int> swept{kSwept, kSwept + 1, kSwept + 2};
  // Three swept symbols, then loop 1's iteration (a swept loop, as the
  // guards' masks sweep their loops).
  const std::vector<int> loops{1};
  const std::vector<std::array<int64_t, 4>> points{{0, 0, 0, 0}, {1, 0, 0, 3}, {2, 33, 0, 0}, {1024, 1, 3, 70},
                                                   {7, -1, 2, 1},  {64, 32, 1, 65}, {0, 0, 0, 0}};
  std::vector<std::vector<int64_t>> cols(4, std::vector<int64_t>(points.size()));
  for (size_t j = 0; j < points.size(); ++j)
    for (size_t k = 0; k < 4; ++k)
      cols[k][j] = points[j][k];
  const int64_t *columns[4] = {cols[0].data(), cols[1].data(), cols[2].data(), cols[3].data()};
  int compared = 0, known = 0, threadDependent = 0;
  for (int n = 0; n < 3000; ++n) {
    ExprRef e = r.node(5);
    // Every dimension an input, or only x (y and z bound with the warp).
    unsigned dims = n % 2 ? 7u : 1u;
    bool withLoop = n % 3 == 0;
    FlatExpr flat(*e, swept, withLoop ? loops : std::vector<int>{}, true, dims);
    for (int bi = 0; bi < 3; ++bi) {
      Binding b = r.binding();
      b.threadIdx[1] = 2, b.threadIdx[2] = 1;
      if (withLoop)
        b.loopIter.erase(1); // given by the columns only
      bool bound = flat.bind(b);
      if (bound)
        flat.prepareThreadColumns(columns, points.size());
      for (int64_t z : {0, 1})
        for (int64_t y : {0, 2})
          for (int64_t x : {0, 1, 5, 31}) {
            if (dims == 1 && (y != 2 || z != 1))
              continue;
            int64_t thread[3] = {x, y, z};
            std::vector<int64_t> out(points.size());
            std::vector<char> ok(points.size());
            if (bound)
              flat.atThreadColumns(thread, out.data(), ok.data());
            for (size_t j = 0; j < points.size(); ++j) {
              Binding t = b;
              t.threadIdx[0] = x, t.threadIdx[1] = y, t.threadIdx[2] = z;
              for (int i = 0; i < 3; ++i)
                t.uniformOverride[swept[i]] = points[j][i];
              if (withLoop)
                t.loopIter[1] = points[j][3];
              auto expected = evaluate(*e, t);
              std::optional<int64_t> got;
              if (bound && ok[j])
                got = out[j];
              ASSERT_EQ(show(got), show(expected)) << e->str() << " at thread " << x << "," << y << "," << z
                                                   << " point " << j;
              ++compared;
              known += expected.has_value();
            }
          }
    }
    threadDependent += e->dependsOn(SymbolKind::ThreadIdx);
  }
  EXPECT_GT(known, compared / 5);
  EXPECT_LT(known, compared);
  EXPECT_GT(threadDependent, 300); // the generator reads threadIdx often enough to test the split
}
