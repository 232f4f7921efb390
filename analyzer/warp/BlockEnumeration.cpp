#include "analyzer/warp/BlockEnumeration.h"
#include "analyzer/warp/AccessFingerprint.h"
#include "analyzer/warp/ExprForms.h"
#include "analyzer/warp/FlatExpr.h"
#include "analyzer/warp/LoopPlan.h"
#include "analyzer/warp/WarpBindings.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace warplint {

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
      bindThread(b, block, tid);
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
  Binding base = blockBinding(block, opts);
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
    if (plans.back().iterations.empty()) {
      // the loop never runs (or its bound is unknown from the start)
      out.loopNeverRuns = ended && !dependent;
      return out;
    }
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

  // Compiled once: every thread at every step evaluates them. threadIdx is
  // an input: each step binds them once (the loops' iterations), and each
  // thread runs only the instructions that read its threadIdx.
  const std::vector<int> none;
  FlatExpr address(*access.byteOffset, none, none, true);
  // An address affine in threadIdx: each step's three steps along threadIdx
  // give every thread's (affineIn: it fails exactly where threadIdx 0's does).
  bool threadAffine = affineIn(*access.byteOffset, isThreadIdx);
  // Which threads run each step: the loops' own conditions and the guards
  // (a thread runs unless one is known false; one that fails to bind or
  // evaluate passes), kept per thread across accesses: the accesses under
  // one `if` in one loop nest share them (a stencil's hundreds).
  std::vector<ExprRef> tests = access.guards;
  for (auto &p : plans)
    if (p.loop->cond)
      tests.push_back(p.loop->cond);
  std::string runsKey = guardsContextFingerprint(tests, block, base) + "|b";
  for (int d = 0; d < 3; ++d)
    runsKey += std::to_string(base.blockIdx[d]) + ',';
  appendIterations(runsKey, plans);
  thread_local std::unordered_map<std::string, std::vector<char>> runsMemo;
  thread_local size_t runsMemoBytes = 0;
  const std::vector<char> *runs = nullptr;
  if (auto it = runsMemo.find(runsKey); it != runsMemo.end())
    runs = &it->second;
  std::vector<char> ownRuns;
  if (!runs) {
    std::vector<FlatExpr> compiled;
    for (auto &t : tests)
      compiled.emplace_back(*t, none, none, true);
    std::vector<char> bound(compiled.size());
    std::vector<size_t> at(plans.size(), 0);
    Binding b = base;
    for (size_t step = 0; step < combos; ++step) {
      for (size_t i = 0; i < plans.size(); ++i)
        b.loopIter[plans[i].loop->loopId] = plans[i].iterations[at[i]];
      for (size_t i = 0; i < compiled.size(); ++i)
        bound[i] = compiled[i].bind(b);
      for (int64_t tid = 0; tid < block.threads(); ++tid) {
        bindThread(b, block, tid);
        bool pass = true;
        for (size_t i = 0; i < compiled.size() && pass; ++i)
          if (bound[i]) {
            auto v = compiled[i].at(b.threadIdx);
            pass = !(v && *v == 0);
          }
        ownRuns.push_back(pass);
      }
      for (size_t i = 0; i < plans.size() && ++at[i] == plans[i].iterations.size(); ++i)
        at[i] = 0;
    }
    if (runsMemoBytes + ownRuns.size() > (size_t{1} << 24)) {
      runsMemo.clear();
      runsMemoBytes = 0;
    }
    runsMemoBytes += ownRuns.size();
    runs = &runsMemo.emplace(std::move(runsKey), std::move(ownRuns)).first->second;
  }
  std::vector<BlockLane> lanes;
  std::vector<size_t> cursor(plans.size(), 0);
  Binding b = base;
  for (int64_t step = 0;; ++step) {
    for (size_t i = 0; i < plans.size(); ++i)
      b.loopIter[plans[i].loop->loopId] = plans[i].iterations[cursor[i]];
    bool addressBound = address.bind(b);
    bool cornersDone = false;
    int64_t corner[4] = {0, 0, 0, 0};
    const char *stepRuns = runs->data() + static_cast<size_t>(step) * static_cast<size_t>(block.threads());
    for (int64_t tid = 0; tid < block.threads(); ++tid) {
      if (!stepRuns[tid])
        continue;
      bindThread(b, block, tid);
      std::optional<int64_t> addr;
      if (threadAffine && addressBound) {
        if (!cornersDone) {
          for (int d = 0; d <= 3 && addressBound; ++d) {
            int64_t t[3] = {0, 0, 0};
            if (d > 0)
              t[d - 1] = 1;
            auto v = address.at(t);
            addressBound = v.has_value();
            corner[d] = v.value_or(0);
          }
          cornersDone = true;
        }
        if (addressBound)
          addr = corner[0] + b.threadIdx[0] * (corner[1] - corner[0]) + b.threadIdx[1] * (corner[2] - corner[0]) +
                 b.threadIdx[2] * (corner[3] - corner[0]);
      } else if (addressBound) {
        addr = address.at(b.threadIdx);
      }
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
