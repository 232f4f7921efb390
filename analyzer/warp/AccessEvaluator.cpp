#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/warp/AccessFingerprint.h"
#include "analyzer/warp/BlockDimReads.h"
#include "analyzer/warp/ExprForms.h"
#include "analyzer/warp/FlatExpr.h"
#include "analyzer/warp/GuardRanges.h"
#include "analyzer/warp/LoopPlan.h"
#include "analyzer/warp/PatternMeasure.h"
#include "analyzer/warp/WarpBindings.h"
#include "analyzer/warp/WarpOutcomes.h"
#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <array>
#include <climits>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace warplint {

namespace {

std::string describeIteration(const std::vector<LoopPlan> &plans, const Binding &b) {
  std::ostringstream os;
  bool first = true;
  for (auto &p : plans) {
    auto k = b.loopIter.at(p.loop->loopId);
    if (p.iterations.size() <= 1)
      continue;
    auto v = loopValueAt(*p.loop, b, k);
    if (!p.loop->init->dependsOn(SymbolKind::ThreadIdx) && v) {
      os << (first ? "" : ", ") << p.loop->var << " = " << *v;
    } else {
      os << (first ? "" : ", ") << "iteration " << k << " of the " << p.loop->var << " loop";
    }
    first = false;
  }
  return os.str();
}

SymbolTest sweptSymbol(const std::vector<int> &ids) {
  return [&ids](const Symbol &s) {
    return s.kind == SymbolKind::Uniform && std::find(ids.begin(), ids.end(), s.index) != ids.end();
  };
}

// One sample's running result, as evaluateWarpAccess keeps it.
struct SampleRun {
  std::optional<WarpAccessEval> worst;
  double worstSeverity = -1;
  bool iterationMatters = false;
  double firstComboSeverity = -1;
  double comboSeverity = -1;
  bool failed = false; // an active lane's address could not be evaluated
  // Where the worst case was measured, named only at the end and only when
  // the iteration matters (naming it at every new worst case was a string
  // stream per improvement).
  std::vector<int64_t> worstIterations;
  int64_t worstBlockIdx[3] = {0, 0, 0}, worstThreadIdx[3] = {0, 0, 0};
};

} // namespace

