// constant-divergent-access (C_2, C_3): constant memory broadcasts one
// address to a warp but serves distinct addresses one after another, so a
// `__constant__` read whose lanes read different addresses is serialized.
#include "rules/AllRules.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"

#include "analyzer/profile/HardwareProfile.h"

#include <cmath>
#include <sstream>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "constant-divergent-access",
    "Divergent read of constant memory",
    "C_2, C_3",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), sections 5.2 and 7.3",
    "Constant memory is built for broadcast: when every lane of a warp reads the same address the "
    "value reaches all of them at once (C_2). It has no parallel access: lanes reading distinct "
    "addresses are served one address after another, so a warp reading 32 different words of a "
    "`__constant__` table takes about 32 times as long (C_3). Index constant tables with warp-uniform "
    "values (loop counters, `blockIdx`, a warp index); a table indexed per lane belongs in global "
    "memory read through the read-only path (`const __restrict__`, `__ldg`) or in shared memory, "
    "both of which serve distinct addresses in parallel.",
    "__constant__ float coef[256];\n"
    "__global__ void scale(float *out, const float *in) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = in[i] * coef[threadIdx.x]; // 32 addresses a warp: served one by one\n"
    "}",
    "__global__ void scale(float *out, const float *in, const float *__restrict__ coef) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = in[i] * coef[threadIdx.x]; // read-only global path: one request\n"
    "}\n"
    "// or keep __constant__ and read it uniformly: coef[blockIdx.x]",
    "none: diagnostic only (moving the table changes its declaration and its host-side copy)",
};

std::string rounded(double v) {
  std::ostringstream os;
  os << std::llround(v);
  return os.str();
}

// The constant_serialization probe: n distinct addresses in one line, or n
// lines when every address has its own line (a steeper cliff past 16 lines).
std::string constantCost(const HardwareProfile &p, int distinct, int lines, nlohmann::json &details) {
  auto one = p.constantLatencyCycles(1);
  std::optional<double> at;
  std::string layout = "one_line";
  if (lines == distinct && lines > 1)
    if (auto v = p.find("constant_serialization", "latency_cycles",
                        {{"distinct_addresses", distinct}, {"layout", "distinct_lines"}}))
      at = v->median, layout = "distinct_lines";
  if (!at)
    at = p.constantLatencyCycles(distinct);
  if (!one || !at)
    return {};
  nlohmann::json cost = profileIdentity(p);
  cost["load_latency_cycles"] = *at;
  cost["broadcast_latency_cycles"] = *one;
  cost["layout"] = layout;
  details["measured_cost"] = cost;
  return "about " + rounded(*at) + " cycles a load against " + rounded(*one) + " for one address on " +
         p.deviceName();
}

const char *kAlternatives =
    "instead: read the table from global memory through the read-only path (a `const __restrict__` pointer "
    "parameter or `__ldg`), or stage it in shared memory; both serve distinct addresses in parallel";

class ConstantDivergentAccess : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    for (const MemoryAccess &a : k.accesses) {
      if (a.space != AddressSpace::Constant)
        continue;
      if (a.worstEval >= 0) {
        const WarpAccessEval &e = worstEvaluation(a);
        if (e.distinctAddresses >= 2 && !e.uniform)
          out.push_back(divergent(k, a, e, ctx));
      } else if (a.unevaluatedClass == "data-dependent index") {
        if (const MemoryAccess *load = laneVaryingLoad(k, a))
          out.push_back(dataDependent(k, a, *load, ctx));
      }
    }
  }

private:
  static bool sameChain(const std::vector<SourceLocation> &x, const std::vector<SourceLocation> &y) {
    if (x.size() != y.size())
      return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].file != y[i].file || x[i].line != y[i].line || x[i].column != y[i].column)
        return false;
    return true;
  }

  // A load the index reads whose lanes read different addresses: then the
  // lanes' index values come from different data.
  static const MemoryAccess *laneVaryingLoad(const KernelInfo &k, const MemoryAccess &a) {
    for (const SourceLocation &at : a.indexLoads)
      for (const MemoryAccess &b : k.accesses)
        if (&b != &a && b.loc.line == at.line && b.loc.column == at.column && b.loc.file == at.file &&
            b.isRead && b.worstEval >= 0 && sameChain(a.callChain, b.callChain)) {
          const WarpAccessEval &e = worstEvaluation(b);
          bool allVary = true; // every evaluated warp, not only the worst
          for (const WarpAccessEval &x : b.evals)
            allVary = allVary && !x.uniform && x.distinctAddresses >= 2;
          if (allVary && e.activeLanes >= 2)
            return &b;
        }
    return nullptr;
  }

  static Finding base(const KernelInfo &k, const MemoryAccess &a) {
    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = a.loc;
    f.kernel = k.name;
    f.details["subject"] = a.base;
    return f;
  }

  static Finding divergent(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e, const RuleContext &ctx) {
    Finding f = base(k, a);
    nlohmann::json context = contextDetails(k, a, e);
    for (auto &[key, value] : context.items())
      f.details[key] = value;
    f.details["distinct_addresses"] = e.distinctAddresses;
    f.details["distinct_lines"] = e.distinctLines;
    std::ostringstream msg;
    msg << "the lanes of a warp read " << e.distinctAddresses << " distinct addresses of __constant__ '" << a.base
        << "': constant memory serves them one at a time";
    if (ctx.profile) {
      std::string cost = constantCost(*ctx.profile, e.distinctAddresses, e.distinctLines, f.details);
      if (!cost.empty())
        msg << "; " << cost;
    }
    f.message = msg.str();
    std::ostringstream lanes;
    lanes << e.activeLanes << " active lanes, " << e.distinctAddresses << " addresses in " << e.distinctLines
          << (e.distinctLines == 1 ? " 128-byte line" : " 128-byte lines");
    if (e.laneStrideKnown && e.laneStrideBytes != 0)
      lanes << "; consecutive lanes are " << e.laneStrideBytes << " bytes apart";
    f.notes.push_back({{}, lanes.str()});
    addContextNotes(k, a, e, f.notes);
    f.notes.push_back({{}, kAlternatives});
    return f;
  }

  static Finding dataDependent(const KernelInfo &k, const MemoryAccess &a, const MemoryAccess &load,
                               const RuleContext &ctx) {
    Finding f = base(k, a);
    const WarpAccessEval &e = worstEvaluation(load);
    int most = e.activeLanes;
    f.details["array"] = a.base;
    f.details["expression"] = a.text;
    f.details["distinct_addresses"] = "data-dependent";
    f.details["max_distinct_addresses"] = most;
    f.details["index_load"] = load.text;
    std::ostringstream msg;
    msg << "the lanes of a warp read __constant__ '" << a.base << "' at subscripts loaded from memory "
        << "(data-dependent, up to " << most << " distinct addresses): constant memory serves them one at a time";
    if (ctx.profile) {
      std::string cost = constantCost(*ctx.profile, most, 1, f.details);
      if (!cost.empty())
        msg << "; up to " << cost;
    }
    f.message = msg.str();
    f.notes.push_back({load.loc, "the subscript comes from '" + load.text + "', which lanes read at different addresses"});
    for (auto it = a.callChain.rbegin(); it != a.callChain.rend(); ++it)
      f.notes.push_back({*it, "in the call from '" + k.name + "' here"});
    f.notes.push_back({{}, kAlternatives});
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeConstantDivergentAccessRule() { return std::make_unique<ConstantDivergentAccess>(); }

} // namespace warplint
