#include "analyzer/facts/WarpExchanges.h"
#include "analyzer/results/WarpExchange.h"
#include "analyzer/warp/FlatExpr.h"
#include "analyzer/warp/WarpBindings.h"
#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace warplint {

namespace {

constexpr int64_t kMaxLaneSteps = int64_t(1) << 22; // thread-events run per block shape
constexpr size_t kMaxShapes = 4;
constexpr int64_t kMaxThreads = 1024;
constexpr int kMaxIterations = 64;

// Who stored a byte last.
struct Writer {
  int thread = -1;
  int access = -1;
  int64_t epoch = 0;     // barriers run before the store
  int64_t warpSyncs = 0; // __syncwarp() calls run before the store
};

// What one load saw over a run of one block shape.
struct ReadTally {
  int64_t exchanged = 0, own = 0, beforeBarrier = 0, unwritten = 0, crossWarp = 0;
  std::set<int> deltas;
  std::set<int> xorMasks;
  std::set<int> writers;
  bool allSyncwarp = true, allVolatile = true;
  int bestLanes = 0;
  uint32_t bestMask = 0;
  int bestWarp = -1;
  uint32_t outsideMask = 0; // of bestWarp (from outsideByWarp at the end)
  std::map<int, uint32_t> outsideByWarp; // every step, exchanged lanes or not
  uint32_t sourceMask = 0;  // of bestWarp: the lanes whose stores its lanes read
  std::set<int> warps;      // warps with exchanged lanes
};

struct PendingStore {
  std::string array;
  int64_t address = 0;
  int64_t width = 0;
  Writer writer;
};

class Runner {
public:
  // `arrays`: the arrays that may carry values between lanes; once every
  // one of them is tainted the run has nothing left to learn.
  Runner(ModeledKernel &k, const BlockShape &block, const EvaluationOptions &opts, const std::set<std::string> &arrays)
      : k_(k), block_(block), base_(blockBinding(block, opts)), arrays_(arrays) {
    warps_ = static_cast<int>((block.threads() + kWarpSize - 1) / kWarpSize);
    execCount_.assign(k.events.size(), std::vector<int64_t>(warps_, 0));
    for (size_t i = 0; i < k.accesses.size(); ++i) {
      const ModeledAccess &a = k.accesses[i];
      if (a.fact.space != AddressSpace::Shared)
        continue;
      compiled_.emplace(static_cast<int>(i), Compiled{});
      Compiled &c = compiled_[static_cast<int>(i)];
      // threadIdx as inputs: bound once per event, then each thread runs
      // only the instructions that read its threadIdx.
      if (a.fact.indexKnown)
        c.address = std::make_unique<FlatExpr>(*a.guarded.byteOffset, std::vector<int>{}, std::vector<int>{}, true);
      for (auto &g : a.guarded.guards)
        c.guards.emplace_back(*g, std::vector<int>{}, std::vector<int>{}, true);
    }
  }

  void run() {
    Binding b = base_;
    for (size_t i = 0; i < k_.loopRecurrences.size(); ++i)
      if (k_.loopRecurrences[i])
        b.loopIter[k_.loopRecurrences[i]->loopId] = 0;
    exec(0, k_.events.size(), 0, b);
    flush();
  }

  std::map<std::string, std::string> tainted; // array -> why
  bool allTainted = false;
  std::string allTaintedWhy;
  std::map<int, ReadTally> reads; // by access
  // (load, store) -> what the load read of the store's values.
  std::map<std::pair<int, int>, SharedValueFlow> flows;
  bool recordFlows = false; // only a kernel with a warp tail to rewrite needs them
  std::vector<std::vector<int64_t>> execCount_; // [event][warp]: warp-wide executions
  int warps_ = 0;

private:
  struct Compiled {
    std::unique_ptr<FlatExpr> address;
    std::vector<FlatExpr> guards;
  };

  void taint(const std::string &array, const std::string &why) {
    if (tainted.emplace(array, why).second && !recordFlows && arrays_.count(array))
      finished_ = ++taintedCandidates_ == arrays_.size();
  }
  void taintAll(const std::string &why) {
    if (!allTainted)
      allTaintedWhy = why;
    allTainted = true;
  }

