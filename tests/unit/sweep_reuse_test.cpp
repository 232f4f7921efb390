// The sweep's shortcuts (issue 19, speed) must give exactly what the long
// way gives: lane patterns measured from four corners against every lane
// evaluated, results kept per access fingerprint against a fresh
// evaluation, guards' lanes kept across accesses, iteration combinations
// that only guards tell apart skipped. Each test evaluates the same
// function twice, once in a form that takes the shortcut and once in a form
// that cannot, and compares every measured field.
#include "analyzer/warp/AccessFingerprint.h"
#include "analyzer/warp/UniformSweep.h"

#include <gtest/gtest.h>

#include <functional>

using namespace warplint;

namespace {

ExprRef C(int64_t v) { return IndexExpr::constant(v); }
ExprRef tx() { return IndexExpr::symbol({SymbolKind::ThreadIdx, 0, "threadIdx.x"}); }
ExprRef ty() { return IndexExpr::symbol({SymbolKind::ThreadIdx, 1, "threadIdx.y"}); }
ExprRef bx() { return IndexExpr::symbol({SymbolKind::BlockIdx, 0, "blockIdx.x"}); }
ExprRef param(int index, const char *name, bool boolean = false) {
  return IndexExpr::symbol({SymbolKind::Param, index, name, boolean});
}
ExprRef op(ExprOp o, ExprRef a, ExprRef b) { return IndexExpr::make(o, {a, b}); }
ExprRef add(ExprRef a, ExprRef b) { return op(ExprOp::Add, a, b); }
ExprRef mul(ExprRef a, ExprRef b) { return op(ExprOp::Mul, a, b); }
ExprRef select(ExprRef c, ExprRef a, ExprRef b) { return IndexExpr::make(ExprOp::Select, {c, a, b}); }
// max(x, x) is x, but not affine by its form: the evaluator takes it lane by lane.
ExprRef opaque(ExprRef x) { return op(ExprOp::Max, x, x); }

void expectSameEval(const WarpAccessEval &a, const WarpAccessEval &b, const std::string &where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(a.block, b.block);
  EXPECT_EQ(a.warpInBlock, b.warpInBlock);
  EXPECT_EQ(a.iteration, b.iteration);
  EXPECT_EQ(a.activeLanes, b.activeLanes);
  EXPECT_EQ(a.uniform, b.uniform);
  EXPECT_EQ(a.bankConflictDegree, b.bankConflictDegree);
  EXPECT_EQ(a.wavefronts, b.wavefronts);
  EXPECT_EQ(a.conflictLanes, b.conflictLanes);
  EXPECT_EQ(a.sectors, b.sectors);
  EXPECT_EQ(a.idealSectors, b.idealSectors);
  EXPECT_EQ(a.laneStrideBytes, b.laneStrideBytes);
  EXPECT_EQ(a.distinctAddresses, b.distinctAddresses);
}

void expectSameAccess(const MemoryAccess &a, const MemoryAccess &b) {
  ASSERT_EQ(a.evals.size(), b.evals.size());
  EXPECT_EQ(a.worstEval, b.worstEval);
  EXPECT_EQ(a.assumptions, b.assumptions);
  for (size_t i = 0; i < a.evals.size(); ++i)
    expectSameEval(a.evals[i], b.evals[i], "eval " + std::to_string(i));
  ASSERT_EQ(a.uniformSweep != nullptr, b.uniformSweep != nullptr);
  if (!a.uniformSweep)
    return;
  ASSERT_EQ(a.uniformSweep->samples.size(), b.uniformSweep->samples.size());
  for (size_t s = 0; s < a.uniformSweep->samples.size(); ++s) {
    const UniformSample &x = a.uniformSweep->samples[s], &y = b.uniformSweep->samples[s];
    EXPECT_EQ(x.values, y.values);
    EXPECT_EQ(x.worst, y.worst);
    EXPECT_EQ(x.degenerate, y.degenerate);
    ASSERT_EQ(x.evals.size(), y.evals.size());
    for (size_t i = 0; i < x.evals.size(); ++i)
      expectSameEval(x.evals[i], y.evals[i], "sample " + std::to_string(s));
  }
  EXPECT_EQ(a.uniformSweep->conditions, b.uniformSweep->conditions);
}

MemoryAccess evaluated(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                       const EvaluationOptions &opts = {}) {
  MemoryAccess f;
  f.space = access.space;
  evaluateAccess(access, shapes, opts, f);
  return f;
}

std::shared_ptr<LoopRecurrence> countingLoop(int id, const char *var, int64_t trips) {
  auto rec = std::make_shared<LoopRecurrence>();
  rec->loopId = id;
  rec->var = var;
  rec->init = C(0);
  rec->stepOp = ExprOp::Add;
  rec->step = C(1);
  rec->cond = op(ExprOp::Lt, IndexExpr::loopVar(rec), C(trips));
  return rec;
}

const std::vector<BlockShape> kShapes = {{32, 1, 1}, {128, 1, 1}, {16, 16, 1}, {256, 1, 1}};

} // namespace

