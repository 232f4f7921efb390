#include "analyzer/warp/FusedWords.h"

#include "analyzer/model/LoopRecurrences.h"

#include <algorithm>
#include <cstdint>

namespace warplint {

namespace {

constexpr int64_t kWordBytes = 4;
constexpr int64_t kMaxUnrolledTrips = 32; // the longest constant loop seen fully unrolled and fused
constexpr int kFusedLoopIdBase = 1 << 22; // ids of the group-start loops, apart from the walker's

bool readsLoop(const ExprRef &e, int loopId) {
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  e->collectLoops(loops);
  return std::any_of(loops.begin(), loops.end(), [&](auto &l) { return l->loopId == loopId; });
}

// Bytes the expression moves by per iteration of loop `loopId` when it is
// affine in it with a constant slope (the other symbols fixed); nullopt when
// it is not, or the slope is not a constant.
std::optional<int64_t> slopePerIteration(const ExprRef &e, int loopId) {
  if (!readsLoop(e, loopId))
    return 0;
  if (e->op == ExprOp::LoopVar) {
    const LoopRecurrence &r = *e->loop;
    if (r.loopId != loopId || r.stepOp != ExprOp::Add || r.step->op != ExprOp::Const || readsLoop(r.init, loopId))
      return std::nullopt;
    return r.step->value;
  }
  auto slope = [&](size_t i) { return slopePerIteration(e->operands[i], loopId); };
  auto constant = [&](size_t i) -> std::optional<int64_t> {
    if (e->operands[i]->op == ExprOp::Const)
      return e->operands[i]->value;
    return std::nullopt;
  };
  switch (e->op) {
  case ExprOp::Add:
  case ExprOp::Sub: {
    auto a = slope(0), b = slope(1);
    if (!a || !b)
      return std::nullopt;
    return e->op == ExprOp::Add ? *a + *b : *a - *b;
  }
  case ExprOp::Neg:
    if (auto a = slope(0))
      return -*a;
    return std::nullopt;
  case ExprOp::Mul:
    if (auto c = constant(0); c && slope(1))
      return *c * *slope(1);
    if (auto c = constant(1); c && slope(0))
      return *slope(0) * *c;
    return std::nullopt;
  case ExprOp::Shl:
    if (auto c = constant(1); c && *c >= 0 && *c < 32 && slope(0))
      return *slope(0) * (int64_t{1} << *c);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

// How many low bits of the expression are zero for every value of its
// symbols (a lower bound; 0 when nothing is known).
int knownTrailingZeros(const ExprRef &e) {
  auto tz = [](size_t i, const ExprRef &x) { return knownTrailingZeros(x->operands[i]); };
  switch (e->op) {
  case ExprOp::Const:
    if (e->value == 0)
      return 63;
    return __builtin_ctzll(static_cast<uint64_t>(e->value < 0 ? -e->value : e->value));
  case ExprOp::LoopVar:
    if (e->loop->stepOp == ExprOp::Add || e->loop->stepOp == ExprOp::Sub)
      return std::min(knownTrailingZeros(e->loop->init), knownTrailingZeros(e->loop->step));
    return 0;
  case ExprOp::Add:
  case ExprOp::Sub:
  case ExprOp::Or:
  case ExprOp::Xor:
    return std::min(tz(0, e), tz(1, e));
  case ExprOp::Mul:
    return std::min(63, tz(0, e) + tz(1, e));
  case ExprOp::And:
    return std::max(tz(0, e), tz(1, e));
  case ExprOp::Neg:
    return tz(0, e);
  case ExprOp::Shl:
    if (e->operands[1]->op == ExprOp::Const && e->operands[1]->value >= 0 && e->operands[1]->value < 63)
      return std::min<int>(63, tz(0, e) + static_cast<int>(e->operands[1]->value));
    return 0;
  case ExprOp::Select:
    return std::min(tz(1, e), tz(2, e));
  default:
    return 0;
  }
}

// `e` with loop `loopId` read at the first iteration of each group of
// `group` iterations: every recurrence of it steps `group` times as far.
ExprRef atGroupStarts(const ExprRef &e, int loopId, int64_t group, int64_t end) {
  if (e->op == ExprOp::LoopVar) {
    if (e->loop->loopId != loopId)
      return e;
    auto plain = std::make_shared<LoopRecurrence>(*e->loop);
    plain->loopId = kFusedLoopIdBase + loopId;
    plain->step = IndexExpr::constant(e->loop->step->value * group);
    plain->cond = nullptr;
    auto rec = std::make_shared<LoopRecurrence>(*plain);
    // Over the loop's own value, `end` where the groups stop (a copy without
    // a condition keeps the recurrence from holding itself).
    rec->cond = IndexExpr::make(ExprOp::Lt, {IndexExpr::loopVar(plain), IndexExpr::constant(end)});
    return IndexExpr::loopVar(rec);
  }
  if (e->operands.empty())
    return e;
  std::vector<ExprRef> ops;
  for (auto &o : e->operands)
    ops.push_back(atGroupStarts(o, loopId, group, end));
  return IndexExpr::make(e->op, std::move(ops));
}

// Whether the array's first byte is aligned to 16 on the GPU: an extern
// (dynamic) one, or the kernel's only static shared variable, which ptxas
// places at offset 0.
bool baseAligned16(const ModeledKernel &k, const std::string &base) {
  const ArrayInfo *array = nullptr;
  int staticShared = 0;
  for (const ArrayInfo &a : k.info.arrays) {
    if (a.space != AddressSpace::Shared)
      continue;
    if (!a.isExtern)
      ++staticShared;
    if (a.name == base)
      array = &a;
  }
  if (!array)
    return false;
  if (array->isExtern)
    return true;
  // A shared variable the walker did not declare (at file scope) would share
  // the static window: every shared access must name a declared array.
  for (const ModeledAccess &o : k.accesses)
    if (o.fact.space == AddressSpace::Shared &&
        std::none_of(k.info.arrays.begin(), k.info.arrays.end(), [&](const ArrayInfo &a) {
          return a.space == AddressSpace::Shared && a.name == o.fact.base;
        }))
      return false;
  return staticShared == 1;
}

} // namespace

std::optional<FusedAccess> fuseUnrolledWords(const ModeledKernel &k, const ModeledAccess &a) {
  const GuardedAccess &g = a.guarded;
  if (a.fact.space != AddressSpace::Shared || g.widthBytes != kWordBytes || a.unknownGuard || !a.fact.indexKnown ||
      !g.byteOffset->isKnown())
    return std::nullopt;
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  g.byteOffset->collectLoops(loops);
  for (auto &loop : loops) {
    const LoopRecurrence &r = *loop;
    // A constant loop short enough to be unrolled whole, and no guard of
    // the access inside it that reads it (`if (k < n)` keeps the word loads
    // apart).
    if (r.init->op != ExprOp::Const || r.step->op != ExprOp::Const || r.step->value <= 0 ||
        r.stepOp != ExprOp::Add || !r.cond)
      continue;
    auto trips = constantTripCount(r);
    if (!trips || *trips < 2 || *trips > kMaxUnrolledTrips)
      continue;
    if (std::any_of(g.guards.begin(), g.guards.end(), [&](const ExprRef &e) { return readsLoop(e, r.loopId); }))
      continue;
    bool nested = false; // another loop whose bounds read this one
    for (auto &other : loops)
      if (other->loopId != r.loopId)
        for (const ExprRef &e : {other->init, other->step, other->cond})
          nested = nested || (e && readsLoop(e, r.loopId));
    if (nested)
      continue;
    // One word further per iteration: consecutive words of one thread.
    auto slope = slopePerIteration(g.byteOffset, r.loopId);
    if (!slope || *slope != kWordBytes)
      continue;
    if (!baseAligned16(k, a.fact.base))
      continue;
    // Groups of 4 words on 16-byte starts, else of 2 on 8-byte starts.
    for (int64_t group : {4, 2}) {
      if (*trips % group != 0)
        continue;
      // The loop's value at iteration `trips`, where the groups stop.
      int64_t end = r.init->value + *trips * r.step->value;
      ExprRef fused = atGroupStarts(g.byteOffset, r.loopId, group, end);
      if (knownTrailingZeros(fused) < (group == 4 ? 4 : 3))
        continue;
      FusedAccess out{g, ""};
      out.access.byteOffset = fused;
      out.access.widthBytes = group * kWordBytes;
      std::string var = r.var.empty() ? "the loop variable" : r.var;
      out.note = "the " + std::to_string(group) + " consecutive 4-byte words of " + std::to_string(group) +
                 " iterations of the unrolled " + var + " loop taken as one " +
                 std::to_string(group * kWordBytes) + "-byte access (" +
                 (group == 4 ? "LDS.128/STS.128" : "LDS.64/STS.64") + ", as nvcc emits it)";
      return out;
    }
  }
  return std::nullopt;
}

} // namespace warplint
