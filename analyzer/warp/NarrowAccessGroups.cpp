#include "analyzer/warp/NarrowAccessGroups.h"
#include "analyzer/warp/WarpBindings.h"
#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace warplint {

namespace {

// A constant loop of at most this many iterations (`for (k = 0; k < 4; ++k)`)
// is unrolled into sibling members; longer or lane-dependent loops are
// sampled at their first few iterations instead.
constexpr int64_t kMaxUnrolledTrips = 16;
constexpr size_t kMaxMembersPerAccess = 64;
constexpr size_t kSampledIterations = 3;

using LoopRef = std::shared_ptr<const LoopRecurrence>;

// An access, or one iteration of it when a short constant loop's iterations
// are its siblings.
struct Member {
  size_t access = 0;
  std::map<int, int64_t> fixed; // loop id -> iteration
};

// Every member's lane addresses under one binding of the warp-uniform symbols.
struct Sample {
  std::string where; // for reasons: "block (16, 16, 1), warp 0"
  std::vector<std::array<std::optional<int64_t>, kWarpSize>> address; // [member][lane]; nullopt: inactive
  bool unknown = false;  // some active lane's address could not be evaluated
  bool outside = false;  // some lane left the array: not a real execution
};

std::vector<LoopRef> loopsOf(const GuardedAccess &g) {
  std::vector<LoopRef> loops;
  g.byteOffset->collectLoops(loops);
  for (auto &c : g.guards)
    c->collectLoops(loops);
  return loops;
}

bool hasLoop(const std::vector<LoopRef> &loops, int id) {
  return std::any_of(loops.begin(), loops.end(), [&](const LoopRef &l) { return l->loopId == id; });
}

// Iterations of a loop that every lane runs the same number of times, from a
// constant start, when there are 2..kMaxUnrolledTrips of them.
std::optional<int64_t> shortConstantTrips(const LoopRecurrence &rec, const Binding &base) {
  if (!rec.cond || !rec.init || !rec.step)
    return std::nullopt;
  for (const ExprRef &e : {rec.init, rec.step, rec.cond})
    if (e->dependsOn(SymbolKind::ThreadIdx) || e->dependsOn(SymbolKind::BlockIdx))
      return std::nullopt;
  std::vector<LoopRef> inInit, inStep, inCond;
  rec.init->collectLoops(inInit);
  rec.step->collectLoops(inStep);
  rec.cond->collectLoops(inCond);
  if (!inInit.empty() || !inStep.empty() || inCond.size() != 1 || inCond.front()->loopId != rec.loopId)
    return std::nullopt;
  for (int64_t k = 0; k <= kMaxUnrolledTrips; ++k) {
    Binding b = base;
    b.loopIter[rec.loopId] = k;
    auto c = evaluate(*rec.cond, b);
    if (!c)
      return std::nullopt;
    if (*c == 0)
      return k >= 2 ? std::optional<int64_t>(k) : std::nullopt;
  }
  return std::nullopt;
}

// The members of one access: itself, or one per iteration of the short
// constant loops its address depends on (all of them, odometer order).
std::vector<Member> membersOf(size_t index, const ModeledAccess &a, const Binding &base,
                              std::map<int, std::string> &unrolledNames) {
  std::vector<LoopRef> offsetLoops;
  a.guarded.byteOffset->collectLoops(offsetLoops);
  std::vector<Member> out{Member{index, {}}};
  std::set<int> done;
  for (const LoopRef &l : offsetLoops) {
    if (!done.insert(l->loopId).second)
      continue;
    auto trips = shortConstantTrips(*l, base);
    if (!trips || out.size() * static_cast<size_t>(*trips) > kMaxMembersPerAccess)
      continue;
    unrolledNames[l->loopId] = l->var;
    std::vector<Member> next;
    for (const Member &m : out)
      for (int64_t k = 0; k < *trips; ++k) {
        Member n = m;
        n.fixed[l->loopId] = k;
        next.push_back(n);
      }
    out = next;
  }
  return out;
}

// Every binding the members are evaluated under: each block shape, its
// representative warps, block indices 0 and 1, and the first iterations of
// each loop that is not unrolled.
std::vector<Sample> sampleMembers(const ModeledKernel &k, const std::vector<Member> &members,
                                  const std::vector<BlockShape> &shapes, const EvaluationOptions &opts) {
  std::vector<LoopRef> loops;
  std::set<int> unrolled;
  for (const Member &m : members) {
    for (auto &[id, iter] : m.fixed)
      unrolled.insert(id);
    for (const LoopRef &l : loopsOf(k.accesses[m.access].guarded))
      if (!hasLoop(loops, l->loopId))
        loops.push_back(l);
  }
  loops.erase(std::remove_if(loops.begin(), loops.end(), [&](const LoopRef &l) { return unrolled.count(l->loopId); }),
              loops.end());
  std::vector<Sample> samples;
  for (const BlockShape &shape : shapes) {
    Binding base = blockBinding(shape, opts);
    std::vector<std::vector<int64_t>> iterations;
    for (const LoopRef &l : loops) {
      Binding b = base;
      for (const LoopRef &other : loops)
        b.loopIter[other->loopId] = 0;
      for (int id : unrolled)
        b.loopIter[id] = 0;
      auto ks = loopIterations(*l, b, opts.maxIterationsPerLoop);
      if (ks.size() > kSampledIterations)
        ks.resize(kSampledIterations);
      iterations.push_back(ks);
    }
    if (std::any_of(iterations.begin(), iterations.end(), [](auto &ks) { return ks.empty(); }))
      continue; // a loop that never runs under this shape
    std::vector<size_t> cursor(loops.size(), 0);
    for (;;) {
      for (int warp : representativeWarps(shape))
        for (int64_t blockIndex : {0, 1}) {
          Binding b = base;
          b.blockIdx[0] = b.blockIdx[1] = b.blockIdx[2] = blockIndex;
          for (size_t i = 0; i < loops.size(); ++i)
            b.loopIter[loops[i]->loopId] = iterations[i][cursor[i]];
          Sample s;
          s.where = "block " + shape.str() + ", warp " + std::to_string(warp) + ", block index " +
                    std::to_string(blockIndex);
          s.address.resize(members.size());
          for (size_t m = 0; m < members.size(); ++m) {
            const GuardedAccess &g = k.accesses[members[m].access].guarded;
            for (int l = 0; l < kWarpSize; ++l) {
              int64_t tid = static_cast<int64_t>(warp) * kWarpSize + l;
              if (tid >= shape.threads())
                continue;
              Binding lane = b;
              bindThread(lane, shape, tid);
              for (auto &[id, iter] : members[m].fixed)
                lane.loopIter[id] = iter;
              if (!laneActive(g, lane))
                continue;
              auto addr = evaluate(*g.byteOffset, lane);
              if (!addr) {
                s.unknown = true;
                continue;
              }
              if (g.extentBytes > 0 && (*addr < 0 || *addr + g.widthBytes > g.extentBytes))
                s.outside = true;
              s.address[m][l] = *addr;
            }
          }
          if (!s.outside)
            samples.push_back(std::move(s));
        }
      size_t i = 0;
      for (; i < loops.size(); ++i) {
        if (++cursor[i] < iterations[i].size())
          break;
        cursor[i] = 0;
      }
      if (i == loops.size())
        break;
    }
  }
  return samples;
}

// Whether member `m` runs in the same lanes as `anchor` in every sample, at
// one constant distance from it; the distance.
std::optional<int64_t> constantDistance(const std::vector<Sample> &samples, size_t anchor, size_t m) {
  std::optional<int64_t> distance;
  for (const Sample &s : samples) {
    if (s.unknown)
      return std::nullopt;
    for (int l = 0; l < kWarpSize; ++l) {
      const auto &a = s.address[anchor][l], &b = s.address[m][l];
      if (a.has_value() != b.has_value())
        return std::nullopt;
      if (!a)
        continue;
      if (distance && *distance != *b - *a)
        return std::nullopt;
      distance = *b - *a;
    }
  }
  return distance;
}

// The warp-level measures of one group, over every sample.
void measureGroup(NarrowAccessGroup &g, const std::vector<Sample> &samples, const std::vector<size_t> &memberIndex) {
  size_t anchor = memberIndex.front();
  bool contiguous = true;
  std::string reason;
  bool first = true;
  for (const Sample &s : samples) {
    std::vector<int> lanes;
    for (int l = 0; l < kWarpSize; ++l)
      if (s.address[anchor][l])
        lanes.push_back(l);
    if (lanes.empty())
      continue;
    ++g.evaluations;
    // Lane stride: consecutive active lanes evenly spaced.
    int64_t stride = 0;
    bool affine = lanes.size() >= 2;
    if (affine) {
      int64_t d = *s.address[anchor][lanes[1]] - *s.address[anchor][lanes[0]];
      int gap = lanes[1] - lanes[0];
      affine = d % gap == 0;
      stride = affine ? d / gap : 0;
      for (size_t i = 1; affine && i < lanes.size(); ++i)
        affine = *s.address[anchor][lanes[i]] - *s.address[anchor][lanes[0]] == stride * (lanes[i] - lanes[0]);
    }
    // The warp's bytes over every member.
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (size_t m : memberIndex)
      for (int l = 0; l < kWarpSize; ++l)
        if (s.address[m][l])
          ranges.push_back({*s.address[m][l], *s.address[m][l] + g.widthBytes});
    std::sort(ranges.begin(), ranges.end());
    int64_t distinct = 0, end = ranges.front().first, gapAt = -1;
    for (auto &[lo, hi] : ranges) {
      if (lo > end && gapAt < 0)
        gapAt = end;
      int64_t from = std::max(lo, end);
      if (hi > from)
        distinct += hi - from;
      end = std::max(end, hi);
    }
    if (first) {
      g.laneStrideBytes = affine ? stride : 0;
      g.warpBytes = distinct;
      first = false;
    }
    g.activeLanes = std::max(g.activeLanes, static_cast<int>(lanes.size()));
    if (!contiguous)
      continue;
    if (lanes.size() < 2) {
      contiguous = false;
      reason = "one lane takes part (" + s.where + ")";
    } else if (affine && stride == 0) {
      contiguous = false;
      reason = "every lane reaches the same address, a broadcast (" + s.where + ")";
    } else if (!affine) {
      contiguous = false;
      reason = "consecutive lanes are not evenly spaced (" + s.where + ")";
    } else if (stride != g.laneStrideBytes) {
      contiguous = false;
      reason = "the lane stride differs between evaluations (" + s.where + ")";
    } else if (gapAt >= 0) {
      contiguous = false;
      reason = "the warp's bytes leave a gap at byte " + std::to_string(gapAt - ranges.front().first) +
               " of " + std::to_string(end - ranges.front().first) + " (" + s.where + ")";
    }
  }
  if (g.evaluations == 0) {
    contiguous = false;
    reason = "no lane of the evaluated warps takes part";
  }
  g.warpContiguous = contiguous;
  g.notContiguousReason = contiguous ? "" : reason;
}

} // namespace