  static std::string at(const SourceLocation &l) { return "line " + std::to_string(l.line); }

  // Runs events [from, to), all at loop depth `depth`.
  void exec(size_t from, size_t to, size_t depth, Binding &b) {
    size_t i = from;
    while (i < to && !allTainted && !finished_) {
      const ProgramEvent &ev = k_.events[i];
      if (ev.loops.size() <= depth) {
        step(i, b);
        ++i;
        continue;
      }
      int loop = ev.loops[depth];
      size_t j = i;
      while (j < to && k_.events[j].loops.size() > depth && k_.events[j].loops[depth] == loop)
        ++j;
      runLoop(loop, i, j, depth, b);
      i = j;
    }
  }

  void runLoop(int loop, size_t from, size_t to, size_t depth, Binding &b) {
    flush();
    const auto &rec = loop < static_cast<int>(k_.loopRecurrences.size()) ? k_.loopRecurrences[loop] : nullptr;
    auto taintInside = [&](const std::string &why) {
      for (size_t e = from; e < to; ++e)
        if (k_.events[e].kind == ProgramEvent::Kind::Access)
          taint(k_.accesses[k_.events[e].access].fact.base, why);
    };
    bool shared = false;
    for (size_t e = from; e < to && !shared; ++e)
      shared = k_.events[e].kind == ProgramEvent::Kind::Access &&
               k_.accesses[k_.events[e].access].fact.space == AddressSpace::Shared;
    if (!shared) {
      exec(from, to, depth + 1, b); // once: only its barriers matter
      return;
    }
    if (!rec || !rec->cond) {
      taintInside("the loop at " + at(k_.info.loops[loop].loc) + " has no counter the model can step");
      exec(from, to, depth + 1, b); // once, for its barriers
      return;
    }
    FlatExpr cond(*rec->cond, {});
    // Whether some thread runs iteration `it` (nullopt: a thread's condition
    // cannot be evaluated).
    auto anyRuns = [&](int64_t it) -> std::optional<bool> {
      b.loopIter[rec->loopId] = it;
      for (int64_t t = 0; t < block_.threads(); ++t) {
        bindThread(b, block_, t);
        auto c = cond.evaluate(b, nullptr);
        if (!c)
          return std::nullopt;
        if (*c != 0)
          return true;
      }
      return false;
    };
    std::string tooLong = "the loop at " + at(k_.info.loops[loop].loc) + " runs more than " +
                          std::to_string(kMaxIterations) + " iterations";
    // What anyRuns said of the first iterations (the body does not change
    // it: its loops put their own counters back), asked once.
    std::vector<std::optional<bool>> runsAt;
    if (!recordFlows) {
      // A loop that reaches the iteration limit taints every array it
      // touches: tainted first, their steps are not run (the other arrays'
      // still are, iteration by iteration, as their values need).
      bool reaches = true;
      for (int64_t it = 0; it < kMaxIterations && reaches; ++it) {
        runsAt.push_back(anyRuns(it));
        reaches = runsAt.back() && *runsAt.back();
      }
      if (reaches)
        taintInside(tooLong);
      if (finished_) {
        b.loopIter[rec->loopId] = 0;
        ++iterations_;
        return;
      }
    }
    for (int64_t it = 0;; ++it) {
      if (it >= kMaxIterations) {
        taintInside(tooLong);
        break;
      }
      ++iterations_;
      auto runs = it < static_cast<int64_t>(runsAt.size()) ? runsAt[it] : anyRuns(it);
      b.loopIter[rec->loopId] = it;
      bool any = runs && *runs, known = runs.has_value();
      if (!known) {
        taintInside("the loop at " + at(k_.info.loops[loop].loc) + " has a bound the model cannot evaluate");
        if (it == 0)
          exec(from, to, depth + 1, b);
        break;
      }
      if (!any || finished_)
        break;
      exec(from, to, depth + 1, b);
      flush(); // an iteration's stores are seen by the next
    }
    b.loopIter[rec->loopId] = 0;
    ++iterations_;
  }