TEST(SweepReuse, FingerprintIsStructural) {
  BlockShape b{128, 1, 1};
  auto key = [&](ExprRef e, std::vector<ExprRef> guards = {}, EvaluationOptions o = {}) {
    GuardedAccess a{e, 4, AddressSpace::Global, std::move(guards)};
    return accessFingerprint(a, AddressSpace::Global, {b}, o);
  };
  ExprRef n = param(3, "n");
  // Built twice, alike: one key.
  EXPECT_EQ(key(add(mul(tx(), n), bx())), key(add(mul(tx(), n), bx())));
  // Anything the evaluation reads tells them apart.
  EXPECT_NE(key(add(mul(tx(), n), C(4))), key(add(mul(tx(), n), C(8))));
  EXPECT_NE(key(mul(tx(), param(3, "n"))), key(mul(tx(), param(4, "n")))); // same name, another parameter
  EXPECT_NE(key(mul(tx(), n)), key(mul(ty(), n)));
  EXPECT_NE(key(mul(tx(), n)), key(mul(tx(), n), {op(ExprOp::Lt, tx(), C(16))}));
  EXPECT_NE(key(mul(tx(), n), {op(ExprOp::Lt, tx(), C(16))}), key(mul(tx(), n), {op(ExprOp::Lt, tx(), C(17))}));
  EvaluationOptions small;
  small.paramOverrides[3] = 8;
  EXPECT_NE(key(mul(tx(), n)), key(mul(tx(), n), {}, small));
  EvaluationOptions last;
  last.lastBlock = true;
  EXPECT_NE(key(mul(tx(), n)), key(mul(tx(), n), {}, last));
  GuardedAccess a{mul(tx(), n), 4, AddressSpace::Global, {}};
  EXPECT_NE(accessFingerprint(a, AddressSpace::Global, {b}, {}),
            accessFingerprint(a, AddressSpace::Global, {{256, 1, 1}}, {}));
  GuardedAccess wide = a;
  wide.widthBytes = 8;
  EXPECT_NE(accessFingerprint(a, AddressSpace::Global, {b}, {}), accessFingerprint(wide, AddressSpace::Global, {b}, {}));
  // A loop whose condition reads its own variable: serialized once, and
  // two loops that differ only in their trip count differ.
  auto k16 = countingLoop(1, "k", 16), k17 = countingLoop(1, "k", 17), k16again = countingLoop(1, "k", 16);
  EXPECT_EQ(key(add(tx(), IndexExpr::loopVar(k16))), key(add(tx(), IndexExpr::loopVar(k16again))));
  EXPECT_NE(key(add(tx(), IndexExpr::loopVar(k16))), key(add(tx(), IndexExpr::loopVar(k17))));
}

TEST(SweepReuse, CornersMeasureWhatEveryLaneMeasures) {
  // `flip ? (blockIdx.x*128 + tx)*n : tx*n + pitch*ty`, with the swept
  // boolean in a condition (lane-affine through a select), against the
  // same address evaluated lane by lane; global, shared with an extent
  // that puts some samples' lanes out of bounds, and under a guard.
  ExprRef flip = param(1, "flip", true), n = param(2, "n"), pitch = param(3, "pitch");
  auto address = [&](ExprRef t) {
    return mul(select(flip, mul(add(mul(bx(), C(128)), t), n), add(mul(t, n), mul(pitch, ty()))), C(4));
  };
  for (AddressSpace space : {AddressSpace::Global, AddressSpace::Shared})
    for (int64_t extent : {int64_t{0}, int64_t{4096}})
      for (bool guarded : {false, true}) {
        std::vector<ExprRef> guards;
        if (guarded)
          guards.push_back(op(ExprOp::Lt, tx(), C(20)));
        GuardedAccess fast{address(tx()), 4, space, guards, extent};
        GuardedAccess slow{address(opaque(tx())), 4, space, guards, extent};
        SCOPED_TRACE("space " + std::to_string(static_cast<int>(space)) + " extent " + std::to_string(extent) +
                     (guarded ? " guarded" : ""));
        MemoryAccess a = evaluated(fast, kShapes), b = evaluated(slow, kShapes);
        ASSERT_TRUE(a.uniformSweep != nullptr);
        EXPECT_EQ(a.uniformSweep->samples.size(), 98u); // 7 x 7 values of n and pitch, flip 0 and 1
        expectSameAccess(a, b);
      }
}