void findNarrowAccessGroups(ModeledKernel &k, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts) {
  if (shapes.empty())
    return;
  Binding base = blockBinding(shapes.front(), opts);
  // Accesses that can run together and differ only in their offsets (reads
  // and writes alike: an in-place update's loads and stores are one group).
  std::map<std::tuple<std::string, int, int64_t>, std::vector<size_t>> buckets;
  std::vector<std::tuple<std::string, int, int64_t>> order;
  for (size_t i = 0; i < k.accesses.size(); ++i) {
    const MemoryAccess &f = k.accesses[i].fact;
    // An access evaluated only where its guards pass has no lane under the
    // values the group's samples take: it is reported alone.
    if (f.space != AddressSpace::Global || (f.widthBytes != 1 && f.widthBytes != 2) || !f.indexKnown ||
        f.evals.empty() || !f.evaluatedWhereGuardsPass.empty())
      continue;
    auto key = std::make_tuple(f.base, k.accesses[i].region, f.widthBytes);
    if (!buckets.count(key))
      order.push_back(key);
    buckets[key].push_back(i);
  }
  for (const auto &key : order) {
    std::map<int, std::string> unrolledNames;
    std::vector<Member> members;
    for (size_t i : buckets[key])
      for (Member &m : membersOf(i, k.accesses[i], base, unrolledNames))
        members.push_back(m);
    std::vector<Sample> samples = sampleMembers(k, members, shapes, opts);
    std::vector<bool> taken(members.size(), false);
    for (size_t anchor = 0; anchor < members.size(); ++anchor) {
      if (taken[anchor])
        continue;
      NarrowAccessGroup g;
      g.pointer = std::get<0>(key);
      g.widthBytes = std::get<2>(key);
      std::vector<size_t> memberIndex;
      for (size_t m = anchor; m < members.size(); ++m) {
        if (taken[m])
          continue;
        auto d = m == anchor ? std::optional<int64_t>(0) : constantDistance(samples, anchor, m);
        if (!d)
          continue;
        taken[m] = true;
        memberIndex.push_back(m);
        g.members.push_back({members[m].access, *d});
        if (std::find(g.accesses.begin(), g.accesses.end(), members[m].access) == g.accesses.end())
          g.accesses.push_back(members[m].access);
      }
      std::set<int64_t> threadBytes;
      std::set<int> loops;
      for (size_t j = 0; j < memberIndex.size(); ++j) {
        for (int64_t b = 0; b < g.widthBytes; ++b)
          threadBytes.insert(g.members[j].offsetBytes + b);
        for (auto &[id, iter] : members[memberIndex[j]].fixed)
          loops.insert(id);
      }
      g.threadBytes = static_cast<int64_t>(threadBytes.size());
      for (int id : loops)
        g.loopVar += (g.loopVar.empty() ? "" : ", ") + unrolledNames[id];
      measureGroup(g, samples, memberIndex);
      bool unknownGuard = std::any_of(g.accesses.begin(), g.accesses.end(),
                                      [&](size_t i) { return k.accesses[i].unknownGuard; });
      if (unknownGuard) {
        g.warpContiguous = false;
        g.notContiguousReason = "it runs under a condition the analyzer cannot evaluate, so which lanes take "
                                "part is unknown";
      }
      std::sort(g.accesses.begin(), g.accesses.end());
      k.info.narrowGroups.push_back(std::move(g));
    }
  }
}

} // namespace warplint