  // Per loop: which threads run it at the loops' current iterations (its
  // condition not known false), for every thread at once, kept until a
  // loop's iteration changes (`iterations_`) instead of evaluated per
  // thread at every access inside it.
  struct LoopThreads {
    std::unique_ptr<FlatExpr> cond;
    int64_t iterations = -1; // iterations_ when `runs` was filled
    std::vector<char> runs;
  };

  const std::vector<char> &loopThreads(int l, const LoopRecurrence &rec, const Binding &b) {
    LoopThreads &lt = loopThreads_[l];
    if (lt.iterations == iterations_)
      return lt.runs;
    if (!lt.cond)
      lt.cond = std::make_unique<FlatExpr>(*rec.cond, std::vector<int>{}, std::vector<int>{}, true);
    lt.iterations = iterations_;
    lt.runs.assign(static_cast<size_t>(block_.threads()), 1);
    if (!lt.cond->bind(b)) // fails for every thread alike: no thread is known not to run
      return lt.runs;
    Binding t = b;
    for (int64_t i = 0; i < block_.threads(); ++i) {
      bindThread(t, block_, i);
      auto c = lt.cond->at(t.threadIdx);
      lt.runs[static_cast<size_t>(i)] = !(c && *c == 0);
    }
    return lt.runs;
  }

  // The threads that run the loops around event `e` at their current
  // iterations: `out` (one per thread) cleared where one does not.
  void inLoops(const ProgramEvent &e, const Binding &b, std::vector<char> &out) {
    out.assign(static_cast<size_t>(block_.threads()), 1);
    for (int l : e.loops) {
      const auto &rec = k_.loopRecurrences[l];
      if (!rec || !rec->cond)
        continue;
      const std::vector<char> &runs = loopThreads(l, *rec, b);
      for (size_t t = 0; t < out.size(); ++t)
        out[t] = out[t] && runs[t];
    }
  }

