// Random IndexExpr trees and bindings for the FlatExpr tests: every
// operator, symbol kind, loop recurrence and unknown leaf, with shared
// subtrees; a fixed seed, so every run draws the same expressions.
#pragma once

#include "analyzer/warp/FlatExpr.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace warplint::test {


constexpr int kSwept = 1 << 24; // ids of the swept uniforms, as UniformSweep numbers them

struct RandomExprs {
  std::mt19937 rng{12345};
  // Loop iterations sometimes far past 64, where stepped values reach their
  // fixed points (0 under * / << >>, -1 under >>).
  bool farLoopIterations = false;
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
        b.loopIter[l] = !farLoopIterations ? pick(6) : pick(3) ? pick(6) : 60 + pick(20); // past 64: fixed points
    b.paramValue = pick(2) ? 1024 : pick(9);
    if (pick(2))
      b.paramOverride[pick(3)] = pick(9) - 2;
    if (pick(2))
      b.uniformOverride[pick(2)] = pick(9);
    return b;
  }
};

inline std::string show(const std::optional<int64_t> &v) { return v ? std::to_string(*v) : "fails"; }

} // namespace warplint::test