TEST(SweepReuse, AffineCornersInALoopMeasureWhatEveryLaneMeasures) {
  // for (k = 0; k < 40; ++k) a[(tx*n + k*m)*4], n and m swept.
  auto k = countingLoop(7, "k", 40);
  ExprRef n = param(1, "n"), m = param(2, "m");
  auto address = [&](ExprRef t) { return mul(add(mul(t, n), mul(IndexExpr::loopVar(k), m)), C(4)); };
  GuardedAccess fast{address(tx()), 4, AddressSpace::Global, {}};
  GuardedAccess slow{address(opaque(tx())), 4, AddressSpace::Global, {}};
  expectSameAccess(evaluated(fast, kShapes), evaluated(slow, kShapes));
}

TEST(SweepReuse, RepeatedAccessGivesTheFreshResult) {
  // The second evaluation of a structurally equal access comes from the
  // memo; it must equal the first, and a different access its own.
  ExprRef n = param(1, "n");
  auto make = [&](int64_t offset) {
    return GuardedAccess{mul(add(mul(tx(), n), C(offset)), C(4)), 4, AddressSpace::Global,
                         {op(ExprOp::Lt, tx(), C(64))}};
  };
  MemoryAccess first = evaluated(make(0), kShapes);
  MemoryAccess again = evaluated(make(0), kShapes);
  expectSameAccess(first, again);
  MemoryAccess shifted = evaluated(make(1), kShapes);
  ASSERT_TRUE(shifted.uniformSweep && first.uniformSweep);
  bool differs = false;
  for (size_t s = 0; s < first.uniformSweep->samples.size(); ++s) {
    const auto &x = first.uniformSweep->samples[s], &y = shifted.uniformSweep->samples[s];
    if (x.worst >= 0 && y.worst >= 0 && x.evals[x.worst].sectors != y.evals[y.worst].sectors)
      differs = true;
  }
  EXPECT_TRUE(differs) << "a one-element offset moves some sample across a sector boundary";
  // Appending onto an access that already holds evaluations, as the
  // guard-value retries do, gives what a fresh evaluation appends.
  MemoryAccess plain;
  plain.space = AddressSpace::Global;
  GuardedAccess fixed{mul(tx(), C(8)), 4, AddressSpace::Global, {}};
  evaluateAccess(fixed, kShapes, {}, plain);
  evaluateAccess(fixed, kShapes, {}, plain);
  ASSERT_EQ(plain.evals.size(), 2 * kShapes.size());
  for (size_t i = 0; i < kShapes.size(); ++i)
    expectSameEval(plain.evals[i], plain.evals[i + kShapes.size()], "appended " + std::to_string(i));
}

TEST(SweepReuse, GuardOnlyLoopsSkipRepeatsExactly) {
  // for (i = 0; i < 24; ++i) for (k = 0; k < 24; ++k) if (tx + i < 40) a[(tx*n + k)*4]:
  // combinations that differ only in i with the same lanes active are
  // skipped; the address read lane by lane (no skipping changes it) must
  // agree, including the iteration named for the worst case.
  auto i = countingLoop(3, "i", 24), k = countingLoop(4, "k", 24);
  ExprRef n = param(1, "n");
  std::vector<ExprRef> guards{op(ExprOp::Lt, add(tx(), IndexExpr::loopVar(i)), C(40))};
  auto address = [&](ExprRef t) { return mul(add(mul(t, n), IndexExpr::loopVar(k)), C(4)); };
  GuardedAccess fast{address(tx()), 4, AddressSpace::Shared, guards, 1 << 20};
  // Reading i in the address (times zero, not folded by form) keeps every combination.
  GuardedAccess every{add(address(tx()), mul(op(ExprOp::Min, IndexExpr::loopVar(i), C(0)), C(4))), 4,
                      AddressSpace::Shared, guards, 1 << 20};
  expectSameAccess(evaluated(fast, kShapes), evaluated(every, kShapes));
}

TEST(SweepReuse, CornersUnderLoopVaryingGuards) {
  // for (i = 0; i < 24; ++i) if (tx + i < 40) a[(tx*n + i)*4] and a[tx*n*4]:
  // the lanes taking part change from iteration to iteration (at the same
  // addresses in the second), and the corner path must measure each
  // iteration's own lanes (lane by lane as reference).
  auto i = countingLoop(5, "i", 24);
  ExprRef n = param(1, "n");
  std::vector<ExprRef> guards{op(ExprOp::Lt, add(tx(), IndexExpr::loopVar(i)), C(40))};
  std::function<ExprRef(ExprRef)> walking = [&](ExprRef t) { return mul(add(mul(t, n), IndexExpr::loopVar(i)), C(4)); };
  std::function<ExprRef(ExprRef)> fixed = [&](ExprRef t) { return mul(mul(t, n), C(4)); };
  for (AddressSpace space : {AddressSpace::Global, AddressSpace::Shared})
    for (auto &address : {walking, fixed}) {
      GuardedAccess fast{address(tx()), 4, space, guards};
      GuardedAccess slow{address(opaque(tx())), 4, space, guards};
      expectSameAccess(evaluated(fast, kShapes), evaluated(slow, kShapes));
    }
}