  void step(size_t index, Binding &b) {
    const ProgramEvent &ev = k_.events[index];
    if (ev.statement != statement_)
      flush();
    statement_ = ev.statement;
    switch (ev.kind) {
    case ProgramEvent::Kind::Barrier:
      flush();
      ++epoch_;
      for (auto &c : execCount_[index])
        ++c;
      return;
    case ProgramEvent::Kind::WarpSync:
      flush();
      ++warpSyncs_;
      for (auto &c : execCount_[index])
        ++c;
      return;
    case ProgramEvent::Kind::Opaque:
      taintAll("a call at " + at(ev.loc) + " to device code the model did not follow");
      return;
    case ProgramEvent::Kind::Access:
      break;
    }
    const ModeledAccess &a = k_.accesses[ev.access];
    if (a.fact.space != AddressSpace::Shared)
      return;
    const std::string &array = a.fact.base;
    auto &c = compiled_.at(ev.access);
    if (a.atomic)
      taint(array, "an atomic at " + at(a.fact.loc));
    if (a.unknownGuard)
      taint(array, "a condition the model cannot evaluate around the access at " + at(a.fact.loc));
    if (!c.address) {
      taint(array, "an index the model cannot evaluate at " + at(a.fact.loc));
      return;
    }
    // A tainted array's loads are never exchanges: its steps are not run
    // (they would only spend the thread-step budget). With a warp tail to
    // rewrite they still are, for the value flows that rewrite checks.
    if (!recordFlows && tainted.count(array))
      return;
    std::vector<uint32_t> exchangedLanes(warps_, 0), outsideLanes(warps_, 0), sourceLanes(warps_, 0);
    bool ran = false;
    inLoops(ev, b, runsLoops_);
    // Bound once for the event (the loops' iterations); each thread then
    // gives only its threadIdx. A bind that fails, fails for every thread.
    guardBound_.clear();
    for (auto &g : c.guards)
      guardBound_.push_back(g.bind(b));
    bool addressBound = c.address->bind(b);
    ReadTally *tally = nullptr;
    std::unordered_map<int64_t, Writer> *shadow = nullptr;
    for (int64_t t = 0; t < block_.threads(); ++t) {
      if (!runsLoops_[static_cast<size_t>(t)])
        continue;
      bindThread(b, block_, t);
      bool active = true;
      for (size_t g = 0; g < c.guards.size(); ++g) {
        auto v = guardBound_[g] ? c.guards[g].at(b.threadIdx) : std::nullopt;
        if (v && *v == 0) {
          active = false;
          break;
        }
      }
      if (!active)
        continue;
      if (++laneSteps_ > kMaxLaneSteps) {
        taintAll("more than " + std::to_string(kMaxLaneSteps) + " thread-steps to run");
        return;
      }
      auto addr = addressBound ? c.address->at(b.threadIdx) : std::nullopt;
      if (!addr) {
        taint(array, "an index the model cannot evaluate at " + at(a.fact.loc));
        return;
      }
      if (a.guarded.extentBytes > 0 && (*addr < 0 || *addr + a.guarded.widthBytes > a.guarded.extentBytes))
        continue; // not a real execution (an assumed value was wrong for it)
      ran = true;
      int warp = static_cast<int>(t / kWarpSize), lane = static_cast<int>(t % kWarpSize);
      if (a.fact.isRead)
        readBytes(ev.access, a, array, tally, shadow, static_cast<int>(t), *addr, exchangedLanes[warp], outsideLanes[warp],
                  sourceLanes[warp]);
      if (a.fact.isWrite)
        pending_.push_back({array, *addr, a.guarded.widthBytes,
                            Writer{static_cast<int>(t), ev.access, epoch_, warpSyncs_}});
      if (!counted_[warp]) {
        counted_[warp] = true;
        ++execCount_[index][warp];
      }
      (void)lane;
    }
    std::fill(counted_.begin(), counted_.end(), false);
    if (!ran || !a.fact.isRead)
      return;
    auto it = reads.find(ev.access);
    if (it == reads.end())
      return;
    ReadTally &r = it->second;
    for (int w = 0; w < warps_; ++w) {
      if (outsideLanes[w])
        r.outsideByWarp[w] |= outsideLanes[w];
      int n = __builtin_popcount(exchangedLanes[w]);
      if (n == 0)
        continue;
      r.warps.insert(w);
      if (n > r.bestLanes) {
        r.bestLanes = n;
        r.bestMask = exchangedLanes[w];
        r.bestWarp = w;
      }
      if (w == r.bestWarp)
        r.sourceMask |= sourceLanes[w];
    }
  }

  // `tally` and `shadow`: the access's tally and the array's shadow, looked
  // up at the first thread that reads (null until then).
  void readBytes(int access, const ModeledAccess &a, const std::string &array, ReadTally *&tally,
                 std::unordered_map<int64_t, Writer> *&shadowOf, int thread, int64_t addr,
                 uint32_t &exchangedLanes, uint32_t &outsideLanes, uint32_t &sourceLanes) {
    if (!tally)
      tally = &reads[access];
    if (!shadowOf)
      shadowOf = &shadow_[array];
    ReadTally &r = *tally;
    auto &shadow = *shadowOf;
    int lane = thread % kWarpSize, warp = thread / kWarpSize;
    // The bytes read may come from several stores: the worst class counts.
    enum Class { Own, Exchanged, Before, Unwritten, Cross } worst = Own;
    const Writer *from = nullptr;
    const Writer *lastFlow = nullptr;
    for (int64_t byte = addr; byte < addr + a.guarded.widthBytes; ++byte) {
      auto w = shadow.find(byte);
      if (recordFlows && w != shadow.end() && (!lastFlow || lastFlow->access != w->second.access ||
                                lastFlow->thread != w->second.thread)) {
        lastFlow = &w->second;
        SharedValueFlow &f = flows[{access, w->second.access}];
        f.load = static_cast<size_t>(access);
        f.store = static_cast<size_t>(w->second.access);
        if (w->second.thread != thread) {
          f.otherThread = true;
          if (w->second.epoch == epoch_ && w->second.warpSyncs == warpSyncs_)
            f.unordered = true;
        }
        if (w->second.thread != 0)
          f.storedByThreadZero = false;
      }
      Class c;
      if (w == shadow.end())
        c = Unwritten;
      else if (w->second.epoch != epoch_)
        c = Before;
      else if (w->second.thread == thread)
        c = Own;
      else if (w->second.thread / kWarpSize != warp)
        c = Cross;
      else
        c = Exchanged;
      auto rank = [](Class x) { return x == Own ? 0 : x == Exchanged ? 1 : x == Before ? 2 : x == Unwritten ? 3 : 4; };
      if (rank(c) >= rank(worst)) {
        worst = c;
        if (w != shadow.end())
          from = &w->second;
      }
    }
    switch (worst) {
    case Own: ++r.own; break;
    case Before: ++r.beforeBarrier; outsideLanes |= 1u << lane; break;
    case Unwritten: ++r.unwritten; outsideLanes |= 1u << lane; break;
    case Cross: ++r.crossWarp; break;
    case Exchanged: {
      ++r.exchanged;
      exchangedLanes |= 1u << lane;
      int src = from->thread % kWarpSize;
      sourceLanes |= 1u << src;
      r.deltas.insert(src - lane);
      r.xorMasks.insert(src ^ lane);
      r.writers.insert(from->access);
      if (from->warpSyncs == warpSyncs_)
        r.allSyncwarp = false;
      if (!a.isVolatile || !k_.accesses[from->access].isVolatile)
        r.allVolatile = false;
      break;
    }
    }
  }

