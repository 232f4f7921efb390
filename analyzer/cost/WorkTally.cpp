#include "analyzer/cost/WorkTally.h"
#include "analyzer/cost/EnumeratedWork.h"
#include "analyzer/warp/WarpBindings.h"
#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

namespace warplint {

std::optional<double> loopTripCount(const LoopRecurrence &rec, const Binding &base, int64_t maxStepped,
                                    bool &capped) {
  capped = false;
  if (!rec.cond)
    return std::nullopt;
  Binding b = base;
  auto holds = [&](int64_t k) -> std::optional<bool> {
    b.loopIter[rec.loopId] = k;
    auto c = evaluate(*rec.cond, b);
    if (!c)
      return std::nullopt;
    return *c != 0;
  };
  for (int64_t k = 0; k < maxStepped; ++k) {
    auto h = holds(k);
    if (!h)
      return std::nullopt;
    if (!*h)
      return static_cast<double>(k);
  }
  // An arithmetic counter past the stepped iterations: the first iteration
  // whose condition fails, by bisection (the condition of a counted loop
  // changes once).
  if (rec.stepOp != ExprOp::Add && rec.stepOp != ExprOp::Sub) {
    capped = true;
    return static_cast<double>(maxStepped);
  }
  int64_t lo = maxStepped - 1, hi = maxStepped;
  while (true) {
    auto h = holds(hi);
    if (!h)
      return std::nullopt;
    if (!*h)
      break;
    lo = hi;
    if (hi > (int64_t(1) << 40)) {
      capped = true;
      return static_cast<double>(hi);
    }
    hi *= 2;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    auto h = holds(mid);
    if (!h)
      return std::nullopt;
    (*h ? lo : hi) = mid;
  }
  return static_cast<double>(hi);
}

namespace {

std::string loopName(const LoopInfo &l) {
  std::string s = "the loop at line " + std::to_string(l.loc.line);
  if (!l.inductionVar.empty())
    s += " (" + l.inductionVar + ")";
  return s;
}

// The part of a loop condition the analyzer can evaluate when the rest reads
// data: `j >= 0` of `j >= 0 && win[j] > v` (an upper bound on the trips).
ExprRef countedConjunct(const ExprRef &cond) {
  if (!cond || cond->isKnown())
    return nullptr;
  if (cond->op != ExprOp::LAnd || cond->operands.size() != 2)
    return nullptr;
  for (const ExprRef &side : cond->operands)
    if (side->isKnown())
      return side;
  for (const ExprRef &side : cond->operands)
    if (ExprRef inner = countedConjunct(side))
      return inner;
  return nullptr;
}

// The trip count of `rec` averaged over the iterations of the other loops
// its bounds read (a triangular `for (j = 0; j < i; ...)`), those at most
// `maxCombos` combinations; `dependsOn` their trip counts.
std::optional<double> averageTrips(const LoopRecurrence &rec, Binding b, const ModeledKernel &k,
                                   const std::vector<std::optional<double>> &trips, int64_t maxStepped,
                                   bool &capped) {
  std::vector<std::shared_ptr<const LoopRecurrence>> reads;
  for (const ExprRef &e : {rec.cond, rec.init, rec.step})
    if (e)
      e->collectLoops(reads);
  std::vector<std::pair<int, int64_t>> outer; // loop id, its trips
  for (auto &r : reads) {
    if (r->loopId == rec.loopId)
      continue;
    auto at = std::find_if(k.loopRecurrences.begin(), k.loopRecurrences.end(),
                           [&](auto &x) { return x && x->loopId == r->loopId; });
    size_t idx = static_cast<size_t>(at - k.loopRecurrences.begin());
    if (at == k.loopRecurrences.end() || idx >= trips.size() || !trips[idx] || *trips[idx] < 1)
      continue;
    if (std::none_of(outer.begin(), outer.end(), [&](auto &o) { return o.first == r->loopId; }))
      outer.push_back({r->loopId, static_cast<int64_t>(*trips[idx])});
  }
  if (outer.empty())
    return loopTripCount(rec, b, maxStepped, capped);
  // Sample each outer loop's iterations evenly, at most 16 of each.
  std::vector<std::vector<int64_t>> samples;
  for (auto &[id, n] : outer) {
    std::vector<int64_t> ks;
    int64_t step = std::max<int64_t>(1, n / 16);
    for (int64_t k2 = 0; k2 < n; k2 += step)
      ks.push_back(k2);
    samples.push_back(ks);
  }
  double sum = 0;
  int counted = 0;
  std::vector<size_t> cursor(outer.size(), 0);
  for (int combos = 0; combos < 256; ++combos) {
    for (size_t i = 0; i < outer.size(); ++i)
      b.loopIter[outer[i].first] = samples[i][cursor[i]];
    bool c = false;
    if (auto t = loopTripCount(rec, b, maxStepped, c)) {
      sum += *t;
      ++counted;
      capped = capped || c;
    }
    size_t i = 0;
    for (; i < outer.size(); ++i) {
      if (++cursor[i] < samples[i].size())
        break;
      cursor[i] = 0;
    }
    if (i == outer.size())
      break;
  }
  if (!counted)
    return std::nullopt;
  return sum / counted;
}

// Every loop's trip count at the stated values, thread 0 of block 0, averaged
// over the outer loops its bounds read (loops are listed outermost first, so
// those are counted before it).
std::vector<std::optional<double>> loopTrips(const ModeledKernel &k, const Binding &base, const TallyOptions &opts,
                                             std::vector<std::string> &assumptions) {
  std::vector<std::optional<double>> trips(k.info.loops.size());
  Binding b = base;
  for (auto &rec : k.loopRecurrences)
    if (rec)
      b.loopIter[rec->loopId] = 0;
  for (size_t i = 0; i < k.info.loops.size(); ++i) {
    const LoopInfo &li = k.info.loops[i];
    const auto &rec = i < k.loopRecurrences.size() ? k.loopRecurrences[i] : nullptr;
    bool capped = false;
    if (li.tripCount)
      trips[i] = static_cast<double>(*li.tripCount);
    else if (rec)
      trips[i] = averageTrips(*rec, b, k, trips, opts.maxSteppedIterations, capped);
    if (!trips[i] && rec) {
      // A condition partly on data: at most what its counted part allows;
      // half of that is taken (data that stops it halfway on average).
      if (ExprRef counted = countedConjunct(rec->cond)) {
        LoopRecurrence bound = *rec;
        bound.cond = counted;
        if (auto most = averageTrips(bound, b, k, trips, opts.maxSteppedIterations, capped)) {
          trips[i] = *most / 2;
          assumptions.push_back(loopName(li) + " stops on data ('" + li.bound + "'): at most " +
                                std::to_string(int64_t(std::lround(*most))) + " iterations, taken as half");
          continue;
        }
      }
    }
    // A break or return on data (`if (state < 0) break;`): the count is
    // at most the bound; half of it is taken, as for a condition partly on
    // data above (the exit is the same fact written as a statement).
    const ModeledKernel::LoopDataExit *exit = nullptr;
    for (const auto &e : k.loopDataExits)
      if (e.loop == static_cast<int>(i)) {
        exit = &e;
        break;
      }
    if (exit && trips[i] && *trips[i] > 1) {
      double most = *trips[i];
      trips[i] = most / 2;
      assumptions.push_back(loopName(li) + " stops on data ('" + exit->condition + "': " + exit->kind + " at line " +
                            std::to_string(exit->loc.line) + "): at most " +
                            std::to_string(int64_t(std::lround(most))) + " iterations" +
                            (capped ? " (its count was cut there)" : "") + ", taken as half");
      continue;
    }
    if (li.tripCount)
      continue;
    if (!trips[i])
      assumptions.push_back(loopName(li) + " runs a number of times the analyzer cannot count (" +
                            (li.bound.empty() ? std::string("no condition") : "'" + li.bound + "'") +
                            "); taken as one iteration");
    else if (capped)
      assumptions.push_back(loopName(li) + " counted as " + std::to_string(int64_t(*trips[i])) +
                            " iterations (its count was cut there)");
  }
  return trips;
}

// An access the evaluator cannot place: executions from the loops alone, its
// traffic as if the warp's lanes were contiguous (stated).
void countUnplaced(const ModeledAccess &a, const BlockShape &block, AccessWork &w, const std::string &why) {
  double warps = std::ceil(block.threads() / double(kWarpSize));
  w.warpExecutions = warps * w.multiplier;
  w.laneExecutions = double(block.threads()) * w.multiplier;
  int64_t width = std::max<int64_t>(1, a.fact.widthBytes);
  if (a.fact.space == AddressSpace::Shared) {
    double wf = std::max<double>(1, std::ceil(width * kWarpSize / 128.0));
    w.wavefronts = w.idealWavefronts = wf * w.warpExecutions;
  } else if (a.fact.space == AddressSpace::Constant) {
    w.constantAddresses = w.warpExecutions;
  } else {
    double sectors = std::max<double>(1, std::ceil(width * kWarpSize / double(kSectorBytes)));
    w.sectors = w.idealSectors = sectors * w.warpExecutions;
    w.lines = std::ceil(sectors / 4) * w.warpExecutions;
    w.distinctSectors = w.sectors;
  }
  w.notCounted = why;
}

// Wavefronts a warp request of 32 lanes takes when each lane picks one of
// `elements` elements of `widthBytes` (at most 4) independently and
// uniformly: the busiest of the 32 banks' distinct words, averaged over a
// fixed pseudo-random sample (deterministic; 4096 requests). Lanes on one
// word share it, loads and atomics alike: on cuda-samples histogram256
// (random bytes into 256 bins a warp) ncu counts 3.15 wavefronts an
// atomicAdd request, and the expectation for 256 words is 3.155 (50,000
// random requests; this sample gives 3.14), 3.53 if lanes on one word were
// serialized.
double randomIndexWavefronts(int64_t elements, int64_t widthBytes) {
  elements = std::max<int64_t>(1, elements);
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] { // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (state * 0x2545F4914F6CDD1Dull) >> 11;
  };
  const int trials = 4096;
  double sum = 0;
  for (int t = 0; t < trials; ++t) {
    std::set<int64_t> lanesWords;
    for (int l = 0; l < kWarpSize; ++l)
      lanesWords.insert(int64_t(next() % uint64_t(elements)) * widthBytes / 4);
    int perBank[32] = {0};
    int busiest = 0;
    for (int64_t word : lanesWords)
      busiest = std::max(busiest, ++perBank[word % 32]);
    sum += busiest;
  }
  return sum / trials;
}

// Whether an index reads a value loaded from memory (a lookup: `t[in[k]]`).
bool readsLoadedValue(const IndexExpr &e) {
  if (e.op == ExprOp::Unknown)
    return e.unknownReason.find("loaded from memory") != std::string::npos;
  return std::any_of(e.operands.begin(), e.operands.end(), [](const ExprRef &o) { return readsLoadedValue(*o); });
}

// A global access at an index built from loaded data that does not step
// with the counter of a loop around it (`trans[state * 256 + in[k]]` in a
// loop over k): the loop's iterations look the same table up again, so they
// add requests but not new sectors; its distinct sectors are one
// iteration's of each such loop (an index that steps with a counter,
// `val[start + k]`, streams and keeps them). Without it every lookup was a
// new DRAM sector.
void countRevisits(const ModeledAccess &a, const ModeledKernel &k, KernelWork &work, AccessWork &w) {
  std::vector<std::shared_ptr<const LoopRecurrence>> stepped;
  a.guarded.byteOffset->collectLoops(stepped);
  std::set<int> steppedIds;
  for (auto &l : stepped)
    steppedIds.insert(l->loopId);
  double revisits = 1;
  std::string lines;
  for (int loop : a.enclosingLoops) {
    const auto &rec = static_cast<size_t>(loop) < k.loopRecurrences.size() ? k.loopRecurrences[loop] : nullptr;
    if (rec && steppedIds.count(rec->loopId))
      continue;
    double t = tripsOf(work.loopTrips, loop);
    if (t <= 1)
      continue;
    revisits *= t;
    lines += (lines.empty() ? "" : ", ") + std::to_string(k.info.loops[static_cast<size_t>(loop)].loc.line);
  }
  if (revisits <= 1)
    return;
  w.distinctSectors /= revisits;
  w.multiplierNotes.push_back("an index from data, not stepping with the loop(s) at line " + lines +
                              ": distinct sectors of one iteration (a table revisited)");
  std::string said = "'" + a.fact.text + "' is indexed by data that does not step with the loop(s) at line " + lines +
                     ": the iterations revisit its table, so its distinct sectors are one iteration's";
  if (std::find(work.assumptions.begin(), work.assumptions.end(), said) == work.assumptions.end())
    work.assumptions.push_back(said);
}

// An access behind a guard that compares the thread's place with bounds
// from scalar parameters (`if (i > x4 - 1 || ...) return;` with
// i = x3 + blockIdx.z * blockDim.z + threadIdx.z) may run in no thread of
// block 0 at the stated values, where every parameter takes one value
// (x3 = x4): the launch's sizes, which the analyzer does not know, run it in
// most blocks (hb-minimod's stencil: its 25 shared reads a thread were
// counted as never running, ncu counts 1,002 shared wavefronts a block, the
// tally 192). The access without those guards: every thread of the block
// passes them. Null when it has none (a guard on parameters alone, `if (n <
// 32)`, is a branch of the whole block and stays).
std::optional<ModeledAccess> withoutParameterRangeGuards(const ModeledAccess &a) {
  ModeledAccess r = a;
  std::vector<ExprRef> &g = r.guarded.guards;
  size_t before = g.size();
  g.erase(std::remove_if(g.begin(), g.end(),
                         [](const ExprRef &e) {
                           return e->dependsOn(SymbolKind::Param) &&
                                  (e->dependsOn(SymbolKind::ThreadIdx) || e->dependsOn(SymbolKind::BlockIdx));
                         }),
          g.end());
  if (g.size() == before)
    return std::nullopt;
  return r;
}

} // namespace

