// shared-bank-conflict (S_1): lanes of one warp reaching distinct words of
// the same shared-memory bank are served one after another.
#include "rules/AllRules.h"
#include "rules/PaddingFix.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"

#include <set>
#include <sstream>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "shared-bank-conflict",
    "Shared-memory bank conflict",
    "S_1",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), section 7.2",
    "Shared memory has 32 banks of 4 bytes. When lanes of a warp access distinct words that "
    "fall in the same bank, the hardware serves them one after another: an N-way conflict "
    "replays the access N times, dividing shared-memory throughput by N and adding latency. "
    "Lanes reading the same word are served by a broadcast and do not conflict.",
    "__shared__ float tile[32][32];\n"
    "tile[threadIdx.y][threadIdx.x] = in[y * n + x];\n"
    "__syncthreads();\n"
    "out[y2 * n + x2] = tile[threadIdx.x][threadIdx.y]; // column read: 32-way conflict",
    "__shared__ float tile[32][33]; // one word of padding per row\n"
    "tile[threadIdx.y][threadIdx.x] = in[y * n + x];\n"
    "__syncthreads();\n"
    "out[y2 * n + x2] = tile[threadIdx.x][threadIdx.y]; // rows now start in different banks",
    kPaddingFixSafety,
};

class SharedBankConflict : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    std::set<std::string> offered; // one padding fix per array, on its first finding
    for (const MemoryAccess &a : k.accesses) {
      if (a.space != AddressSpace::Shared || a.worstEval < 0)
        continue;
      ShapeVerdict v = verdictOverShapes(
          k, a, [](const WarpAccessEval &e) { return e.bankConflictDegree >= 2 && !e.uniform; },
          [](const WarpAccessEval &e) { return e.bankConflictDegree * 1000.0 + e.wavefronts; });
      if (!v.eval)
        continue;
      Finding f = makeFinding(k, a, *v.eval, ctx);
      // A conflict only some plausible shapes have is no ground for a rewrite.
      if (v.holdsForAll)
        describePaddingFix(k, a.base, offered.insert(a.base).second, f);
      qualifyByShape(k, v, f);
      out.push_back(std::move(f));
    }
  }

private:
  static Finding makeFinding(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e,
                             const RuleContext &ctx) {
    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = a.loc;
    f.kernel = k.name;
    std::ostringstream msg;
    msg << e.bankConflictDegree << "-way bank conflict on " << accessVerb(a) << " of shared '" << a.base << "': ";
    if (a.widthBytes <= 4)
      msg << "the warp's access is replayed " << e.bankConflictDegree << " times";
    else
      msg << "the warp's " << a.widthBytes << "-byte access takes " << e.wavefronts << " wavefronts where "
          << e.idealWavefronts << " suffice";
    f.details = contextDetails(k, a, e);
    // The probes measured 4-byte loads; wider accesses get no number.
    if (ctx.profile && a.widthBytes <= 4) {
      std::string cost = sharedConflictCost(*ctx.profile, e.bankConflictDegree, f.details);
      if (!cost.empty())
        msg << "; " << cost;
    }
    f.message = msg.str();

    std::ostringstream warp;
    warp << "lanes " << laneList(e.conflictLanes) << " reach bank " << e.conflictBank << " at distinct words";
    if (e.laneStrideKnown)
      warp << "; consecutive lanes are " << e.laneStrideBytes << " bytes apart";
    if (e.laneStrideKnown && e.laneStrideBytes % 4 == 0 && e.laneStrideBytes != 0)
      warp << " (" << e.laneStrideBytes / 4 << " words)";
    if (e.activeLanes < 32)
      warp << "; " << e.activeLanes << " lanes active";
    f.notes.push_back({{}, warp.str()});
    if (a.uniformSweep) {
      // The evaluation kept is the least severe over the uniform unknowns'
      // values: it holds whatever they are.
      std::string names;
      for (size_t i = 0; i < a.uniformSweep->symbols.size(); ++i)
        names += (i ? ", " : "") + a.uniformSweep->symbols[i];
      std::string note = "at least " + std::to_string(e.bankConflictDegree) + "-way for every value of " + names +
                         " tried";
      for (auto &c : a.uniformSweep->conditions)
        if (c.rfind("worst when ", 0) == 0 && c != "worst when every value")
          note += "; worse when " + c.substr(11);
      f.notes.push_back({{}, note});
      f.details["condition"] = "every value";
    }
    addContextNotes(k, a, e, f.notes);

    f.details["degree"] = e.bankConflictDegree;
    f.details["wavefronts"] = e.wavefronts;
    f.details["ideal_wavefronts"] = e.idealWavefronts;
    f.details["bank"] = e.conflictBank;
    f.details["conflicting_lanes"] = e.conflictLanes;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeSharedBankConflictRule() { return std::make_unique<SharedBankConflict>(); }

} // namespace warplint
