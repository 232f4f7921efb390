#include "analyzer/cost/EnumeratedWork.h"
#include "analyzer/warp/AccessFingerprint.h"
#include "analyzer/warp/BlockEnumeration.h"
#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <map>
#include <set>

namespace warplint {

double tripsOf(const std::vector<std::optional<double>> &trips, int loop) {
  return loop >= 0 && static_cast<size_t>(loop) < trips.size() && trips[loop] ? *trips[loop] : 1.0;
}

void insertSectors(SectorSet &into, int64_t address, int64_t widthBytes) {
  int64_t first = address >= 0 ? address / kSectorBytes : (address - kSectorBytes + 1) / kSectorBytes;
  int64_t last = (address + widthBytes - 1) / kSectorBytes;
  for (int64_t s = first; s <= last; ++s)
    into.insert(s);
}

// Walks `a` in the block after block 0 along each dimension the grid has
// (an address that does not read blockIdx touches the same sectors in
// every block).
void addNeighbourSectors(const ModeledAccess &a, const BlockShape &block, const EvaluationOptions &eo,
                         const BlockShape &grid, const TallyOptions &opts, const SectorSet &own,
                         ArraySectors &out) {
  out.block0.insert(own.begin(), own.end());
  bool readsBlockIdx = a.guarded.byteOffset->dependsOn(SymbolKind::BlockIdx);
  for (auto &g : a.guarded.guards)
    readsBlockIdx = readsBlockIdx || g->dependsOn(SymbolKind::BlockIdx);
  const int64_t dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d) {
    if (dims[d] <= 1)
      continue;
    if (!readsBlockIdx) {
      out.neighbour[d].insert(own.begin(), own.end());
      continue;
    }
    EvaluationOptions next = eo;
    next.blockIndex[d] = 1;
    // Kept per access as written (the enumeration reads nothing of the
    // kernel beyond the access's expressions): a stencil's kernels repeat
    // their reads, each read walked again per neighbour.
    struct Walked {
      bool evaluated = false;
      SectorSet sectors;
    };
    thread_local std::unordered_map<std::string, Walked> walkedAlike;
    std::string key = accessFingerprint(a.guarded, a.fact.space, {block}, next) + "|n" +
                      std::to_string(opts.maxLaneEvaluations);
    auto it = walkedAlike.find(key);
    if (it == walkedAlike.end()) {
      if (walkedAlike.size() >= 4096)
        walkedAlike.clear();
      Walked w;
      w.evaluated = enumerateBlock(a.guarded, block, next, opts.maxLaneEvaluations, [&](const BlockLane &l) {
                      insertSectors(w.sectors, l.address, a.guarded.widthBytes);
                    }).evaluated;
      it = walkedAlike.emplace(std::move(key), std::move(w)).first;
    }
    out.neighbour[d].insert(it->second.sectors.begin(), it->second.sectors.end());
    out.complete = out.complete && it->second.evaluated;
  }
}

namespace {

// One warp request: the enumeration step and the warp.
struct WarpStep {
  int64_t step = 0;
  int warp = 0;
  bool operator<(const WarpStep &o) const { return step != o.step ? step < o.step : warp < o.warp; }
};

} // namespace

