#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace warplint {

Binding blockBinding(const BlockShape &block, const EvaluationOptions &opts) {
  Binding base;
  base.blockDim[0] = block.x;
  base.blockDim[1] = block.y;
  base.blockDim[2] = block.z;
  BlockShape grid = opts.grid.value_or(BlockShape{opts.symbolicValue, opts.symbolicValue, 1});
  base.gridDim[0] = grid.x;
  base.gridDim[1] = grid.y;
  base.gridDim[2] = grid.z;
  base.paramValue = opts.symbolicValue;
  base.paramOverride = opts.paramOverrides;
  base.uniformOverride = opts.uniformOverrides;
  return base;
}

void bindThread(Binding &b, const BlockShape &block, int64_t tid) {
  b.threadIdx[0] = tid % block.x;
  b.threadIdx[1] = (tid / block.x) % block.y;
  b.threadIdx[2] = tid / (block.x * block.y);
}

std::vector<int> representativeWarps(const BlockShape &block) {
  int64_t warps = (block.threads() + kWarpSize - 1) / kWarpSize;
  std::vector<int> out{0};
  if (warps > 1)
    out.push_back(1);
  if (warps > 2)
    out.push_back(static_cast<int>(warps - 1));
  return out;
}

// Constant memory serves a warp one distinct address at a time.
void countDistinct(const LaneAddresses &lanes, WarpAccessEval &e) {
  std::set<int64_t> addresses, lines;
  for (int l = 0; l < kWarpSize; ++l)
    if (lanes.active[l]) {
      addresses.insert(lanes.address[l]);
      lines.insert(lanes.address[l] >= 0 ? lanes.address[l] / 128 : (lanes.address[l] - 127) / 128);
    }
  e.distinctAddresses = static_cast<int>(addresses.size());
  e.distinctLines = static_cast<int>(lines.size());
}

bool laneActive(const GuardedAccess &a, const Binding &b) {
  for (auto &g : a.guards) {
    auto v = evaluate(*g, b);
    if (v && *v == 0)
      return false; // a guard we cannot evaluate is taken as true
  }
  return true;
}

std::vector<int64_t> loopIterations(const LoopRecurrence &rec, const Binding &base, int cap) {
  std::vector<int64_t> ks;
  for (int64_t k = 0; k < cap; ++k) {
    bool anyLane = false, known = true;
    Binding b = base;
    for (int l = 0; l < kWarpSize && !anyLane; ++l) {
      b.threadIdx[0] = l; // the condition is mostly uniform; a few lanes suffice
      Binding withK = b;
      withK.loopIter[rec.loopId] = k;
      if (!rec.cond) {
        anyLane = true;
        break;
      }
      auto c = evaluate(*rec.cond, withK);
      if (!c) {
        known = false;
        break;
      }
      anyLane = *c != 0;
    }
    if (!known) { // an unknown bound: a few representative iterations
      if (k < 4)
        ks.push_back(k);
      else
        break;
      continue;
    }
    if (!anyLane)
      break;
    ks.push_back(k);
  }
  return ks;
}

namespace {

struct LoopPlan {
  std::shared_ptr<const LoopRecurrence> loop;
  std::vector<int64_t> iterations;
};

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

} // namespace

double evaluationSeverity(const WarpAccessEval &e, AddressSpace space) {
  if (space == AddressSpace::Shared)
    return e.bankConflictDegree + 0.001 * e.wavefronts;
  if (space == AddressSpace::Constant)
    return e.distinctAddresses + 0.001 * e.distinctLines;
  if (e.idealSectors == 0)
    return 0;
  return static_cast<double>(e.sectors) / e.idealSectors;
}

