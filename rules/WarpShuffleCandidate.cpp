// warp-shuffle-candidate: shared memory used to pass values between the
// lanes of one warp (a tree reduction's warp tail, a 32-lane scan, a lane
// reading a neighbour's value) where a shuffle moves them in registers.
// Decided from the warp exchange facts (analyzer/results/WarpExchange.h):
// every thread of the block run through the shared accesses and barriers in
// program order, each load told whose store it reads.
#include "analyzer/profile/HardwareProfile.h"
#include "analyzer/results/WarpExchange.h"
#include "rules/AllRules.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"
#include "rules/WarpShuffleFix.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "warp-shuffle-candidate",
    "Shared-memory exchange within one warp",
    "4.2.4",
    "Pasternak, CUDA optimization strategies (2022), section 4.2.4 (registers and shuffle intrinsics)",
    "Lanes of one warp can read each other's registers with the shuffle intrinsics "
    "(__shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync; cooperative groups' "
    "reduce and shfl members): one instruction where passing a value through shared memory "
    "takes a store, a synchronization and a load, and no shared memory or __syncthreads at "
    "all. The rule runs every thread of the block through the kernel's shared accesses, "
    "barriers and __syncwarp calls in program order (every iteration of the loops around "
    "them) and reports a load only when some of its lanes read values that other lanes of "
    "the same warp stored with no __syncthreads in between (ordered by __syncwarp, by "
    "volatile, or by nothing, which since Volta is a race) and no lane reads a value another "
    "warp stored since the last barrier. Lanes of the load that read values from before a "
    "barrier (the first step of a warp tail reading the other half of the block) are named: "
    "a shuffle gives them other values, which is right when only the lanes whose values stay "
    "in the warp feed the result, as in a reduction that uses element 0. Exchanges across "
    "warps, steps separated by __syncthreads, block-wide scans, a lane reading only its own "
    "element and arrays the model cannot follow (an index or condition it cannot evaluate, "
    "atomics, a loop it cannot step, device code it did not inline) are not reported.",
    "if (tid < 32) {\n"
    "  volatile float *v = sdata;\n"
    "  v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];\n"
    "  v[tid] += v[tid + 4];  v[tid] += v[tid + 2];  v[tid] += v[tid + 1];\n"
    "}\n"
    "if (tid == 0) out[blockIdx.x] = sdata[0];",
    "if (tid < 32) {\n"
    "  float v = sdata[tid] + sdata[tid + 32];\n"
    "  for (int o = 16; o > 0; o >>= 1)\n"
    "    v += __shfl_down_sync(0xffffffff, v, o); // lane 0 sums in the same order\n"
    "  if (tid == 0) out[blockIdx.x] = v;\n"
    "}",
    kWarpTailFixSafety,
};

std::string hexMask(uint32_t m) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", m);
  return buf;
}

std::vector<int> lanesOf(uint32_t m) {
  std::vector<int> out;
  for (int l = 0; l < 32; ++l)
    if (m & (1u << l))
      out.push_back(l);
  return out;
}

// "lanes 0-15" or "lane 0".
std::string lanesText(uint32_t m) {
  return (__builtin_popcount(m) == 1 ? "lane " : "lanes ") + laneList(lanesOf(m));
}

bool powerOfTwo(int v) { return v > 0 && (v & (v - 1)) == 0; }

