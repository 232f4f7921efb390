// global-uncoalesced (G_3): a warp's global access that touches many more
// 32-byte sectors than the bytes it moves need.
#include "rules/AllRules.h"
#include "rules/NarrowAccessKinds.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"

#include <cmath>
#include <sstream>

namespace warplint {

namespace {

// Only a doubling of traffic is reported (the ideal already forgives
// misalignment, which G_3 says is not necessary), and only when at least two
// sectors are wasted: two active lanes in two rows (a halo column's loads)
// need two sectors in any layout.
constexpr double kMinTrafficRatio = 2.0;
constexpr int kMinExcessSectors = 2;

const RuleInfo kInfo{
    "global-uncoalesced",
    "Uncoalesced global-memory access",
    "G_3",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), section 7.4; "
    "Zhang & Owens (2011), section 4.3",
    "Global memory moves data in 32-byte sectors. When the lanes of a warp access addresses "
    "far apart, one request touches many sectors and most of each sector's bytes are fetched "
    "for nothing: the access costs a multiple of the memory traffic it needs. Consecutive lanes "
    "should access consecutive addresses; alignment itself matters little. A thread's 1- and 2-byte accesses whose "
    "siblings fill the gaps between lanes (`p[4 * i + 0..3]`) waste no sector, since the bytes one of them skips are "
    "the next one's: global-narrow-access reports them, once.",
    "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "out[i] = in[i * 32]; // each lane its own sector: 32 sectors per request",
    "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "out[i] = in[i];      // 32 consecutive floats: 4 sectors per request",
    "none: diagnostic only",
};

class GlobalUncoalesced : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    // A thread's narrow accesses whose siblings fill the gaps between lanes
    // (`p[4*i+0..3]`) waste no sector: the bytes one of them skips are the
    // next one's. global-narrow-access reports them once, as a group.
    std::set<size_t> siblingFilled = accessesWithGapFillingSiblings(k);
    for (size_t i = 0; i < k.accesses.size(); ++i) {
      const MemoryAccess &a = k.accesses[i];
      if (a.space != AddressSpace::Global || a.worstEval < 0 || siblingFilled.count(i))
        continue;
      const WarpAccessEval &e = worstEvaluation(a);
      if (e.uniform || e.idealSectors <= 0)
        continue;
      double ratio = static_cast<double>(e.sectors) / e.idealSectors;
      if (ratio < kMinTrafficRatio || e.sectors - e.idealSectors < kMinExcessSectors)
        continue;
      out.push_back(makeFinding(k, a, e, ratio, ctx));
    }
  }

private:
  static std::string ratioText(double r) {
    std::ostringstream os;
    if (std::fabs(r - std::round(r)) < 0.05)
      os << std::lround(r);
    else
      os.precision(2), os << r;
    return os.str();
  }

  static Finding makeFinding(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e, double ratio,
                             const RuleContext &ctx) {
    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = a.loc;
    f.kernel = k.name;
    f.message = "uncoalesced global " + accessVerb(a) + " of '" + a.base + "': " + std::to_string(e.sectors) +
                " sectors per request where " + std::to_string(e.idealSectors) +
                (e.idealSectors == 1 ? " suffices: " : " suffice: ") + ratioText(ratio) +
                "x the traffic";
    f.details = contextDetails(k, a, e);
    if (ctx.profile) {
      std::string cost = globalTrafficCost(*ctx.profile, e.sectors, e.idealSectors,
                                           e.laneStrideKnown ? e.laneStrideBytes : 0, a.widthBytes, f.details);
      if (!cost.empty())
        f.message += "; " + cost;
    }
    std::ostringstream warp;
    warp << e.activeLanes << " lanes each move " << a.widthBytes << " bytes";
    if (e.laneStrideKnown) {
      warp << "; consecutive lanes are " << e.laneStrideBytes << " bytes apart";
      if (a.widthBytes > 0 && e.laneStrideBytes % a.widthBytes == 0)
        warp << " (stride " << e.laneStrideBytes / a.widthBytes << " elements)";
    }
    f.notes.push_back({{}, warp.str()});
    addContextNotes(k, a, e, f.notes);
    f.details["sectors"] = e.sectors;
    f.details["ideal_sectors"] = e.idealSectors;
    f.details["traffic_ratio"] = ratio;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeGlobalUncoalescedRule() { return std::make_unique<GlobalUncoalesced>(); }

} // namespace warplint
