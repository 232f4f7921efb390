#include "analyzer/warp/PaddingTrials.h"

#include <algorithm>

namespace warplint {

namespace {

bool conflicted(const ModeledKernel &k, const std::string &array) {
  for (const ModeledAccess &a : k.accesses) {
    const MemoryAccess &f = a.fact;
    if (f.base == array && f.space == AddressSpace::Shared && f.worstEval >= 0 &&
        f.evals[f.worstEval].bankConflictDegree >= 2 && !f.evals[f.worstEval].uniform)
      return true;
  }
  return false;
}

// Byte offset of a[s0][s1]...[sn] with the innermost extent padded by `pad`.
ExprRef linearized(const std::vector<ExprRef> &subs, const std::vector<int64_t> &dims, int64_t pad,
                   int64_t elementSize) {
  ExprRef offset = IndexExpr::constant(0);
  for (size_t i = 0; i < subs.size(); ++i) {
    int64_t stride = 1;
    for (size_t j = i + 1; j < dims.size(); ++j)
      stride *= dims[j] + (j + 1 == dims.size() ? pad : 0);
    offset = IndexExpr::add(offset, IndexExpr::mul(subs[i], IndexExpr::constant(stride * elementSize)));
  }
  return offset;
}

// Whether some evaluated lane puts the innermost subscript outside [0, extent).
bool leavesRow(const ModeledAccess &a, int64_t extent, const std::vector<BlockShape> &shapes,
               const EvaluationOptions &opts) {
  GuardedAccess probe = a.guarded;
  ExprRef idx = a.subscripts.back();
  probe.guards.push_back(IndexExpr::make(
      ExprOp::LOr, {IndexExpr::make(ExprOp::Lt, {idx, IndexExpr::constant(0)}),
                    IndexExpr::make(ExprOp::Ge, {idx, IndexExpr::constant(extent)})}));
  for (const BlockShape &shape : shapes)
    if (evaluateWarpAccess(probe, shape, opts))
      return true;
  return false;
}

// Every access re-evaluated with the byte offset `offsetOf` gives it, in an
// array whose innermost extent grew by `pad`.
template <typename OffsetOf>
ArrayInfo::PaddingTrial layoutTrial(const ModeledKernel &k, const ArrayInfo &array,
                                    const std::vector<const ModeledAccess *> &accesses,
                                    const std::vector<BlockShape> &shapes, const EvaluationOptions &opts,
                                    OffsetOf offsetOf, int64_t pad) {
  ArrayInfo::PaddingTrial trial;
  int64_t total = array.elementSize;
  for (size_t i = 0; i + 1 < array.dims.size(); ++i)
    total *= array.dims[i];
  int64_t extent = total * (array.dims.back() + pad);
  for (const ModeledAccess *a : accesses) {
    GuardedAccess g = a->guarded;
    g.byteOffset = offsetOf(*a);
    g.extentBytes = extent;
    int degree = 1;
    for (const BlockShape &shape : shapes) {
      auto e = evaluateWarpAccess(g, shape, opts);
      if (!e || e->uniform)
        continue;
      degree = std::max(degree, e->bankConflictDegree);
      trial.excessWavefronts += std::max(0, e->wavefronts - e->idealWavefronts);
    }
    trial.worstDegree = std::max(trial.worstDegree, degree);
    if (degree >= 2)
      trial.residuals.push_back({static_cast<size_t>(a - k.accesses.data()), degree});
  }
  return trial;
}

} // namespace

void evaluatePaddings(ModeledKernel &k, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts) {
  for (ArrayInfo &array : k.info.arrays) {
    if (array.space != AddressSpace::Shared || array.dims.size() < 2 || array.isExtern || array.elementSize <= 0 ||
        std::count(array.dims.begin(), array.dims.end(), 0) || !conflicted(k, array.name))
      continue;
    std::vector<const ModeledAccess *> accesses;
    for (const ModeledAccess &a : k.accesses) {
      if (a.fact.base != array.name || a.fact.space != AddressSpace::Shared)
        continue;
      std::string line = std::to_string(a.fact.loc.line);
      if (a.subscripts.empty()) {
        array.layoutEscapes.push_back("the access '" + a.fact.text + "' at line " + line +
                                      " is not a subscript of every dimension");
        continue;
      }
      if (!a.fact.evaluatedWhereGuardsPass.empty()) {
        array.layoutEscapes.push_back("the access '" + a.fact.text + "' at line " + line +
                                      " is evaluated only where its guards pass, which a padding trial does not see");
        continue;
      }
      bool known = std::all_of(a.subscripts.begin(), a.subscripts.end(), [](const ExprRef &s) { return s->isKnown(); });
      if (!known) {
        array.layoutEscapes.push_back("an index of '" + a.fact.text + "' at line " + line +
                                      " cannot be evaluated");
        continue;
      }
      if (leavesRow(a, array.dims.back(), shapes, opts)) {
        array.layoutEscapes.push_back("the last index of '" + a.fact.text + "' at line " + line +
                                      " leaves its row (flattened indexing)");
        continue;
      }
      accesses.push_back(&a);
    }
    if (!array.layoutEscapes.empty())
      continue;
    // Up to one full row of banks (128 bytes) of padding; the first padding
    // that is conflict-free ends the search. When none is, every padding is
    // kept, so that a rule can weigh what each leaves.
    int64_t maxPad = std::max<int64_t>(1, 128 / array.elementSize);
    for (int64_t pad = 0; pad <= maxPad; ++pad) {
      ArrayInfo::PaddingTrial trial = layoutTrial(k, array, accesses, shapes, opts, [&](const ModeledAccess &a) {
        return linearized(a.subscripts, array.dims, pad, array.elementSize);
      }, pad);
      trial.padElements = pad;
      array.paddingTrials.push_back(trial);
      if (pad > 0 && trial.worstDegree < 2 && trial.excessWavefronts == 0)
        break;
    }
    // The XOR swizzle a[..][r][c ^ (r % extent)] keeps every index in its row
    // only when the extent is a power of two.
    int64_t extent = array.dims.back();
    if ((extent & (extent - 1)) == 0 && extent > 1)
      array.xorSwizzleTrial = layoutTrial(k, array, accesses, shapes, opts, [&](const ModeledAccess &a) {
        std::vector<ExprRef> subs = a.subscripts;
        ExprRef r = subs[subs.size() - 2];
        subs.back() = IndexExpr::make(ExprOp::Xor, {subs.back(), IndexExpr::make(ExprOp::Rem, {r, IndexExpr::constant(extent)})});
        return linearized(subs, array.dims, 0, array.elementSize);
      }, 0);
  }
}

} // namespace warplint