bool countEnumerated(const ModeledAccess &a, const BlockShape &block, const EvaluationOptions &eo,
                     const std::vector<std::optional<double>> &trips, const ModeledKernel &k,
                     const TallyOptions &opts, AccessWork &w, SectorSet *sectorsOut) {
  std::map<WarpStep, LaneAddresses> requests;
  SectorSet sectorsTouched;
  BlockEnumeration en = enumerateBlock(a.guarded, block, eo, opts.maxLaneEvaluations, [&](const BlockLane &l) {
    LaneAddresses &lanes = requests[{l.step, l.thread / kWarpSize}];
    lanes.widthBytes = a.guarded.widthBytes;
    lanes.store = a.guarded.store;
    lanes.active[l.thread % kWarpSize] = true;
    lanes.address[l.thread % kWarpSize] = l.address;
    insertSectors(sectorsTouched, l.address, a.guarded.widthBytes);
  });
  if (!en.evaluated || en.steps <= 0)
    return false;
  // The loops the enumeration walked, and how many iterations of theirs it
  // left out: those are extrapolated from the enumerated ones.
  std::vector<std::shared_ptr<const LoopRecurrence>> walked;
  a.guarded.byteOffset->collectLoops(walked);
  for (auto &g : a.guarded.guards)
    g->collectLoops(walked);
  std::set<int> walkedIds;
  for (auto &l : walked)
    walkedIds.insert(l->loopId);
  double fullSteps = 1;
  for (int id : walkedIds) {
    auto at = std::find_if(k.loopRecurrences.begin(), k.loopRecurrences.end(),
                           [&](auto &r) { return r && r->loopId == id; });
    if (at != k.loopRecurrences.end())
      fullSteps *= tripsOf(trips, static_cast<int>(at - k.loopRecurrences.begin()));
  }
  double extrapolate = std::max(1.0, fullSteps / double(en.steps));
  if (extrapolate > 1.0 + 1e-9)
    w.multiplierNotes.push_back("the enumerated iterations (" + std::to_string(en.steps) +
                                ") extrapolated to " + std::to_string(int64_t(fullSteps)));
  // Enclosing loops the address does not walk multiply the executions.
  for (int loop : a.enclosingLoops) {
    const auto &rec = static_cast<size_t>(loop) < k.loopRecurrences.size() ? k.loopRecurrences[loop] : nullptr;
    if (rec && walkedIds.count(rec->loopId))
      continue;
    w.multiplier *= tripsOf(trips, loop);
  }
  w.multiplier *= extrapolate;
  for (auto &[key, lanes] : requests) {
    w.warpExecutions += 1;
    w.laneExecutions += lanes.activeCount();
    if (a.fact.space == AddressSpace::Shared) {
      BankConflictDegree c = sharedBankConflicts(lanes);
      w.wavefronts += c.wavefronts;
      w.idealWavefronts += c.idealWavefronts;
    } else if (a.fact.space == AddressSpace::Constant) {
      // One address a request is a constant-bank operand or a single LDC:
      // only a request that spreads over several addresses is serialized.
      std::set<int64_t> distinct;
      for (int l = 0; l < kWarpSize; ++l)
        if (lanes.active[l])
          distinct.insert(lanes.address[l]);
      if (distinct.size() > 1)
        w.constantAddresses += double(distinct.size());
    } else {
      SectorsPerRequest s = globalSectors(lanes);
      w.sectors += s.sectors;
      w.idealSectors += s.idealSectors;
      std::set<int64_t> lines;
      for (int l = 0; l < kWarpSize; ++l)
        if (lanes.active[l])
          for (int64_t b = lanes.address[l]; b < lanes.address[l] + lanes.widthBytes; b += 128)
            lines.insert(b >= 0 ? b / 128 : (b - 127) / 128);
      w.lines += double(lines.size());
    }
  }
  w.distinctSectors = double(sectorsTouched.size()) * extrapolate;
  if (sectorsOut)
    *sectorsOut = std::move(sectorsTouched);
  for (double *v : {&w.warpExecutions, &w.laneExecutions, &w.wavefronts, &w.idealWavefronts, &w.sectors,
                    &w.idealSectors, &w.lines, &w.constantAddresses})
    *v *= w.multiplier;
  return true;
}


// The memo of loop-free accesses is the thread's (units are analyzed in
// parallel), bounded: emptied when full.
bool EnumeratedCounts::count(const ModeledAccess &a, AccessWork &w, SectorSet *sectorsOut) {
  thread_local std::unordered_map<std::string, Counted> loopFreeAlike;
  std::string key = accessFingerprint(a.guarded, a.fact.space, {block_}, eo_) + "|n" +
                    std::to_string(opts_.maxLaneEvaluations) + "|l";
  for (int l : a.enclosingLoops)
    key += std::to_string(l) + ',';
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  a.guarded.byteOffset->collectLoops(loops);
  for (auto &g : a.guarded.guards)
    g->collectLoops(loops);
  bool loopFree = loops.empty() && a.enclosingLoops.empty();
  auto &memo = loopFree ? loopFreeAlike : kernelAlike_;
  if (loopFree && memo.size() >= 4096)
    memo.clear();
  auto it = memo.find(key);
  if (it == memo.end()) {
    Counted c;
    c.work = w;
    c.placed = countEnumerated(a, block_, eo_, trips_, k_, opts_, c.work, &c.sectors);
    it = memo.emplace(std::move(key), std::move(c)).first;
  }
  const Counted &c = it->second;
  AccessWork own = std::move(w);
  w = c.work;
  w.access = own.access;
  w.widthBytes = own.widthBytes;
  w.loops = std::move(own.loops);
  w.region = own.region;
  if (sectorsOut)
    *sectorsOut = c.sectors;
  return c.placed;
}
} // namespace warplint