std::optional<WarpAccessEval> evaluateWarpAccess(const GuardedAccess &access, const BlockShape &block,
                                                 const EvaluationOptions &opts) {
  Binding base = blockBinding(block, opts);

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
      return std::nullopt; // the loop never runs under this shape
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

  std::optional<WarpAccessEval> worst;
  double worstSeverity = -1;
  // Whether the loop iteration matters: if every iteration is as bad as the
  // worst, naming one would mislead.
  bool iterationMatters = false;
  double firstComboSeverity = -1;
  // A second block index matters only when the address or a guard reads it.
  bool readsBlockIdx = access.byteOffset->dependsOn(SymbolKind::BlockIdx);
  for (auto &g : access.guards)
    readsBlockIdx = readsBlockIdx || g->dependsOn(SymbolKind::BlockIdx);
  std::vector<int64_t> blockIdxChoices{0};
  if (readsBlockIdx)
    blockIdxChoices.push_back(1);
  // The first, second and last warps stand for the block; when the guards
  // leave none of them a lane (`if (tid >= 64 && tid < 96)`), every warp.
  std::vector<int> warps = representativeWarps(block);
  if (opts.everyWarp)
    for (int w = 0; w * kWarpSize < block.threads(); ++w)
      if (std::find(warps.begin(), warps.end(), w) == warps.end())
        warps.push_back(w);
  bool anyActiveLane = false;
  std::vector<size_t> cursor(plans.size(), 0);
  for (;;) {
    double comboSeverity = -1;
    Binding iterBinding = base;
    for (size_t i = 0; i < plans.size(); ++i)
      iterBinding.loopIter[plans[i].loop->loopId] = plans[i].iterations[cursor[i]];
    for (int warp : warps) {
      for (int64_t bi : blockIdxChoices) {
        Binding b = iterBinding;
        b.blockIdx[0] = b.blockIdx[1] = b.blockIdx[2] = bi;
        LaneAddresses lanes;
        lanes.widthBytes = access.widthBytes;
        bool anyUnknown = false, outOfBounds = false;
        for (int l = 0; l < kWarpSize; ++l) {
          int64_t tid = static_cast<int64_t>(warp) * kWarpSize + l;
          if (tid >= block.threads())
            continue;
          bindThread(b, block, tid);
          if (!laneActive(access, b))
            continue;
          auto addr = evaluate(*access.byteOffset, b);
          if (!addr) {
            anyUnknown = true;
            break;
          }
          lanes.active[l] = true;
          lanes.address[l] = *addr;
          if (access.extentBytes > 0 && (*addr < 0 || *addr + access.widthBytes > access.extentBytes))
            outOfBounds = true;
        }
        if (anyUnknown)
          return std::nullopt;
        anyActiveLane = anyActiveLane || lanes.activeCount() > 0;
        if (lanes.activeCount() == 0 || outOfBounds)
          continue;
        WarpAccessEval e;
        e.block = block;
        e.warpInBlock = warp;
        e.activeLanes = lanes.activeCount();
        e.uniform = lanes.uniform();
        countDistinct(lanes, e);
        if (lanes.active[0] && lanes.active[1]) {
          e.laneStrideKnown = true;
          e.laneStrideBytes = lanes.address[1] - lanes.address[0];
        }
        if (access.space == AddressSpace::Shared) {
          auto c = sharedBankConflicts(lanes);
          e.bankConflictDegree = c.degree;
          e.wavefronts = c.wavefronts;
          e.idealWavefronts = c.idealWavefronts;
          e.conflictBank = c.bank;
          e.conflictLanes = c.lanes;
        } else {
          auto s = globalSectors(lanes);
          e.sectors = s.sectors;
          e.idealSectors = s.idealSectors;
        }
        double sev = evaluationSeverity(e, access.space);
        comboSeverity = std::max(comboSeverity, sev);
        if (sev > worstSeverity) {
          worstSeverity = sev;
          e.iteration = describeIteration(plans, b);
          worst = e;
        }
      }
    }
    if (firstComboSeverity < 0)
      firstComboSeverity = comboSeverity;
    else if (comboSeverity >= 0 && comboSeverity != firstComboSeverity)
      iterationMatters = true;
    // Next combination of loop iterations (odometer order).
    size_t i = 0;
    for (; i < plans.size(); ++i) {
      if (++cursor[i] < plans[i].iterations.size())
        break;
      cursor[i] = 0;
    }
    if (i == plans.size())
      break;
  }
  int64_t warpCount = (block.threads() + kWarpSize - 1) / kWarpSize;
  if (!worst && !anyActiveLane && !opts.everyWarp && warpCount > static_cast<int64_t>(warps.size()) &&
      static_cast<int64_t>(combos) * warpCount * static_cast<int64_t>(blockIdxChoices.size()) <= opts.maxBindings) {
    EvaluationOptions every = opts;
    every.everyWarp = true;
    return evaluateWarpAccess(access, block, every);
  }
  if (worst && !iterationMatters)
    worst->iteration.clear();
  return worst;
}

namespace {

// Iterations of `rec` that some thread of the block runs (others at
// iteration 0), up to `cap`; `ended` when the condition turned false for
// every thread before the cap.
std::vector<int64_t> blockLoopIterations(const LoopRecurrence &rec, const Binding &base, const BlockShape &block,
                                         int cap, bool &ended) {
  std::vector<int64_t> ks;
  ended = false;
  if (!rec.cond) {
    for (int64_t k = 0; k < cap; ++k)
      ks.push_back(k);
    return ks;
  }
  for (int64_t k = 0; k < cap; ++k) {
    bool any = false;
    Binding b = base;
    b.loopIter[rec.loopId] = k;
    for (int64_t tid = 0; tid < block.threads() && !any; ++tid) {
      b.threadIdx[0] = tid % block.x;
      b.threadIdx[1] = (tid / block.x) % block.y;
      b.threadIdx[2] = tid / (block.x * block.y);
      auto c = evaluate(*rec.cond, b);
      if (!c)
        return ks; // an unknown bound: what was found so far, not ended
      any = *c != 0;
    }
    if (!any) {
      ended = true;
      return ks;
    }
    ks.push_back(k);
  }
  return ks;
}

} // namespace