  void flush() {
    for (const PendingStore &p : pending_) {
      auto &shadow = shadow_[p.array];
      for (int64_t byte = p.address; byte < p.address + p.width; ++byte)
        shadow[byte] = p.writer;
    }
    pending_.clear();
  }

  ModeledKernel &k_;
  BlockShape block_;
  Binding base_;
  std::unordered_map<int, Compiled> compiled_;
  std::unordered_map<std::string, std::unordered_map<int64_t, Writer>> shadow_;
  std::vector<PendingStore> pending_;
  std::vector<bool> counted_ = std::vector<bool>(kMaxThreads / kWarpSize + 1, false);
  int statement_ = -1;
  int64_t epoch_ = 0, warpSyncs_ = 0, laneSteps_ = 0;
  const std::set<std::string> &arrays_;
  size_t taintedCandidates_ = 0;
  bool finished_ = false; // every candidate array tainted (without flows to record)
  int64_t iterations_ = 0; // bumped whenever a loop's iteration in the binding changes
  std::unordered_map<int, LoopThreads> loopThreads_;
  std::vector<char> runsLoops_, guardBound_;
};

// A load that reads other lanes' values of its own warp and nothing another
// warp stored since the last barrier.
bool isExchange(const ReadTally &r) { return r.exchanged > 0 && r.crossWarp == 0; }

} // namespace

