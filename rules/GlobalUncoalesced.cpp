// global-uncoalesced (G_3): a warp's global access that touches many more
// 32-byte sectors than the bytes it moves need.
#include "rules/AllRules.h"
#include "rules/NarrowAccessKinds.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"
#include "analyzer/warp/UniformSweep.h"

#include <algorithm>
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
      if (a.uniformSweep) {
        checkSwept(k, a, ctx, out);
        continue;
      }
      ShapeVerdict v = verdictOverShapes(k, a, shows, ratioOf);
      if (!v.eval)
        continue;
      Finding f = makeFinding(k, a, *v.eval, ctx, "");
      qualifyByShape(k, v, f);
      out.push_back(std::move(f));
    }
  }

private:
  static double ratioOf(const WarpAccessEval &e) {
    return e.idealSectors > 0 ? static_cast<double>(e.sectors) / e.idealSectors : 0;
  }
  static bool shows(const WarpAccessEval &e) {
    return !e.uniform && e.idealSectors > 0 && ratioOf(e) >= kMinTrafficRatio &&
           e.sectors - e.idealSectors >= kMinExcessSectors;
  }

  // An address with warp-uniform unknowns: reported when uncoalesced for
  // every value tried, or, when a clean condition on one of them (a symbolic
  // lane stride: "size >= 2") says when, with that condition.
  static void checkSwept(const KernelInfo &k, const MemoryAccess &a, const RuleContext &ctx,
                         std::vector<Finding> &out) {
    const UniformSweep &sweep = *a.uniformSweep;
    // With an assumed block shape, a value counts only when every plausible
    // shape shows the problem (as verdictOverShapes asks for known values).
    auto holds = [&](const UniformSample &s) {
      if (s.worst < 0 || !shows(s.evals[s.worst]))
        return false;
      return !k.blockShapeAssumed || std::all_of(s.evals.begin(), s.evals.end(), shows);
    };
    if (holdsForEveryValue(sweep, holds)) {
      Finding f = makeFinding(k, a, worstEvaluation(a), ctx, "");
      f.details["condition"] = "every value";
      ShapeVerdict v;
      v.eval = &worstEvaluation(a);
      v.holding = k.blockShapes;
      qualifyByShape(k, v, f);
      out.push_back(std::move(f));
      return;
    }
    const UniformSample *worst = nullptr;
    for (auto &s : sweep.samples)
      if (holds(s) && (!worst || ratioOf(s.evals[s.worst]) > ratioOf(worst->evals[worst->worst])))
        worst = &s;
    if (!worst)
      return;
    double top = ratioOf(worst->evals[worst->worst]);
    auto worstWhen = describeCondition(sweep, [&](const UniformSample &s) {
      return holds(s) && ratioOf(s.evals[s.worst]) >= top;
    });
    auto when = describeCondition(sweep, holds);
    // The numbers: the worst when one condition says when they hold, else
    // those of a large value tried (a multiple of 32 where one holds), named.
    const UniformSample *shown = worst;
    if (!worstWhen) {
      const UniformSample *aligned = nullptr, *last = nullptr;
      for (auto &s : sweep.samples)
        if (holds(s)) {
          last = &s;
          if (std::all_of(s.values.begin(), s.values.end(), [](int64_t v) { return v % 32 == 0; }))
            aligned = &s;
        }
      shown = aligned ? aligned : last;
      // No condition describes when: stated for large values only (every
      // unknown a multiple of 32, as a row pitch usually is), or not at all.
      if (!when && !aligned)
        return;
    }
    std::string at;
    for (size_t i = 0; i < sweep.symbols.size(); ++i)
      at += (i ? ", " : "") + sweep.symbols[i] + " = " + std::to_string(shown->values[i]);
    std::string suffix = worstWhen ? "when " + *worstWhen
                         : when    ? "at " + at + "; at least twice the ideal when " + *when
                                   : "at " + at + " (it depends on their values)";
    Finding f = makeFinding(k, a, shown->evals[shown->worst], ctx, suffix);
    if (worstWhen)
      f.notes.push_back({{}, (when ? "the traffic is at least twice the ideal when " + *when + "; " : std::string()) +
                                 "the numbers are for " + at});
    f.details["condition"] = worstWhen ? *worstWhen : when ? *when : at;
    if (when)
      f.details["reported_when"] = *when;
    // Under an assumed block shape, every value counted held for every
    // plausible shape (see `holds`): say so, as for known values.
    ShapeVerdict v;
    v.eval = &shown->evals[shown->worst];
    v.holding = k.blockShapes;
    qualifyByShape(k, v, f);
    out.push_back(std::move(f));
  }

  static std::string ratioText(double r) {
    std::ostringstream os;
    if (std::fabs(r - std::round(r)) < 0.05)
      os << std::lround(r);
    else
      os.precision(2), os << r;
    return os.str();
  }

  // `condition`: when the numbers hold, for an address with warp-uniform
  // unknowns ("size >= 8"); empty when they hold as they are.
  static Finding makeFinding(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e,
                             const RuleContext &ctx, const std::string &condition) {
    double ratio = ratioOf(e);
    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = a.loc;
    f.kernel = k.name;
    f.message = "uncoalesced global " + accessVerb(a) + " of '" + a.base + "': " + std::to_string(e.sectors) +
                " sectors per request where " + std::to_string(e.idealSectors) +
                (e.idealSectors == 1 ? " suffices: " : " suffice: ") + ratioText(ratio) +
                "x the traffic";
    if (!condition.empty())
      f.message += " " + condition;
    f.details = contextDetails(k, a, e);
    if (ctx.profile) {
      std::string cost = globalTrafficCost(*ctx.profile, e.sectors, e.idealSectors,
                                           e.laneStrideKnown ? e.laneStrideBytes : 0, a.widthBytes, f.details);
      if (!cost.empty())
        f.message += "; " + cost;
    }
    std::ostringstream warp;
    warp << e.activeLanes << " lanes each move " << a.widthBytes << " bytes";
    // The symbolic stride is along threadIdx.x; with lanes along y (a block
    // one thread wide) it says nothing, and the evaluated stride is shown.
    if (a.uniformSweep && !a.uniformSweep->laneStride.empty() && a.uniformSweep->laneStride != "0" &&
        !condition.empty()) {
      warp << "; consecutive lanes are " << a.uniformSweep->laneStride << " bytes apart";
    } else if (e.laneStrideKnown) {
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