std::string plural(int64_t n, const std::string &one, const std::string &many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The shape of the exchange, for the rewrite: "down" (a tree reduction's
// tail: each load reads lane + d, d halving), "xor" (a butterfly), "up" (a
// scan: lane - d, d doubling), "broadcast" (every reader reads one lane) or
// "gather".
std::string patternOf(const WarpExchange &ex) {
  // A load in a loop reads at every step's distance: the distances over all
  // loads decide (a tail written out, or as a loop over o).
  bool down = true, up = true, xorOnly = true, broadcast = true;
  for (const WarpExchangeRead &r : ex.reads) {
    // A scan step reads lane - d; its first d lanes may read a padding of
    // zeros the warp stored (lane + 32 - d).
    std::set<int> back;
    for (int d : r.laneDeltas)
      if (d < 0)
        back.insert(-d);
    for (int d : r.laneDeltas) {
      down = down && d > 0 && powerOfTwo(d);
      up = up && !back.empty() && (d < 0 ? powerOfTwo(-d) : back.count(32 - d) > 0);
    }
    xorOnly = xorOnly && r.xorMask > 0;
    broadcast = broadcast && __builtin_popcount(r.sourceMask) == 1;
  }
  if (down)
    return "down";
  if (up)
    return "up";
  if (xorOnly)
    return "xor";
  if (broadcast)
    return "broadcast";
  return "gather";
}

std::string elementType(const KernelInfo &k, const std::string &array) {
  for (const ArrayInfo &a : k.arrays)
    if (a.name == array && !a.elementType.empty())
      return a.elementType;
  return "T";
}

std::string rewriteNote(const KernelInfo &k, const WarpExchange &ex, const std::string &pattern) {
  int widest = 0, steps = 0;
  for (const WarpExchangeRead &r : ex.reads)
    for (int d : r.laneDeltas)
      if (pattern != "up" || d < 0) { // a scan's padding reads are no step of their own
        widest = std::max(widest, std::abs(d));
        ++steps;
      }
  uint32_t lanes = ex.laneMask;
  if (pattern == "down" && steps > 1) {
    // In a halving tree, the step before the first exchanged one reads the
    // values the lanes stored before the barrier (lanes named "from before
    // the last barrier"): in registers those are the lanes' own values, and
    // that step is a shuffle too, with its source lanes.
    bool earlier = false;
    for (const WarpExchangeRead &r : ex.reads)
      earlier = earlier || r.outsideMask != 0;
    if (earlier && widest < 16) {
      widest *= 2;
      lanes |= lanes << widest;
    }
  }
  std::string mask = hexMask(lanes);
  std::string t = elementType(k, ex.array);
  std::ostringstream os;
  os << "instead: keep the value in a register and move it with a shuffle (mask " << mask << ": lanes "
     << laneList(lanesOf(lanes)) << " take part, and every lane it names must reach the call): ";
  if (pattern == "down" && steps == 1) {
    os << "`" << t << " other = __shfl_down_sync(" << mask << ", mine, " << widest << ");`";
  } else if (pattern == "up" && steps == 1) {
    os << "`" << t << " other = __shfl_up_sync(" << mask << ", mine, " << widest << ");`";
  } else if (pattern == "xor" && ex.reads.size() == 1) {
    os << "`" << t << " other = __shfl_xor_sync(" << mask << ", mine, " << ex.reads.front().xorMask << ");`";
  } else if (pattern == "down") {
    os << "`for (int o = " << widest << "; o > 0; o >>= 1) v += __shfl_down_sync(" << mask
       << ", v, o);` with the operator the shared version applies (or cg::reduce(tile, v, cg::plus<" << t
       << ">()) over a thread_block_tile<32>), v starting as the lane's partial value before the first of these "
          "steps; lane 0 then combines the same values in the same order";
  } else if (pattern == "up") {
    os << "`for (int o = 1; o < 32; o <<= 1) { " << t << " n = __shfl_up_sync(" << mask
       << ", v, o); if (lane >= o) v += n; }` with the operator the shared version applies (an inclusive scan; "
          "cg::inclusive_scan over a thread_block_tile<32> does the same)";
  } else if (pattern == "xor") {
    os << "`v += __shfl_xor_sync(" << mask << ", v, m);` for m =";
    for (size_t i = 0; i < ex.reads.size(); ++i)
      os << (i ? ", " : " ") << ex.reads[i].xorMask;
    os << " (every lane ends with the result)";
  } else if (pattern == "broadcast") {
    int src = __builtin_ctz(ex.reads.front().sourceMask);
    os << "`v = __shfl_sync(" << mask << ", v, " << src << ");` (every lane reads lane " << src << "'s value)";
  } else {
    os << "`v = __shfl_sync(" << mask << ", mine, src);` with src the lane whose value each lane reads";
  }
  return os.str();
}

// The profile's measured cost of a 32-lane reduction each way, when the
// probe ran on it (warp_exchange_shuffle_vs_shared); empty otherwise.
std::string measuredCost(const HardwareProfile &p, const std::string &sync, nlohmann::json &details) {
  const std::string probe = "warp_exchange_shuffle_vs_shared";
  std::string method = sync == "__syncwarp" ? "shared_syncwarp" : "shared_volatile";
  auto shfl = p.find(probe, "cycles_per_reduction", {{"method", "shfl"}});
  auto shared = p.find(probe, "cycles_per_reduction", {{"method", method}});
  if (!shfl || !shared || shfl->median <= 0)
    return "";
  nlohmann::json cost = profileIdentity(p);
  cost["probe"] = probe;
  cost["shfl_cycles_per_reduction"] = shfl->median;
  cost["shared_cycles_per_reduction"] = shared->median;
  cost["shared_method"] = method;
  std::ostringstream os;
  os << "measured on " << p.deviceName() << ": a 32-lane reduction takes about " << std::lround(shfl->median)
     << " cycles with __shfl_down_sync against " << std::lround(shared->median) << " through shared memory with "
     << (method == "shared_syncwarp" ? "__syncwarp" : "volatile");
  auto l1 = p.find(probe, "latency_cycles", {{"method", "shfl"}});
  auto l2 = p.find(probe, "latency_cycles", {{"method", method}});
  if (l1 && l2) {
    cost["shfl_latency_cycles"] = l1->median;
    cost["shared_latency_cycles"] = l2->median;
    os << " (one exchange: " << std::lround(l1->median) << " against " << std::lround(l2->median) << " cycles)";
  }
  details["measured_cost"] = cost;
  return os.str();
}

class WarpShuffleCandidate : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  // A tail in a __device__ helper is fixed only when every call of it in the
  // unit is proven exact: decided here, once every kernel's findings exist.
  void checkUnit(const TranslationUnitResult &unit, const RuleContext &, std::vector<Finding> &out) const override {
    settleHelperTailFixes(unit, out);
  }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    if (!k.warpExchanges)
      return;
    for (const WarpExchange &ex : k.warpExchanges->exchanges)
      if (!ex.reads.empty())
        out.push_back(makeFinding(k, ex, ctx));
  }

private:
  static Finding makeFinding(const KernelInfo &k, const WarpExchange &ex, const RuleContext &ctx) {
    const WarpExchangeRead &first = ex.reads.front();
    const MemoryAccess &load = k.accesses[first.access];
    const MemoryAccess &store = k.accesses[ex.firstStore];
    std::string pattern = patternOf(ex);
    // The weakest ordering over the loads names the exchange's.
    std::string sync = "__syncwarp";
    for (const WarpExchangeRead &r : ex.reads)
      if (r.sync == "none" || (r.sync == "volatile" && sync == "__syncwarp"))
        sync = r.sync;

    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = load.loc;
    f.kernel = k.name;
    std::ostringstream msg;
    msg << "shared '" << ex.array << "' passes values between lanes of one warp: " << lanesText(first.exchangeMask)
        << (__builtin_popcount(first.exchangeMask) == 1 ? " reads" : " read") << " what "
        << lanesText(first.sourceMask) << " stored";
    if (ex.reads.size() > 1)
      msg << ", in " << ex.reads.size() << " loads";
    msg << " (no __syncthreads between; "
        << (sync == "none" ? "nothing orders them" : sync == "volatile" ? "ordered by volatile" : "ordered by __syncwarp")
        << "); a warp runs " << plural(ex.warpStores, "shared store", "shared stores") << ", "
        << plural(ex.warpLoads, "shared load", "shared loads") << " and "
        << (ex.warpSyncs ? plural(ex.warpSyncs, "__syncwarp", "__syncwarps") : std::string("no __syncwarp"))
        << " in it where "
        << (pattern == "down" ? "__shfl_down_sync" : pattern == "up" ? "__shfl_up_sync"
            : pattern == "xor" ? "__shfl_xor_sync" : "__shfl_sync")
        << " moves the values in registers";
    if (ctx.profile) {
      std::string cost = measuredCost(*ctx.profile, sync, f.details);
      if (!cost.empty())
        msg << "; " << cost;
    }
    f.message = msg.str();

    // Where the values come from, load by load.
    nlohmann::json loads = nlohmann::json::array();
    for (const WarpExchangeRead &r : ex.reads) {
      const MemoryAccess &a = k.accesses[r.access];
      std::ostringstream n;
      n << "'" << a.text << "': " << lanesText(r.exchangeMask);
      if (r.laneDeltas.size() == 1)
        n << " read lane " << (r.laneDeltas.front() > 0 ? "+ " : "- ") << std::abs(r.laneDeltas.front());
      else
        n << " read " << lanesText(r.sourceMask);
      n << ", stored at ";
      for (size_t i = 0; i < r.writers.size(); ++i)
        n << (i ? ", " : "") << "line " << k.accesses[r.writers[i]].loc.line;
      if (r.outsideMask)
        n << "; " << lanesText(r.outsideMask)
          << (__builtin_popcount(r.outsideMask) == 1 ? " reads" : " read")
          << " values stored before the last barrier (or never stored here): with a shuffle they read the source "
             "lane's register instead, the same value only where that lane of this warp stored it, so a result "
             "that depends on them must be checked";
      f.notes.push_back({a.loc, n.str()});
      nlohmann::json l{{"line", a.loc.line},
                       {"column", a.loc.column},
                       {"text", a.text},
                       {"exchange_lanes", lanesOf(r.exchangeMask)},
                       {"source_lanes", lanesOf(r.sourceMask)},
                       {"outside_lanes", lanesOf(r.outsideMask)},
                       {"lane_deltas", r.laneDeltas},
                       {"sync", r.sync}};
      if (r.xorMask > 0)
        l["xor_mask"] = r.xorMask;
      loads.push_back(l);
    }
    if (sync == "none")
      f.notes.push_back({{}, "no __syncwarp() or volatile orders these stores and loads: since Volta the lanes of a "
                             "warp need not run in lockstep, so this is a data race; a shuffle synchronizes the "
                             "lanes its mask names"});
    f.notes.push_back({{}, rewriteNote(k, ex, pattern)});
    if (pattern == "down")
      describeWarpTailFix(k, ex, sync, f);
    std::ostringstream who;
    if (ex.warps.size() == 1)
      who << "run by warp " << ex.warps.front() << " only";
    else
      who << "run by " << ex.warps.size() << " of the block's " << ex.totalWarps << " warps, each within itself";
    who << "; first store read at line " << store.loc.line << "; block " << ex.shapes.front().str();
    if (ex.shapes.size() > 1)
      who << " (and " << shapeList(std::vector<BlockShape>(ex.shapes.begin() + 1, ex.shapes.end())) << ")";
    who << (k.blockShapeAssumed ? " (assumed: " + k.blockShapeSource + ")" : " from the " + k.blockShapeSource);
    f.notes.push_back({{}, who.str()});

    f.details["array"] = ex.array;
    f.details["pattern"] = pattern;
    f.details["sync"] = sync;
    f.details["mask"] = hexMask(ex.laneMask);
    f.details["lanes"] = lanesOf(ex.laneMask);
    f.details["warps"] = ex.warps;
    f.details["warp_stores"] = ex.warpStores;
    f.details["warp_loads"] = ex.warpLoads;
    f.details["warp_syncs"] = ex.warpSyncs;
    f.details["loads"] = loads;
    f.details["first_store"] = {{"line", store.loc.line}, {"column", store.loc.column}, {"text", store.text}};
    nlohmann::json shapes = nlohmann::json::array();
    for (const BlockShape &s : ex.shapes)
      shapes.push_back({s.x, s.y, s.z});
    f.details["blocks"] = shapes;
    f.details["block_source"] = k.blockShapeSource;
    f.details["block_assumed"] = k.blockShapeAssumed;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeWarpShuffleCandidateRule() { return std::make_unique<WarpShuffleCandidate>(); }

} // namespace warplint
