// shared-staging-candidate (S_5): a read-only global array whose elements
// the threads of one block read many times over, in separate warp requests,
// so that a shared-memory tile could serve the repeats. On recent GPUs the L1
// already serves most of them; the gain is estimated from the profile's L1
// and shared-memory latencies and the finding stays a note when it is small.
#include "rules/AllRules.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"

#include <cmath>
#include <sstream>

namespace warplint {

namespace {

// Reuse below this (threads and warp requests per element, on average) is
// left alone: a 3-point stencil is the smallest pattern staged in practice
// (seed 000's MNF case stages a row read by 3 rows); `in[i] + in[i + 1]` is not.
constexpr double kMinThreadsPerElement = 3;
constexpr double kMinRequestsPerElement = 3;
// Each thread must read at least this many distinct elements, on average.
constexpr double kMinElementsPerThread = 2;
// A warning needs the profile to say that a shared load is at least this
// much faster than the L1 hit it replaces; below it the finding is a note.
constexpr double kWarningGain = 2.0;

const RuleInfo kInfo{
    "shared-staging-candidate",
    "Global data reused within a block: a shared-memory staging candidate",
    "S_5",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), section 7.2 (S_5, S_6) and "
    "Fig. 14; Zhang & Owens (2011), section 5 (matrix multiply tiles)",
    "When many threads of one block read the same global element in separate warp requests (the "
    "columns of B in a naive matrix multiply are read by every row of threads), staging a tile in "
    "shared memory loads each element once and serves the repeats at shared-memory latency. On "
    "GPUs with a large L1 (Volta and later) the L1 already serves most repeats and the gain is "
    "modest, or negative: on an H100 a 16x16 tiled matrix multiply ran 1.5x faster than the naive "
    "one, and a 9-point stencil staged through a shared tile ran 0.96x (tests/gpu/staging). The "
    "reuse itself is measured: in the corpus kernels it reports, the L1 served 75-90% of the "
    "global-load sectors (each sector asked for 4 to 11 times, one block per SM), in those it "
    "leaves alone at most 44%, apart from a thread walking its own row, whose sector hits the "
    "L1 counts but a tile would not save (tests/gpu/RESULTS.md). The finding states the reuse, the tile's shared-memory size against the profile's per-block "
    "capacity, and the profile's L1-hit against shared-load latency; it is a note unless a "
    "shared load is at least 2x faster than an L1 hit on the profiled GPU. Reads that only broadcast within one warp request, reuse across "
    "blocks only, arrays the kernel also writes, and arrays each thread reads a single element of (a bias "
    "read once per thread: nothing to amortize a tile and its barrier over) are not reported.",
    "// block (16, 16): B[k * n + col] is read by all 16 rows of threads\n"
    "float acc = 0.f;\n"
    "for (int k = 0; k < n; ++k)\n"
    "  acc += A[row * n + k] * B[k * n + col];\n"
    "C[row * n + col] = acc;",
    "__shared__ float As[16][16], Bs[16][16];\n"
    "float acc = 0.f;\n"
    "for (int t = 0; t < n / 16; ++t) {\n"
    "  As[ty][tx] = A[row * n + t * 16 + tx];\n"
    "  Bs[ty][tx] = B[(t * 16 + ty) * n + col];\n"
    "  __syncthreads();\n"
    "  for (int k = 0; k < 16; ++k)\n"
    "    acc += As[ty][k] * Bs[k][tx];\n"
    "  __syncthreads();\n"
    "}\n"
    "C[row * n + col] = acc;",
    "none: diagnostic only (a staging rewrite changes the kernel's structure)",
};

std::string number(double v) {
  std::ostringstream os;
  if (std::fabs(v - std::round(v)) < 0.05)
    os << std::llround(v);
  else
    os.precision(v < 10 ? 2 : 3), os << v;
  return os.str();
}

std::string bytesText(double b) {
  if (b >= 1024 && std::fmod(b, 1024) == 0)
    return number(b / 1024) + " KiB";
  return number(b) + " bytes";
}

// The read to point at: the first non-uniform evaluated read of the object.
const MemoryAccess *anchor(const KernelInfo &k, const DataObject &o) {
  for (size_t i : o.accesses) {
    const MemoryAccess &a = k.accesses[i];
    if (a.isRead && a.worstEval >= 0 && !worstEvaluation(a).uniform)
      return &a;
  }
  return nullptr;
}

class SharedStagingCandidate : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    for (const DataObject &o : k.dataObjects) {
      const BlockSharing &s = o.sharing;
      if (o.space != AddressSpace::Global || o.dataClass != "reused" || !s.computed || s.distinctRead <= 0)
        continue;
      // Staging a tile of data the kernel also writes would need its own
      // synchronization; only read-only data is a plain candidate.
      if (!o.onlyRead || o.writes > 0)
        continue;
      double threads = static_cast<double>(s.threadElementReads) / s.distinctRead;
      double requests = static_cast<double>(s.warpRequests) / s.distinctRead;
      if (threads < kMinThreadsPerElement || requests < kMinRequestsPerElement)
        continue;
      // A thread that reads one element of the array once has nothing to
      // amortize a tile over: staging trades its one L1-hit load for a global
      // load, a barrier and a shared load (a bias vector read by every row
      // of a 2-D block is reused, but not a candidate).
      if (s.block.threads() > 0 &&
          static_cast<double>(s.threadElementReads) / s.block.threads() < kMinElementsPerThread)
        continue;
      const MemoryAccess *at = anchor(k, o);
      if (!at)
        continue;
      out.push_back(makeFinding(k, o, *at, threads, requests, ctx));
    }
  }