KernelWork tallyKernelWork(const ModeledKernel &k, const EvaluationOptions &eo, const TallyOptions &opts) {
  KernelWork work;
  if (k.info.blockShapes.empty()) {
    work.notComputed = "no block shape";
    return work;
  }
  const BlockShape block = k.info.blockShapes.front();
  work.block = block;
  if (eo.grid) {
    work.gridBlocks = eo.grid->threads();
    work.grid = eo.grid;
    work.gridSource = "the launch's grid " + eo.grid->str();
  }
  Binding base = blockBinding(block, eo);
  work.loopTrips = loopTrips(k, base, opts, work.assumptions);
  bool scalarParams = std::any_of(k.info.params.begin(), k.info.params.end(),
                                  [](const ParamInfo &p) { return !p.isPointer; });
  if (scalarParams)
    work.assumptions.push_back("scalar parameters taken as " + std::to_string(eo.symbolicValue) +
                               ": times are for that size; the ratios are computed at it");
  work.barriers = k.barriers;
  for (const ArrayInfo &arr : k.info.arrays)
    if (arr.space == AddressSpace::Shared && !arr.isExtern) {
      int64_t n = arr.elementSize;
      for (int64_t d : arr.dims)
        n *= d;
      work.staticSharedBytes += n;
    }

  double warps = std::ceil(block.threads() / double(kWarpSize));
  // Without a known grid the cost model assumes a one-dimensional one.
  BlockShape sharingGrid = eo.grid.value_or(BlockShape{2, 1, 1});
  std::map<std::string, ArraySectors> arraySectors;
  // Accesses written alike are counted once (EnumeratedCounts).
  EnumeratedCounts counts(k, block, eo, work.loopTrips, opts);
  for (size_t i = 0; i < k.accesses.size(); ++i) {
    const ModeledAccess &a = k.accesses[i];
    AccessWork w;
    w.access = i;
    w.widthBytes = a.fact.widthBytes;
    w.loops = a.enclosingLoops;
    w.region = a.region;
    const MemoryAccess &f = a.fact;
    if (f.space == AddressSpace::Generic) {
      // Memory the analyzer could not trace (a pointer moved by `p += ...`,
      // passed through helpers): priced as contiguous global traffic, so that
      // the kernel's memory time is not left out.
      for (int loop : a.enclosingLoops)
        w.multiplier *= tripsOf(work.loopTrips, loop);
      countUnplaced(a, block, w, "memory the analyzer could not trace: counted as every warp, contiguous global");
    } else if (f.space == AddressSpace::Constant && a.foldedConstant) {
      // A constexpr or const value the compiler folds: no memory access.
      w.notCounted = "a compile-time constant";
    } else if (f.space == AddressSpace::Local) {
      // A private array element: each thread's own copy, interleaved by the
      // compiler so that a warp's access of one element is contiguous.
      for (int loop : a.enclosingLoops)
        w.multiplier *= tripsOf(work.loopTrips, loop);
      countUnplaced(a, block, w, "");
      w.counted = true;
    } else {
      SectorSet own;
      bool global = f.space == AddressSpace::Global;
      bool placed = f.indexKnown && counts.count(a, w, global ? &own : nullptr);
      const ModeledAccess *walked = &a;
      std::optional<ModeledAccess> relaxed;
      if (placed && w.warpExecutions <= 0 && (relaxed = withoutParameterRangeGuards(a))) {
        AccessWork r;
        r.access = w.access;
        r.widthBytes = w.widthBytes;
        r.loops = w.loops;
        r.region = w.region;
        SectorSet relaxedOwn;
        if (countEnumerated(*relaxed, block, eo, work.loopTrips, k, opts, r, global ? &relaxedOwn : nullptr) &&
            r.warpExecutions > 0) {
          r.multiplierNotes.push_back("no thread of block 0 passes its guard on the scalar parameters at the stated "
                                      "values: counted as every thread passing it");
          w = std::move(r);
          own = std::move(relaxedOwn);
          walked = &*relaxed;
          std::string said = "accesses behind a guard of the thread's place against scalar parameters that no "
                             "thread of block 0 passes at the stated values (each parameter " +
                             std::to_string(eo.symbolicValue) +
                             ") are counted as every thread passing it: the launch's sizes decide, and run them in "
                             "most blocks";
          if (std::find(work.assumptions.begin(), work.assumptions.end(), said) == work.assumptions.end())
            work.assumptions.push_back(said);
        }
      }
      if (global) {
        if (placed)
          addNeighbourSectors(*walked, block, eo, sharingGrid, opts, own, arraySectors[f.base]);
        else
          arraySectors[f.base].complete = false;
      }
      if (placed) {
        w.counted = true;
      } else if (f.space == AddressSpace::Constant && a.guarded.extentBytes > 0 && f.widthBytes > 0) {
        // A table read at data-dependent indices: the lanes' indices taken
        // as independent and uniform over its elements, the expected number
        // of distinct addresses a warp.
        w.multiplier = 1;
        for (int loop : a.enclosingLoops)
          w.multiplier *= tripsOf(work.loopTrips, loop);
        countUnplaced(a, block, w, "");
        double n = std::max(1.0, double(a.guarded.extentBytes / f.widthBytes));
        double distinct = n * (1 - std::pow(1 - 1 / n, kWarpSize));
        w.constantAddresses = w.warpExecutions * distinct;
        w.counted = true;
        w.multiplierNotes.push_back("indices from data: " + std::to_string(int(std::lround(distinct))) +
                                    " distinct addresses a warp, as uniform random indices over the " +
                                    std::to_string(int64_t(n)) + " elements would give");
        work.assumptions.push_back("'" + f.text + "' reads its table at indices from data: taken as uniform random "
                                   "over its " + std::to_string(int64_t(n)) + " elements (" +
                                   std::to_string(int(std::lround(distinct))) + " distinct addresses a warp)");
      } else if (f.space == AddressSpace::Shared && !f.indexKnown && a.guarded.extentBytes > 0 && f.widthBytes > 0 &&
                 f.widthBytes <= 4) {
        // A shared array read, written or updated at indices from data (a
        // histogram's bins): the lanes' elements taken as uniform random over
        // the array, a request's wavefronts those of its busiest bank.
        w.multiplier = 1;
        for (int loop : a.enclosingLoops)
          w.multiplier *= tripsOf(work.loopTrips, loop);
        countUnplaced(a, block, w, "");
        int64_t n = std::max<int64_t>(1, a.guarded.extentBytes / f.widthBytes);
        double perRequest = randomIndexWavefronts(n, f.widthBytes);
        w.wavefronts = w.warpExecutions * perRequest;
        w.counted = true;
        char buf[16];
        std::snprintf(buf, sizeof buf, "%.2f", perRequest);
        w.multiplierNotes.push_back(std::string("indices from data: ") + buf +
                                    " wavefronts a warp request, as uniform random indices over the " +
                                    std::to_string(n) + " elements would give");
        std::string said = "'" + f.text + "' indexes shared memory with data: taken as uniform random over its " +
                           std::to_string(n) + " elements (" + buf + " wavefronts a warp request)";
        if (std::find(work.assumptions.begin(), work.assumptions.end(), said) == work.assumptions.end())
          work.assumptions.push_back(said);
      } else {
        w.multiplier = 1;
        for (int loop : a.enclosingLoops)
          w.multiplier *= tripsOf(work.loopTrips, loop);
        countUnplaced(a, block, w,
                      f.indexKnown ? "no lane of the block could be enumerated; counted as every warp, contiguous"
                                   : "the address is not known (" +
                                         (f.unevaluatedClass.empty() ? std::string("unknown index")
                                                                     : f.unevaluatedClass) +
                                         "); counted as every warp, contiguous");
        if (global && readsLoadedValue(*a.guarded.byteOffset))
          countRevisits(a, k, work, w);
      }
    }
    // The load or store instruction (its address arithmetic mostly folds
    // into the addressing mode). A private array's element is a register
    // unless the cost model puts the array in local memory; a constant is
    // an operand.
    if (f.space == AddressSpace::Global || f.space == AddressSpace::Shared || f.space == AddressSpace::Generic)
      work.warpInstructions += w.warpExecutions;
    work.accesses.push_back(std::move(w));
  }
  for (auto &[base, sectors] : arraySectors) {
    if (!sectors.complete || sectors.block0.empty())
      continue;
    KernelWork::GridSharing share;
    share.blockBytes = double(sectors.block0.size()) * kSectorBytes;
    for (int d = 0; d < 3; ++d) {
      if (sectors.neighbour[d].empty())
        continue;
      size_t fresh = 0;
      for (int64_t s : sectors.neighbour[d])
        fresh += sectors.block0.count(s) ? 0 : 1;
      share.newShare[d] = std::min(1.0, double(fresh) / double(sectors.block0.size()));
    }
    work.globalSharing[base] = share;
  }
  for (const OperationCount &c : k.operations) {
    double times = warps;
    for (int loop : c.loops)
      times *= tripsOf(work.loopTrips, loop);
    work.warpInstructions += c.operations * times;
    work.sfuWarpInstructions += c.sfuOperations * times;
    work.fp64WarpInstructions += c.fp64Operations * times;
  }
  work.computed = true;
  return work;
}

} // namespace warplint