BlockEnumeration enumerateBlock(const GuardedAccess &access, const BlockShape &block, const EvaluationOptions &opts,
                                int64_t maxLaneEvaluations, const std::function<void(const BlockLane &)> &visit) {
  BlockEnumeration out;
  Binding base;
  base.blockDim[0] = block.x;
  base.blockDim[1] = block.y;
  base.blockDim[2] = block.z;
  BlockShape grid = opts.grid.value_or(BlockShape{opts.symbolicValue, opts.symbolicValue, 1});
  base.gridDim[0] = grid.x;
  base.gridDim[1] = grid.y;
  base.gridDim[2] = grid.z;
  base.paramValue = opts.symbolicValue;
  if (block.threads() <= 0)
    return out;

  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  access.byteOffset->collectLoops(loops);
  for (auto &g : access.guards)
    g->collectLoops(loops);
  // Each loop's iterations are found with the others at their first one
  // (an inner loop whose bound reads an outer variable included).
  for (auto &l : loops)
    base.loopIter[l->loopId] = 0;
  std::vector<LoopPlan> plans;
  std::vector<bool> cut;
  out.complete = true;
  size_t combos = 1;
  for (auto &l : loops) {
    bool ended = false;
    plans.push_back({l, blockLoopIterations(*l, base, block, opts.maxIterationsPerLoop, ended)});
    // A trip count that reads another loop's variable was only seen with
    // that loop at its first iteration: other iterations may run longer.
    std::vector<std::shared_ptr<const LoopRecurrence>> reads;
    for (const ExprRef &e : {l->cond, l->init, l->step})
      if (e)
        e->collectLoops(reads);
    bool dependent = std::any_of(reads.begin(), reads.end(), [&](auto &r) { return r->loopId != l->loopId; });
    cut.push_back(!ended);
    out.complete = out.complete && ended && !dependent;
    if (plans.back().iterations.empty())
      return out; // the loop never runs (or its bound is unknown from the start)
    combos *= plans.back().iterations.size();
    out.loopVars.push_back(l->var);
  }
  // Within budget: keep a prefix of the widest loop's iterations.
  while (static_cast<int64_t>(combos) * block.threads() > maxLaneEvaluations) {
    auto widest = std::max_element(plans.begin(), plans.end(), [](auto &a, auto &b) {
      return a.iterations.size() < b.iterations.size();
    });
    if (widest == plans.end() || widest->iterations.size() <= 1)
      break;
    size_t keep = widest->iterations.size() / 2;
    combos = combos / widest->iterations.size() * keep;
    widest->iterations.resize(keep);
    cut[widest - plans.begin()] = true;
    out.complete = false;
  }
  if (static_cast<int64_t>(combos) * block.threads() > maxLaneEvaluations)
    return out;
  for (size_t i = 0; i < plans.size(); ++i)
    if (cut[i]) {
      std::string w = "the first " + std::to_string(plans[i].iterations.size()) + " iteration" +
                      (plans[i].iterations.size() == 1 ? "" : "s") + " of " +
                      (plans[i].loop->var.empty() ? std::string("a loop") : plans[i].loop->var);
      out.window += (out.window.empty() ? "" : ", ") + w;
    }

  std::vector<BlockLane> lanes;
  std::vector<size_t> cursor(plans.size(), 0);
  for (int64_t step = 0;; ++step) {
    Binding b = base;
    for (size_t i = 0; i < plans.size(); ++i)
      b.loopIter[plans[i].loop->loopId] = plans[i].iterations[cursor[i]];
    for (int64_t tid = 0; tid < block.threads(); ++tid) {
      b.threadIdx[0] = tid % block.x;
      b.threadIdx[1] = (tid / block.x) % block.y;
      b.threadIdx[2] = tid / (block.x * block.y);
      bool runs = true;
      for (auto &p : plans) // this thread's own trip count
        if (p.loop->cond) {
          auto c = evaluate(*p.loop->cond, b);
          runs = runs && !(c && *c == 0);
        }
      if (!runs || !laneActive(access, b))
        continue;
      auto addr = evaluate(*access.byteOffset, b);
      if (!addr)
        return out; // evaluated stays false: nothing is visited
      if (access.extentBytes > 0 && (*addr < 0 || *addr + access.widthBytes > access.extentBytes))
        continue; // not a real execution (an assumed value was wrong for it)
      lanes.push_back({static_cast<int>(tid), step, *addr});
    }
    size_t i = 0;
    for (; i < plans.size(); ++i) {
      if (++cursor[i] < plans[i].iterations.size())
        break;
      cursor[i] = 0;
    }
    if (i == plans.size()) {
      out.steps = step + 1;
      break;
    }
  }
  out.evaluated = true;
  for (const BlockLane &l : lanes)
    visit(l);
  return out;
}

} // namespace warplint