std::vector<std::optional<WarpAccessEval>>
evaluateWarpAccessSamples(const GuardedAccess &access, const BlockShape &block, const EvaluationOptions &opts,
                          const std::vector<int> &sweptIds, const std::vector<std::vector<int64_t>> &samples,
                          ThinnedIterations *thinnedOut, WarpsAcrossShapes *acrossShapes) {
  std::vector<std::optional<WarpAccessEval>> out(samples.size());
  // The enumeration below is shared by the samples: it needs the guards and
  // the loops' conditions not to read the swept symbols (UniformSweep swaps
  // them into the address only). Otherwise, one sample at a time (a single
  // sample is bound everywhere, as evaluateWarpAccess binds it).
  bool shared = true;
  for (auto &g : access.guards)
    shared = shared && !readsAny(*g, sweptSymbol(sweptIds));
  {
    std::vector<std::shared_ptr<const LoopRecurrence>> loops;
    access.byteOffset->collectLoops(loops);
    for (auto &g : access.guards)
      g->collectLoops(loops);
    for (auto &l : loops)
      shared = shared && !(l->cond && readsAny(*l->cond, sweptSymbol(sweptIds)));
  }
  if (!shared && samples.size() > 1) {
    for (size_t s = 0; s < samples.size(); ++s)
      out[s] = evaluateWarpAccessSamples(access, block, opts, sweptIds, {samples[s]}, thinnedOut)[0];
    return out;
  }
  // Warps another block shape measured already (WarpsAcrossShapes).
  // Lane patterns are measured alike under every 1-D shape; a warp's whole
  // outcome when nothing reads blockDim, or in block 0 when only parts that
  // are 0 there do (blockIdx.x * blockDim.x + threadIdx.x).
  bool share = acrossShapes && block.y == 1 && block.z == 1 && block.x % kWarpSize == 0;
  bool shareEveryBlock = share && !readsBlockDim(access);
  bool shareBlockZero = shareEveryBlock || (share && !opts.lastBlock && !readsBlockDimInBlockZero(access));
  if (share && acrossShapes->samples != samples) {
    *acrossShapes = WarpsAcrossShapes{};
    acrossShapes->samples = samples;
  }
  MeasuredPatterns ownPatterns;
  MeasuredPatterns &patterns = share ? acrossShapes->patterns : ownPatterns;
  Binding base = blockBinding(block, opts);
  auto bindSample = [&](Binding &b, const std::vector<int64_t> &values) {
    for (size_t i = 0; i < sweptIds.size(); ++i)
      b.uniformOverride[sweptIds[i]] = values[i];
  };
  if (!samples.empty())
    bindSample(base, samples[0]);

  // Every loop the address or a guard depends on, outermost first as found.
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  access.byteOffset->collectLoops(loops);
  for (auto &g : access.guards)
    g->collectLoops(loops);
  std::vector<LoopPlan> plans;
  size_t combos = 1;
  for (auto &l : loops) {
    Binding b = base;
    for (auto &p : plans)
      b.loopIter[p.loop->loopId] = 0;
    plans.push_back({l, loopIterations(*l, b, opts.maxIterationsPerLoop)});
    if (plans.back().iterations.empty())
      return out; // the loop never runs under this shape
    combos *= plans.back().iterations.size();
  }
  // Keep the enumeration bounded: thin each loop's iterations evenly.
  while (combos > static_cast<size_t>(opts.maxBindings)) {
    auto widest = std::max_element(plans.begin(), plans.end(), [](auto &a, auto &b) {
      return a.iterations.size() < b.iterations.size();
    });
    std::vector<int64_t> thinned;
    for (size_t i = 0; i < widest->iterations.size(); i += 2)
      thinned.push_back(widest->iterations[i]);
    combos = combos / widest->iterations.size() * thinned.size();
    widest->iterations = thinned;
  }
  // The sweep's budget over every sample: each time the widest loop keeps
  // about half its iterations, evenly spread with its first and last kept
  // (a clamp or a mirror at the edge shows at the last iteration as at the
  // first), and no loop goes below those two.
  {
    size_t perCombination = std::max<size_t>(samples.size(), 1) * representativeWarps(block).size() *
                            (access.byteOffset->dependsOn(SymbolKind::BlockIdx) ? 2 : 1);
    size_t before = combos;
    for (;;) {
      if (opts.sweepBudget <= 0 || samples.size() <= 1 ||
          static_cast<int64_t>(combos * perCombination) <= opts.sweepBudget)
        break;
      auto widest = std::max_element(plans.begin(), plans.end(), [](auto &a, auto &b) {
        return a.iterations.size() < b.iterations.size();
      });
      if (widest == plans.end() || widest->iterations.size() <= 2)
        break;
      size_t n = widest->iterations.size(), keep = std::max<size_t>((n + 1) / 2, 2);
      std::vector<int64_t> thinned;
      for (size_t t = 0; t < keep; ++t)
        thinned.push_back(widest->iterations[(t * (n - 1) + (keep - 1) / 2) / (keep - 1)]);
      combos = combos / widest->iterations.size() * thinned.size();
      widest->iterations = thinned;
    }
    if (thinnedOut && combos < before) {
      thinnedOut->kept = std::max(thinnedOut->kept, combos);
      thinnedOut->total = std::max(thinnedOut->total, before);
    }
  }

  // No lane can pass a guard whose value range rules out every thread,
  // block and iteration (GuardRanges; one that reads a swept symbol is not
  // ranged): nothing to measure, as the enumeration below would find, without
  // it (a guard-value or last-block retry of sw4ck's `i < N0 && ...` or
  // d3q19-bgk's `x + x0 == 0` at x0 = 8 evaluated every warp to find none).
  for (auto &g : access.guards)
    if (!readsAny(*g, sweptSymbol(sweptIds)) && guardNeverPassesUnder(*g, base, opts))
      return out;

  // The address of a lane for every sample: from e(0) and one unit step per
  // symbol when the address is affine in them, else evaluated per sample.
  bool affine = affineIn(*access.byteOffset, sweptSymbol(sweptIds));
  // Likewise in threadIdx: four evaluations per warp, not one per lane.
  bool laneAffine = affineIn(*access.byteOffset, isThreadIdx);
  // Guards that read no loop pick the same lanes at every iteration.
  bool guardsReadLoops = false;
  for (auto &g : access.guards)
    guardsReadLoops = guardsReadLoops || g->dependsOnLoop();
  std::map<std::pair<int, int64_t>, std::array<bool, kWarpSize>> activeByWarp;
  std::string activeKey; // see below
  std::vector<SampleRun> runs(samples.size());
  // A second block index matters only when the address or a guard reads it.
  bool readsBlockIdx = access.byteOffset->dependsOn(SymbolKind::BlockIdx);
  for (auto &g : access.guards)
    readsBlockIdx = readsBlockIdx || g->dependsOn(SymbolKind::BlockIdx);
  // -1 stands for the last block of each dimension.
  std::vector<int64_t> blockIdxChoices{0};
  if (opts.lastBlock)
    blockIdxChoices = {-1};
  else if (readsBlockIdx)
    blockIdxChoices.push_back(1);
  // Per lane: whether active, and its address per sample (row-major).
  std::vector<int64_t> addresses(kWarpSize * samples.size());
  std::vector<int64_t> unit(sweptIds.size()), zeros(sweptIds.size(), 0);
  // The samples by symbol (column k: symbol k's value at each sample), for
  // evaluating an address at every sample in one pass (FlatExpr::atColumns).
  std::vector<std::vector<int64_t>> sampleColumns(sweptIds.size(), std::vector<int64_t>(samples.size()));
  std::vector<const int64_t *> columns;
  for (size_t k = 0; k < sweptIds.size(); ++k) {
    for (size_t s = 0; s < samples.size(); ++s)
      sampleColumns[k][s] = samples[s][k];
    columns.push_back(sampleColumns[k].data());
  }
  std::vector<int64_t> atSamples(samples.size());
  std::vector<char> atSamplesOk(samples.size());
  // The first, second and last warps stand for the block; when the guards
  // leave none of them a lane (`if (tid >= 64 && tid < 96)`), every warp.
  std::vector<int> warps = representativeWarps(block);
  if (opts.everyWarp)
    for (int w = 0; w * kWarpSize < block.threads(); ++w)
      if (std::find(warps.begin(), warps.end(), w) == warps.end())
        warps.push_back(w);
  bool anyActiveLane = false; // the same for every sample (guards never read them)
  // The address and guards compiled once for the many evaluations below.
  FlatExpr address(*access.byteOffset, sweptIds);
  // With threadIdx as an input (the lanes' dimensions; every dimension for
  // the corners), made when first needed.
  std::optional<FlatExpr> threadAddress, cornerAddress;
  std::vector<FlatExpr> guards;
  for (auto &g : access.guards)
    guards.emplace_back(*g, sweptIds);
  // Guards that read a loop: the lanes that pass at every iteration
  // combination (odometer order, as below), per warp and block index, found
  // lane by lane with the iterations as the last inputs to change, so that
  // only the instructions that read them run again.
  std::vector<int> planLoops;
  for (auto &p : plans)
    planLoops.push_back(p.loop->loopId);
  // The threadIdx dimensions the lanes of one warp vary along: given per
  // lane; the others are bound with the warp (threadIdx.y of a block 32 or
  // more wide).
  const unsigned laneDims = (block.x > 1 ? 1u : 0u) | (block.y > 1 && block.x % kWarpSize != 0 ? 2u : 0u) |
                            (block.z > 1 && (block.x * block.y) % kWarpSize != 0 ? 4u : 0u);
  std::vector<FlatExpr> loopGuards;
  if (guardsReadLoops)
    for (auto &g : access.guards)
      loopGuards.emplace_back(*g, sweptIds, planLoops, true, laneDims);
  std::map<std::pair<int, int64_t>, std::vector<uint32_t>> activeByIteration;
  // The guards' inputs at every iteration combination (odometer order), as
  // columns: each guard runs over all of them in one pass per lane
  // (FlatExpr::atColumns), the swept symbols at what guards read when there
  // is one sample. Made on the first warp that needs them.
  std::vector<std::vector<int64_t>> inputColumns;
  std::vector<const int64_t *> inputs;
  auto activeLanesPerIteration = [&](Binding b, int warp) {
    std::vector<uint32_t> masks(combos, 0);
    if (inputs.empty()) {
      inputColumns.assign(sweptIds.size() + plans.size(), std::vector<int64_t>(combos));
      for (size_t k = 0; k < sweptIds.size(); ++k)
        std::fill(inputColumns[k].begin(), inputColumns[k].end(), samples[0][k]);
      std::vector<size_t> at(plans.size(), 0);
      for (size_t c = 0; c < combos; ++c) {
        for (size_t i = 0; i < plans.size(); ++i)
          inputColumns[sweptIds.size() + i][c] = plans[i].iterations[at[i]];
        for (size_t i = 0; i < plans.size() && ++at[i] == plans[i].iterations.size(); ++i)
          at[i] = 0;
      }
      for (auto &column : inputColumns)
        inputs.push_back(column.data());
    }
    std::vector<int64_t> guardValues(combos);
    std::vector<char> guardOk(combos), pass(combos);
    // Each guard bound once per warp, what reads no threadIdx run once over
    // the combinations; per lane only the rest (FlatExpr::atThreadColumns).
    bindThread(b, block, static_cast<int64_t>(warp) * kWarpSize);
    std::vector<char> guardBound(loopGuards.size());
    for (size_t i = 0; i < loopGuards.size(); ++i)
      if ((guardBound[i] = loopGuards[i].bind(b)))
        loopGuards[i].prepareThreadColumns(inputs.data(), combos);
    for (int l = 0; l < kWarpSize; ++l) {
      int64_t tid = static_cast<int64_t>(warp) * kWarpSize + l;
      if (tid >= block.threads())
        continue;
      bindThread(b, block, tid);
      // As laneActive: a guard that fails to evaluate passes.
      std::fill(pass.begin(), pass.end(), 1);
      for (size_t i = 0; i < loopGuards.size(); ++i) {
        if (!guardBound[i])
          continue;
        loopGuards[i].atThreadColumns(b.threadIdx, guardValues.data(), guardOk.data());
        for (size_t c = 0; c < combos; ++c)
          pass[c] &= !(guardOk[c] && guardValues[c] == 0);
      }
      for (size_t c = 0; c < combos; ++c)
        masks[c] |= pass[c] ? uint32_t{1} << l : 0;
    }
    return masks;
  };
  // The same, kept per thread across accesses: the accesses of one loop body
  // share its guards (a kernel's loop nest evaluated them once per access and
  // per shape; issue 19). The key names what the masks depend on: the guards
  // and binding (guardsContextFingerprint), the loops' iterations, the warp
  // and the block.
  auto lanesPerIteration = [&](const Binding &b, int warp, int64_t bi) {
    if (activeKey.empty())
      activeKey = guardsContextFingerprint(access.guards, block, base);
    std::string key = activeKey + "|i";
    appendIterations(key, plans);
    key += "|w" + std::to_string(warp) + ',' + std::to_string(bi);
    thread_local std::unordered_map<std::string, std::vector<uint32_t>> memo;
    thread_local size_t memoMasks = 0;
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    std::vector<uint32_t> masks = activeLanesPerIteration(b, warp);
    if (memoMasks + masks.size() > (size_t{1} << 22)) { // 16 MiB of masks
      memo.clear();
      memoMasks = 0;
    }
    memoMasks += masks.size();
    memo.emplace(std::move(key), masks);
    return masks;
  };
  // Corner d of a warp: threadIdx 0, or one step along dimension d - 1.
  auto cornerThread = [](int d, int64_t (&t)[3]) {
    t[0] = t[1] = t[2] = 0;
    if (d > 0)
      t[d - 1] = 1;
  };
  // The corner path's state (see below), allocated once.
  std::array<Binding, 4> cornerBindings;
  // Corner d of a warp under `b`.
  auto bindCorner = [&](const Binding &b, int d) -> const Binding & {
    Binding &cb = cornerBindings[d];
    cb = b;
    cornerThread(d, cb.threadIdx);
    return cb;
  };
  // `b` in block `bi` of every dimension (-1: the grid's last).
  auto inBlock = [](Binding b, int64_t bi) {
    for (int d = 0; d < 3; ++d)
      b.blockIdx[d] = bi >= 0 ? bi : b.gridDim[d] - 1;
    return b;
  };
  std::vector<std::array<int64_t, 4>> variantCorners(sweptIds.size() + 1), sampleCorners(samples.size());
  // Corner keys looked up lately (pointers into patterns.byCorners, which
  // keeps them valid), by a cheap hash of the key.
  std::vector<std::pair<CornerKey, const WarpAccessEval *>> recentCorners(256);
  auto recentSlot = [](const CornerKey &k) {
    uint64_t h = static_cast<uint64_t>(k.base) * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(k.step[0]) * 0xbf58476d1ce4e5b9ull ^
                 static_cast<uint64_t>(k.step[1]) * 0x94d049bb133111ebull ^ static_cast<uint64_t>(k.step[2]) ^
                 (static_cast<uint64_t>(k.activeMask) << 7) ^ static_cast<uint64_t>(k.warp);
    return static_cast<size_t>((h ^ (h >> 29)) & 255);
  };
  // The loops the address reads (indices into plans). An iteration
  // combination that differs from one already measured only in the other
  // loops (those only guards read), with the same lanes active in every
  // evaluated warp and block, measures exactly alike: it is skipped. Its
  // severities equal the earlier one's, so neither the worst case (kept at
  // its first occurrence) nor whether the iteration matters can change.
  std::vector<size_t> addressPlans;
  {
    std::vector<std::shared_ptr<const LoopRecurrence>> addressLoops;
    access.byteOffset->collectLoops(addressLoops);
    for (size_t i = 0; i < plans.size(); ++i)
      if (std::any_of(addressLoops.begin(), addressLoops.end(),
                      [&](auto &l) { return l->loopId == plans[i].loop->loopId; }))
        addressPlans.push_back(i);
  }
  bool skipRepeats = addressPlans.size() < plans.size();
  std::set<std::vector<int64_t>> measuredCombos;
  const std::vector<int> noWarps;
  // Sample s of `warp` in block binding `b` measured as `m`: the sample's
  // worst case so far, and whether the iteration matters.
  std::vector<int64_t> iterationValues(plans.size()); // the combination being measured
  auto account = [&](size_t s, const WarpAccessEval &m, int warp, const Binding &b) {
    SampleRun &run = runs[s];
    double sev = evaluationSeverity(m, access.space);
    run.comboSeverity = std::max(run.comboSeverity, sev);
    if (sev > run.worstSeverity) {
      run.worstSeverity = sev;
      run.worst = m;
      run.worst->block = block;
      run.worst->warpInBlock = warp;
      run.worstIterations = iterationValues;
      std::copy(b.blockIdx, b.blockIdx + 3, run.worstBlockIdx);
      std::copy(b.threadIdx, b.threadIdx + 3, run.worstThreadIdx);
    }
  };
  size_t comboIndex = 0;
  std::vector<size_t> cursor(plans.size(), 0);
  for (;;) {
    for (auto &r : runs)
      r.comboSeverity = -1;
    Binding iterBinding = base;
    for (size_t i = 0; i < plans.size(); ++i) {
      iterationValues[i] = plans[i].iterations[cursor[i]];
      iterBinding.loopIter[plans[i].loop->loopId] = iterationValues[i];
    }
    bool repeat = false;
    if (skipRepeats) {
      std::vector<int64_t> signature;
      for (size_t i : addressPlans)
        signature.push_back(plans[i].iterations[cursor[i]]);
      if (guardsReadLoops)
        for (int warp : warps)
          for (int64_t bi : blockIdxChoices) {
            auto &masks = activeByIteration[{warp, bi}];
            if (masks.empty())
              masks = lanesPerIteration(inBlock(iterBinding, bi), warp, bi);
            signature.push_back(masks[comboIndex]);
          }
      repeat = !measuredCombos.insert(std::move(signature)).second;
    }
    for (int warp : repeat ? noWarps : warps) {
      for (int64_t bi : blockIdxChoices) {
        Binding b = inBlock(iterBinding, bi);
        // A warp another shape measured: its outcome replayed.
        WarpOutcome *outcome = nullptr;
        if (shareEveryBlock || (shareBlockZero && bi == 0)) {
          auto [at, fresh] = acrossShapes->outcomes.try_emplace({warp, bi, iterationValues});
          outcome = &at->second;
          if (!fresh) {
            if (outcome->anyUnknown)
              return std::vector<std::optional<WarpAccessEval>>(samples.size());
            anyActiveLane = anyActiveLane || outcome->anyActive;
            for (size_t s = 0; s < samples.size() && outcome->anyActive; ++s) {
              if (runs[s].failed)
                continue;
              if (outcome->failed[s])
                runs[s].failed = true;
              else if (outcome->measured[s])
                account(s, *outcome->measured[s], warp, b);
            }
            continue;
          }
          outcome->measured.assign(samples.size(), nullptr);
          outcome->failed.assign(samples.size(), 0);
        }
        // Samples an address of this warp failed to evaluate at. Without an
        // outcome to record, a sample that failed before is not evaluated again.
        auto skipSample = [&](size_t s) { return outcome ? outcome->failed[s] != 0 : runs[s].failed; };
        auto failSample = [&](size_t s) {
          runs[s].failed = true;
          if (outcome)
            outcome->failed[s] = 1;
        };
        std::array<bool, kWarpSize> active{};
        auto cached = activeByWarp.find({warp, bi});
        if (!guardsReadLoops && cached != activeByWarp.end()) {
          active = cached->second;
        } else if (guardsReadLoops) {
          auto &masks = activeByIteration[{warp, bi}];
          if (masks.empty())
            masks = lanesPerIteration(b, warp, bi);
          for (int l = 0; l < kWarpSize; ++l)
            active[l] = (masks[comboIndex] >> l) & 1;
        } else {
          // Accesses under one `if` share their guards: the lanes they let
          // through are kept per thread across accesses (a stencil kernel
          // evaluates the same guards for hundreds of accesses).
          if (activeKey.empty())
            activeKey = guardsContextFingerprint(access.guards, block, base);
          std::string key = activeKey + "|w" + std::to_string(warp) + ',' + std::to_string(bi);
          thread_local std::unordered_map<std::string, std::array<bool, kWarpSize>> activeMemo;
          if (auto memo = activeMemo.find(key); memo != activeMemo.end()) {
            active = memo->second;
          } else {
            for (int l = 0; l < kWarpSize; ++l) {
              int64_t tid = static_cast<int64_t>(warp) * kWarpSize + l;
              if (tid >= block.threads())
                continue;
              bindThread(b, block, tid);
              // As laneActive, the swept symbols at what guards read when there is one sample.
              active[l] = std::none_of(guards.begin(), guards.end(), [&](FlatExpr &g) {
                auto v = g.evaluate(b, samples[0].data());
                return v && *v == 0;
              });
            }
            if (activeMemo.size() >= 100000)
              activeMemo.clear();
            activeMemo.emplace(std::move(key), active);
          }
          activeByWarp[{warp, bi}] = active;
        }
        bool anyActive = std::find(active.begin(), active.end(), true) != active.end();
        anyActiveLane = anyActiveLane || anyActive;
        if (outcome)
          outcome->anyActive = anyActive;
        if (!anyActive)
          continue; // no lane to measure, whatever the sample
        bool anyUnknown = false;
        // Lanes whose address is affine in threadIdx: per sample, the address
        // at threadIdx 0 and one step along each dimension (the corners) give
        // every lane's, and the lane pattern is that of the steps and the
        // base address modulo 128: patterns seen before are not rebuilt.
        bool viaCorners = laneAffine && anyActive;
        // Corners past the block's last dimension above 1 are corner 0: no
        // lane steps along it (a 1-D block needs two corners, not four), and
        // an address affine in threadIdx fails at one corner exactly when it
        // fails at every other (affineIn).
        const int lastCorner = block.z > 1 ? 3 : block.y > 1 ? 2 : 1;
        if (viaCorners && affine) {
          // The corners for zero swept values and one step along each swept
          // symbol; a sample's corners are their affine combination.
          for (size_t variant = 0; variant <= sweptIds.size() && !anyUnknown; ++variant) {
            std::vector<int64_t> point = zeros;
            if (variant > 0)
              point[variant - 1] = 1;
            for (int d = 0; d <= lastCorner && !anyUnknown; ++d) {
              auto v = address.evaluate(bindCorner(b, d), point.data());
              if (!v)
                anyUnknown = true; // at every lane and sample alike (affineIn)
              else
                variantCorners[variant][d] = *v;
            }
            for (int d = lastCorner + 1; d <= 3; ++d)
              variantCorners[variant][d] = variantCorners[variant][0];
          }
          for (size_t s = 0; s < samples.size() && !anyUnknown; ++s)
            for (int d = 0; d <= 3; ++d) {
              int64_t v = variantCorners[0][d];
              for (size_t i = 0; i < sweptIds.size(); ++i)
                v += samples[s][i] * (variantCorners[i + 1][d] - variantCorners[0][d]);
              sampleCorners[s][d] = v;
            }
        } else if (viaCorners) {
          // Bound once per warp, what reads the swept symbols but no
          // threadIdx evaluated at every sample in one pass; per corner only
          // what reads threadIdx (FlatExpr::atThreadColumns).
          if (!cornerAddress)
            cornerAddress.emplace(*access.byteOffset, sweptIds, std::vector<int>{}, true);
          bool bound = cornerAddress->bind(b); // reads no threadIdx: every dimension is an input
          if (bound)
            cornerAddress->prepareThreadColumns(columns.data(), samples.size());
          for (int d = 0; d <= lastCorner; ++d) {
            int64_t corner[3];
            cornerThread(d, corner);
            if (bound)
              cornerAddress->atThreadColumns(corner, atSamples.data(), atSamplesOk.data());
            for (size_t s = 0; s < samples.size(); ++s) {
              if (skipSample(s))
                continue;
              if (!bound || !atSamplesOk[s])
                failSample(s);
              else
                sampleCorners[s][d] = atSamples[s];
            }
          }
          for (size_t s = 0; s < samples.size(); ++s)
            for (int d = lastCorner + 1; d <= 3; ++d)
              sampleCorners[s][d] = sampleCorners[s][0];
        }
        // Addresses neither lane-affine nor affine in the swept symbols: the
        // instructions that read no threadIdx run once per warp over the
        // samples, the others per lane.
        bool perLaneColumns = !laneAffine && !affine && !anyUnknown;
        bool warpBound = false;
        if (perLaneColumns) {
          if (!threadAddress)
            threadAddress.emplace(*access.byteOffset, sweptIds, std::vector<int>{}, true, laneDims);
          bindThread(b, block, static_cast<int64_t>(warp) * kWarpSize);
          warpBound = threadAddress->bind(b); // the same for every lane
          if (warpBound)
            threadAddress->prepareThreadColumns(columns.data(), samples.size());
        }
        for (int l = 0; l < kWarpSize && !anyUnknown && !laneAffine; ++l) {
          if (!active[l])
            continue;
          int64_t tid = static_cast<int64_t>(warp) * kWarpSize + l;
          bindThread(b, block, tid);
          int64_t *row = &addresses[static_cast<size_t>(l) * samples.size()];
          // The instructions no swept symbol reaches.
          bool laneBound = perLaneColumns ? warpBound : address.bind(b);
          if (affine) {
            auto a0 = laneBound ? address.at(zeros.data()) : std::nullopt;
            if (!a0) {
              anyUnknown = true;
              break;
            }
            std::vector<int64_t> point = zeros;
            for (size_t i = 0; i < sweptIds.size(); ++i) {
              point[i] = 1;
              auto a1 = address.at(point.data()); // evaluates where e(0) does (affineIn)
              point[i] = 0;
              unit[i] = a1.value_or(*a0) - *a0;
            }
            for (size_t s = 0; s < samples.size(); ++s) {
              int64_t v = *a0;
              for (size_t i = 0; i < sweptIds.size(); ++i)
                v += samples[s][i] * unit[i];
              row[s] = v;
            }
          } else {
            if (laneBound) // every sample in one pass
              threadAddress->atThreadColumns(b.threadIdx, atSamples.data(), atSamplesOk.data());
            for (size_t s = 0; s < samples.size(); ++s) {
              if (skipSample(s))
                continue;
              if (!laneBound || !atSamplesOk[s])
                failSample(s);
              else
                row[s] = atSamples[s];
            }
          }
        }
        if (anyUnknown) { // for every sample alike
          if (outcome)
            outcome->anyUnknown = true;
          return std::vector<std::optional<WarpAccessEval>>(samples.size());
        }
        // The lanes' threadIdx, and the box they span, for the corner path.
        std::array<std::array<int64_t, 3>, kWarpSize> laneThread{};
        int64_t boxLow[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, boxHigh[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
        uint32_t activeMask = 0;
        if (viaCorners)
          for (int l = 0; l < kWarpSize; ++l) {
            if (!active[l])
              continue;
            bindThread(b, block, static_cast<int64_t>(warp) * kWarpSize + l);
            activeMask |= uint32_t{1} << l;
            for (int d = 0; d < 3; ++d) {
              laneThread[l][d] = b.threadIdx[d];
              boxLow[d] = std::min(boxLow[d], b.threadIdx[d]);
              boxHigh[d] = std::max(boxHigh[d], b.threadIdx[d]);
            }
          }
        for (size_t s = 0; s < samples.size(); ++s) {
          if (skipSample(s))
            continue;
          const WarpAccessEval *m = nullptr;
          CornerKey cornerKey;
          bool keyed = false; // then `recent` is the key's cache slot
          std::pair<CornerKey, const WarpAccessEval *> *recent = nullptr;
          if (viaCorners) {
            const auto &c = sampleCorners[s];
            int64_t step[3] = {c[1] - c[0], c[2] - c[0], c[3] - c[0]};
            // Every active lane inside the array when the box of their
            // threadIdx is: then no lane is out of bounds and the pattern
            // alone decides.
            bool inBounds = access.extentBytes <= 0;
            if (!inBounds) {
              __int128 low = c[0], high = c[0];
              for (int d = 0; d < 3; ++d) {
                __int128 a = static_cast<__int128>(step[d]) * boxLow[d], z = static_cast<__int128>(step[d]) * boxHigh[d];
                low += std::min(a, z);
                high += std::max(a, z);
              }
              inBounds = low >= 0 && high + access.widthBytes <= access.extentBytes;
              // Every lane outside the array (the box is): not a real execution.
              if (high < 0 || low + access.widthBytes > access.extentBytes)
                continue;
            }
            if (inBounds) {
              cornerKey = {warp, activeMask, {step[0], step[1], step[2]}, c[0] - 128 * floorDiv128(c[0])};
              keyed = true;
              // A direct-mapped cache in front of the map: most samples repeat
              // a recent key, and the map's look-up divides by its bucket count.
              recent = &recentCorners[recentSlot(cornerKey)];
              if (recent->second && recent->first == cornerKey)
                m = recent->second;
              else if (auto it = patterns.byCorners.find(cornerKey); it != patterns.byCorners.end())
                m = &it->second, *recent = {cornerKey, m};
            }
          }
          if (!m) {
            LaneAddresses lanes;
            lanes.widthBytes = access.widthBytes;
            lanes.store = access.store;
            bool outOfBounds = false, anyLane = false; // counted here: activeCount() was 17% of a swept file
            for (int l = 0; l < kWarpSize; ++l) {
              if (!active[l])
                continue;
              int64_t addr;
              if (viaCorners) {
                const auto &c = sampleCorners[s];
                addr = c[0];
                for (int d = 0; d < 3; ++d)
                  addr += laneThread[l][d] * (c[d + 1] - c[0]);
              } else {
                addr = addresses[static_cast<size_t>(l) * samples.size() + s];
              }
              anyLane = true;
              lanes.active[l] = true;
              lanes.address[l] = addr;
              if (access.extentBytes > 0 && (addr < 0 || addr + access.widthBytes > access.extentBytes))
                outOfBounds = true;
            }
            if (!anyLane || outOfBounds)
              continue;
            PatternKey key;
            int64_t shift = 0;
            bool first = true;
            for (int l = 0; l < kWarpSize; ++l)
              if (lanes.active[l]) {
                if (first)
                  shift = 128 * floorDiv128(lanes.address[l]), first = false;
                key.v[l] = lanes.address[l] - shift;
                key.v[kWarpSize] |= int64_t{1} << l;
              }
            auto it = patterns.byAddresses.find(key);
            if (it == patterns.byAddresses.end())
              it = patterns.byAddresses.emplace(key, measurePattern(lanes, access.space)).first;
            m = &it->second;
            if (keyed) {
              m = &patterns.byCorners.emplace(cornerKey, *m).first->second;
              *recent = {cornerKey, m};
            }
          }
          if (outcome)
            outcome->measured[s] = m;
          if (!runs[s].failed)
            account(s, *m, warp, b);
        }
      }
    }
    for (auto &run : runs) {
      if (run.firstComboSeverity < 0)
        run.firstComboSeverity = run.comboSeverity;
      else if (run.comboSeverity >= 0 && run.comboSeverity != run.firstComboSeverity)
        run.iterationMatters = true;
    }
    // Next combination of loop iterations (odometer order).
    size_t i = 0;
    for (; i < plans.size(); ++i) {
      if (++cursor[i] < plans[i].iterations.size())
        break;
      cursor[i] = 0;
    }
    if (i == plans.size())
      break;
    ++comboIndex;
  }

  int64_t warpCount = (block.threads() + kWarpSize - 1) / kWarpSize;
  if (!anyActiveLane && !opts.everyWarp && warpCount > static_cast<int64_t>(warps.size()) &&
      static_cast<int64_t>(combos) * warpCount * static_cast<int64_t>(blockIdxChoices.size()) <= opts.maxBindings) {
    EvaluationOptions every = opts;
    every.everyWarp = true;
    return evaluateWarpAccessSamples(access, block, every, sweptIds, samples, nullptr, acrossShapes);
  }
  for (size_t s = 0; s < samples.size(); ++s) {
    if (runs[s].failed)
      continue;
    SampleRun &run = runs[s];
    if (run.worst && run.iterationMatters) {
      // The binding the worst case was measured under, as account() saw it.
      Binding named = base;
      for (size_t i = 0; i < plans.size(); ++i)
        named.loopIter[plans[i].loop->loopId] = run.worstIterations[i];
      std::copy(run.worstBlockIdx, run.worstBlockIdx + 3, named.blockIdx);
      std::copy(run.worstThreadIdx, run.worstThreadIdx + 3, named.threadIdx);
      bindSample(named, samples[s]);
      run.worst->iteration = describeIteration(plans, named);
    } else if (run.worst) {
      run.worst->iteration.clear();
    }
    out[s] = std::move(run.worst);
  }
  return out;
}

std::optional<WarpAccessEval> evaluateWarpAccess(const GuardedAccess &access, const BlockShape &block,
                                                 const EvaluationOptions &opts) {
  return evaluateWarpAccessSamples(access, block, opts, {}, {{}})[0];
}

} // namespace warplint