private:
  static Finding makeFinding(const KernelInfo &k, const DataObject &o, const MemoryAccess &at, double threads,
                             double requests, const RuleContext &ctx) {
    const BlockSharing &s = o.sharing;
    double reuse = static_cast<double>(s.laneReads) / s.distinctRead;
    Finding f;
    f.rule = kInfo.id;
    f.severity = "note";
    f.loc = at.loc;
    f.kernel = k.name;
    f.message = "global '" + o.name + "' is reused within a block: each element is read " + number(reuse) +
                " times by " + number(threads) + " threads in " + number(requests) +
                " warp requests; a shared-memory tile could serve the repeats";
    f.details = contextDetails(k, at, worstEvaluation(at));
    f.details["reuse_factor"] = reuse;
    f.details["threads_per_element"] = threads;
    f.details["requests_per_element"] = requests;
    f.details["distinct_elements"] = s.distinctRead;
    f.details["footprint_bytes"] = s.footprintBytes;
    f.details["tile_steps"] = s.tileSteps;
    f.details["tile_bytes"] = s.tileBytes;
    f.details["enumerated_complete"] = s.complete;
    if (!s.window.empty())
      f.details["window"] = s.window;

    std::string tile = "a tile of what the block reads";
    if (s.tileSteps > 1)
      tile = s.complete && s.tileSteps == s.steps
                 ? "a tile of all " + std::to_string(s.tileSteps) + " loop iterations"
                 : "a tile of " + std::to_string(s.tileSteps) + " loop iterations" +
                       (s.tileSteps == s.block.x ? " (the block's x extent)" : "");
    std::string tileNote = tile + " holds " + bytesText(static_cast<double>(s.tileBytes)) + " of '" + o.name + "'";
    if (ctx.profile)
      if (auto cap = ctx.profile->maxSharedBytesPerBlock(); cap && *cap > 0) {
        f.details["shared_capacity_bytes"] = *cap;
        tileNote += ", " + number(100.0 * s.tileBytes / *cap) + "% of the " + bytesText(*cap) +
                    " of shared memory a block can use on " + ctx.profile->deviceName();
        if (s.tileBytes > *cap)
          tileNote += " (more than fits: a smaller tile is needed)";
      }
    f.notes.push_back({{}, tileNote});

    std::string gain = gainNote(ctx, f);
    if (!gain.empty())
      f.notes.push_back({{}, gain});
    std::string where = "counted over every thread of block " + s.block.str();
    if (k.blockShapeAssumed)
      where += " (assumed: no launch site with a constant block shape is visible)";
    else
      where += " from the " + k.blockShapeSource;
    if (!s.window.empty())
      where += ", " + s.window;
    f.notes.push_back({{}, where});
    if (s.uniformReadsSkipped > 0)
      f.notes.push_back({{}, std::to_string(s.uniformReadsSkipped) +
                                 " warp-uniform read(s) of it are not counted (a broadcast is one request)"});
    f.notes.push_back({{}, "address of '" + at.text + "' = " + at.base + " + " + at.indexText + " bytes"});
    for (auto &a : at.assumptions)
      f.notes.push_back({{}, "assumption: " + a});
    return f;
  }

  // The estimate from the profile: the repeats now hit the L1; a tile would
  // serve them from shared memory instead. The latency ratio is what the
  // profile measures; it is not a bound on the kernel (fewer L1 load
  // instructions help too: tests/gpu/staging measured 1.5x for a tiled
  // matrix multiply, 0.96x for a staged stencil), so the text says so.
  static std::string gainNote(const RuleContext &ctx, Finding &f) {
    if (!ctx.profile)
      return "";
    auto l1 = ctx.profile->latencyCycles("l1_hit");
    auto shared = ctx.profile->latencyCycles("shared");
    if (!l1 || !shared || *shared <= 0)
      return "";
    double ratio = *l1 / *shared;
    nlohmann::json cost = profileIdentity(*ctx.profile);
    cost["l1_hit_latency_cycles"] = *l1;
    cost["shared_load_latency_cycles"] = *shared;
    cost["latency_ratio"] = ratio;
    f.details["measured_cost"] = cost;
    if (ratio >= kWarningGain)
      f.severity = "warning";
    std::string text = "on " + ctx.profile->deviceName() + " an L1 hit takes " + std::to_string(std::llround(*l1)) +
                       " cycles and a shared-memory load " + std::to_string(std::llround(*shared)) +
                       ": a repeat served from the tile is " +
                       number(ratio) + "x faster in latency, before the tile's own loads, stores and barriers";
    if (ratio < kWarningGain)
      text += "; the L1 already serves the repeats, so the gain is modest or negative: measure before restructuring";
    return text;
  }
};

} // namespace

std::unique_ptr<Rule> makeSharedStagingCandidateRule() { return std::make_unique<SharedStagingCandidate>(); }

} // namespace warplint