void describeWarpExchanges(ModeledKernel &k, const EvaluationOptions &opts) {
  auto facts = std::make_shared<WarpExchangeFacts>();
  if (k.info.warpExchanges) // the tails the AST showed (analyzer/facts/WarpTails.cpp)
    facts->tails = std::move(k.info.warpExchanges->tails);
  k.info.warpExchanges = facts;
  // Only arrays both stored and loaded can carry values between lanes.
  std::set<std::string> stored, loaded;
  bool genericWrite = false;
  for (const ModeledAccess &a : k.accesses) {
    if (a.fact.space == AddressSpace::Shared) {
      (a.fact.isWrite ? stored : loaded).insert(a.fact.base);
      if (a.fact.isRead)
        loaded.insert(a.fact.base);
    }
    genericWrite = genericWrite || (a.fact.space == AddressSpace::Generic && a.fact.isWrite);
  }
  std::set<std::string> arrays;
  for (const std::string &s : stored)
    if (loaded.count(s))
      arrays.insert(s);
  if (arrays.empty() || k.info.blockShapes.empty())
    return;
  if (genericWrite) {
    for (const std::string &s : arrays)
      facts->gaps.push_back("'" + s + "': the kernel stores through a pointer whose memory the model cannot trace");
    return;
  }
  std::map<std::string, std::string> why; // array -> first gap
  for (const ArrayInfo &ai : k.info.arrays)
    for (const std::string &e : ai.layoutEscapes)
      if (arrays.count(ai.name) && (e.find("async copy") != std::string::npos ||
                                    e.find("bound to a reference") != std::string::npos))
        why.emplace(ai.name, e);

  // Per access: whether it was an exchange load under every shape it ran in.
  std::map<int, std::vector<ReadTally>> perShape;
  std::vector<BlockShape> shapes;
  std::vector<std::vector<std::vector<int64_t>>> counts;
  std::vector<int> warpsPerShape;
  for (const BlockShape &shape : k.info.blockShapes) {
    if (shapes.size() >= kMaxShapes)
      break;
    if (shape.threads() <= 0 || shape.threads() > kMaxThreads)
      continue;
    // Every array already has a gap from an earlier shape: nothing left to learn.
    if (facts->tails.empty() &&
        std::all_of(arrays.begin(), arrays.end(), [&](const std::string &s) { return why.count(s) != 0; }))
      break;
    Runner r(k, shape, opts, arrays);
    r.recordFlows = !facts->tails.empty();
    r.run();
    for (auto &[access, tally] : r.reads)
      if (auto it = tally.outsideByWarp.find(tally.bestWarp); it != tally.outsideByWarp.end())
        tally.outsideMask = it->second;
    if (r.allTainted) {
      for (const std::string &s : arrays)
        why.emplace(s, r.allTaintedWhy);
      break;
    }
    for (auto &[array, reason] : r.tainted)
      why.emplace(array, reason + " (block " + shape.str() + ")");
    for (auto &[access, tally] : r.reads)
      perShape[access].push_back(tally);
    for (const auto &[key, flow] : r.flows) {
      auto it = std::find_if(facts->flows.begin(), facts->flows.end(), [&](const SharedValueFlow &f) {
        return f.load == flow.load && f.store == flow.store;
      });
      if (it == facts->flows.end()) {
        facts->flows.push_back(flow);
        continue;
      }
      it->otherThread = it->otherThread || flow.otherThread;
      it->unordered = it->unordered || flow.unordered;
      it->storedByThreadZero = it->storedByThreadZero && flow.storedByThreadZero;
    }
    shapes.push_back(shape);
    counts.push_back(std::move(r.execCount_));
    warpsPerShape.push_back(r.warps_);
  }
  for (auto &[array, reason] : why)
    if (arrays.count(array))
      facts->gaps.push_back("'" + array + "': " + reason);
  if (shapes.empty())
    return;

  // Exchange loads, in program order; one exchange per array per run of
  // them with no barrier between.
  WarpExchange *open = nullptr;
  int lastEvent = -1;
  std::vector<std::pair<int, int>> spans; // first store event, last load event per exchange
  for (size_t e = 0; e < k.events.size(); ++e) {
    const ProgramEvent &ev = k.events[e];
    if (ev.kind == ProgramEvent::Kind::Barrier) {
      open = nullptr;
      continue;
    }
    if (ev.kind != ProgramEvent::Kind::Access)
      continue;
    const ModeledAccess &a = k.accesses[ev.access];
    auto it = perShape.find(ev.access);
    if (it == perShape.end() || why.count(a.fact.base) || !a.fact.isRead)
      continue;
    const std::vector<ReadTally> &tallies = it->second;
    // Every shape it ran in: an exchange (shapes where no lane ran it do not count against it).
    bool every = tallies.size() == shapes.size() &&
                 std::all_of(tallies.begin(), tallies.end(), [](const ReadTally &r) { return isExchange(r); });
    if (!every)
      continue;
    if (!open || open->array != a.fact.base) {
      facts->exchanges.push_back({});
      open = &facts->exchanges.back();
      open->array = a.fact.base;
      for (const ArrayInfo &ai : k.info.arrays)
        if (ai.name == a.fact.base)
          open->arrayLoc = ai.loc;
      open->shapes = shapes;
      spans.push_back({static_cast<int>(k.events.size()), -1});
    }
    const ReadTally &t = tallies.front();
    WarpExchangeRead r;
    r.access = static_cast<size_t>(ev.access);
    r.writers.assign(t.writers.begin(), t.writers.end());
    std::sort(r.writers.begin(), r.writers.end());
    bool syncwarp = true, isVolatile = true;
    for (const ReadTally &x : tallies) {
      syncwarp = syncwarp && x.allSyncwarp;
      isVolatile = isVolatile && x.allVolatile;
    }
    r.sync = syncwarp ? "__syncwarp" : isVolatile ? "volatile" : "none";
    r.exchangeLanes = t.bestLanes;
    r.exchangeMask = t.bestMask;
    r.laneDeltas.assign(t.deltas.begin(), t.deltas.end());
    r.xorMask = t.xorMasks.size() == 1 ? *t.xorMasks.begin() : -1;
    r.exchanged = t.exchanged;
    r.own = t.own;
    r.beforeBarrier = t.beforeBarrier;
    r.unwritten = t.unwritten;
    r.outsideMask = t.outsideMask;
    r.sourceMask = t.sourceMask;
    open->reads.push_back(r);
    for (const ReadTally &x : tallies)
      for (int w : x.warps)
        if (&x == &tallies.front() && std::find(open->warps.begin(), open->warps.end(), w) == open->warps.end())
          open->warps.push_back(w);
    std::sort(open->warps.begin(), open->warps.end());
    // The span: from the earliest store read to this load.
    for (size_t s = 0; s < k.events.size(); ++s)
      if (k.events[s].kind == ProgramEvent::Kind::Access &&
          std::find(r.writers.begin(), r.writers.end(), static_cast<size_t>(k.events[s].access)) != r.writers.end()) {
        spans.back().first = std::min(spans.back().first, static_cast<int>(s));
        break;
      }
    spans.back().second = static_cast<int>(e);
    lastEvent = static_cast<int>(e);
  }
  (void)lastEvent;

  // What a warp runs over each span (first shape): the busiest warp's
  // instructions on the array and its __syncwarp calls.
  for (size_t x = 0; x < facts->exchanges.size(); ++x) {
    WarpExchange &ex = facts->exchanges[x];
    auto [first, last] = spans[x];
    if (first > last)
      first = last;
    // The rest of the loop around the last load runs with it (a scan step's
    // store after its load).
    if (!k.events[last].loops.empty()) {
      int loop = k.events[last].loops.back();
      while (last + 1 < static_cast<int>(k.events.size()) &&
             std::find(k.events[last + 1].loops.begin(), k.events[last + 1].loops.end(), loop) !=
                 k.events[last + 1].loops.end())
        ++last;
    }
    for (int s = first; s <= last; ++s)
      if (k.events[s].kind == ProgramEvent::Kind::Access && k.accesses[k.events[s].access].fact.base == ex.array) {
        ex.firstStore = static_cast<size_t>(k.events[s].access);
        break;
      }
    ex.totalWarps = warpsPerShape.front();
    int64_t best = -1;
    for (int w = 0; w < warpsPerShape.front(); ++w) {
      int64_t stores = 0, loads = 0, syncs = 0;
      for (int s = first; s <= last; ++s) {
        const ProgramEvent &ev = k.events[s];
        int64_t n = counts.front()[s][w];
        if (ev.kind == ProgramEvent::Kind::WarpSync)
          syncs += n;
        else if (ev.kind == ProgramEvent::Kind::Access && k.accesses[ev.access].fact.base == ex.array) {
          if (k.accesses[ev.access].fact.isWrite)
            stores += n;
          if (k.accesses[ev.access].fact.isRead)
            loads += n;
        }
      }
      if (stores + loads > best) {
        best = stores + loads;
        ex.warpStores = stores;
        ex.warpLoads = loads;
        ex.warpSyncs = syncs;
      }
    }
    // Lanes of the first warp that take part: those that read another
    // lane's value, and the lanes those values came from.
    for (const WarpExchangeRead &r : ex.reads)
      ex.laneMask |= r.exchangeMask | r.sourceMask;
  }
}

} // namespace warplint
