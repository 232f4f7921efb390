// readonly-param (T_1-T_4, G_1): a kernel pointer parameter that is only read
// should say so. `const T *` lets the compiler use the read-only (texture)
// data path for its loads; `__restrict__` is added only where no other
// pointer parameter can alias it, shown at every visible launch (distinct
// allocations) or assumed with --assume-no-alias.
#include "rules/AllRules.h"

#include <sstream>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "readonly-param",
    "Read-only pointer parameter not declared const",
    "T_4",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), sections 7.4 (G_1) and 7.5 (T_1-T_4)",
    "The texture/read-only path broadcasts and serves parallel accesses (T_1), needs no alignment (T_2) "
    "and has a much lower latency than global memory for non-consecutive reads (T_4). Since Kepler, a "
    "kernel uses it without texture objects when the compiler can prove the data read-only for the whole "
    "kernel: a pointer declared `const T *__restrict__`. A parameter that is only read but declared `T *` "
    "hides that fact; `const` alone documents it and catches stray writes, `__restrict__` (no other "
    "pointer of the kernel aliases it) lets the loads go through the read-only cache. Data every lane "
    "reads at the same index broadcasts best from __constant__ memory (C_2, G_1).",
    "__global__ void gather(float *out, float *in, const int *idx, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[idx[i]]; // in is only read\n"
    "}",
    "__global__ void gather(float *out, const float *__restrict__ in, const int *idx, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[idx[i]];\n"
    "}",
    "safe (applied by --fix): adds `const` to the pointee of a parameter whose every use, through "
    "locals, pointer arithmetic, casts and calls into visible functions, only reads; passing it to a "
    "function that takes a non-const pointer and is not analyzed counts as a write. `__restrict__` is "
    "added only when every visible launch passes distinct allocations (different variables, each from "
    "its own cudaMalloc) for the kernel's pointer parameters, or under --assume-no-alias; the finding "
    "says which. Every declaration of the kernel (forward declarations, headers) gets the same `const`; "
    "where the signature is also spelled in a place the fix cannot edit (an explicit instantiation or "
    "specialization, a function-pointer type the kernel is converted to, a macro, a system header) no fix "
    "is offered and the note says where. __constant__ memory is advice only (the host code must change). "
    "The file is re-analyzed after the edit and the fix rolled back if it does not compile or leaves a "
    "declaration of the kernel that is never defined.",
};

std::string lineOf(const LaunchSite &l) { return "line " + std::to_string(l.loc.line); }

// "" with `why` set to the justification when __restrict__ is shown safe,
// else the reason it is not added.
std::string restrictRefusal(const KernelInfo &k, size_t i, const RuleContext &ctx, std::string &why) {
  if (ctx.assumeNoAlias) {
    why = "--assume-no-alias";
    return "";
  }
  if (k.launchSites.empty())
    return "no launch of '" + k.name + "' is visible to show that no other pointer parameter aliases it";
  std::string lines;
  for (const LaunchSite &l : k.launchSites) {
    if (l.argAllocations.size() != k.params.size() || l.argAllocations[i].empty())
      return "the launch at " + lineOf(l) + " does not pass it a variable holding its own cudaMalloc allocation";
    for (size_t j = 0; j < k.params.size(); ++j) {
      if (j == i || !k.params[j].isPointer)
        continue;
      if (l.argAllocations[j].empty())
        return "the launch at " + lineOf(l) + " passes '" + k.params[j].name +
               "' something not shown to be a distinct allocation";
      if (l.argAllocations[j] == l.argAllocations[i])
        return "the launch at " + lineOf(l) + " passes the same allocation as '" + k.params[i].name + "' and '" +
               k.params[j].name + "'";
    }
    lines += (lines.empty() ? "" : ", ") + std::to_string(l.loc.line);
  }
  why = "every visible launch (line" + std::string(k.launchSites.size() > 1 ? "s " : " ") + lines +
        ") passes distinct cudaMalloc allocations for its pointer parameters";
  return "";
}

bool broadcastOnly(const KernelInfo &k, const std::string &name) {
  int reads = 0;
  for (const MemoryAccess &a : k.accesses) {
    if (a.base != name || a.space != AddressSpace::Global)
      continue;
    if (a.evals.empty())
      return false;
    for (const WarpAccessEval &e : a.evals)
      if (!e.uniform)
        return false;
    ++reads;
  }
  return reads > 0;
}

class ReadonlyParam : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    if (!k.isGlobal)
      return;
    for (size_t i = 0; i < k.params.size(); ++i) {
      const ParamInfo &p = k.params[i];
      if (!p.isPointer || p.pointeeConst || !p.onlyRead || !p.readAtAll || p.elementSize <= 0)
        continue;
      out.push_back(makeFinding(k, i, ctx));
    }
  }

private:
  static Finding makeFinding(const KernelInfo &k, size_t i, const RuleContext &ctx) {
    const ParamInfo &p = k.params[i];
    Finding f;
    f.rule = kInfo.id;
    // A note, not a warning: nothing is slow today, the code only fails to
    // tell the compiler what it could exploit.
    f.severity = "note";
    f.loc = p.loc;
    f.kernel = k.name;
    f.details["subject"] = p.name;
    std::string justification;
    std::string noRestrict = p.isRestrict ? "" : restrictRefusal(k, i, ctx, justification);
    bool addRestrict = !p.isRestrict && noRestrict.empty() && p.restrictInsertAt.valid();
    std::string spelled = "const " + p.elementType + " *" + (addRestrict || p.isRestrict ? "__restrict__ " : "") + p.name;
    f.message = "pointer parameter '" + p.name + "' is only read: declare it '" + spelled +
                "' so its loads can use the read-only data path";
    nlohmann::json fix = {{"kind", "const"}, {"const", true}};
    if (addRestrict) {
      f.notes.push_back({{}, "__restrict__ added: " + justification});
      fix["restrict"] = {{"added", true}, {"because", justification}};
    } else if (!p.isRestrict) {
      std::string why = noRestrict.empty() ? "the '*' is not written at the declaration" : noRestrict;
      f.notes.push_back({{}, "__restrict__ not added: " + why + " (--assume-no-alias asserts it)"});
      fix["restrict"] = {{"added", false}, {"reason", why}};
    }
    if (!p.constFixBlocker.empty()) {
      fix["safety"] = "refused";
      fix["reason"] = "const on the parameter alone would not compile: " + p.constFixBlocker;
      f.notes.push_back({{}, "no fix: const on the parameter alone would not compile: " + p.constFixBlocker +
                                 "; make that const too"});
    } else if (p.constInsertAt.valid() && !p.signatureFixBlocker.empty()) {
      fix["safety"] = "refused";
      fix["reason"] = "the signature is spelled where the fix cannot follow: " + p.signatureFixBlocker;
      f.notes.push_back({{}, "no fix: the signature is spelled where the fix cannot follow: " + p.signatureFixBlocker});
    } else if (p.constInsertAt.valid()) {
      Fix x;
      x.subject = p.name;
      x.description = "declare '" + p.name + "' as '" + spelled + "'";
      // Every declaration gets the same `const`, or the definition would
      // become an overload of its own forward declaration.
      x.replacements.push_back({p.constInsertAt.file, p.constInsertAt.offset, 0, "const "});
      for (const SourceSpan &at : p.redeclConstInsertAt)
        x.replacements.push_back({at.file, at.offset, 0, "const "});
      if (!p.redeclConstInsertAt.empty())
        x.description += " (and in its " + std::to_string(p.redeclConstInsertAt.size()) + " other declaration" +
                         (p.redeclConstInsertAt.size() == 1 ? ")" : "s)");
      if (addRestrict)
        x.replacements.push_back({p.restrictInsertAt.file, p.restrictInsertAt.offset, 0, "__restrict__ "});
      f.fixes.push_back(x);
      fix["safety"] = "safe";
      f.notes.push_back({{}, "fix (--fix): " + x.description});
    } else {
      fix["safety"] = "refused";
      fix["reason"] = "the pointee type is not written at the declaration (a macro or a typedef)";
      f.notes.push_back({{}, "no fix: the pointee type is not written at the declaration (a macro or a typedef)"});
    }
    if (broadcastOnly(k, p.name)) {
      f.notes.push_back({{}, "every lane reads '" + p.name + "' at the same index: if it fits in 64 KB, a "
                             "__constant__ array broadcasts it (advice only, not applied: declare "
                             "`__constant__ " + p.elementType + " " + p.name + "_c[N];`, copy it on the host with "
                             "cudaMemcpyToSymbol(" + p.name + "_c, host, bytes) instead of passing a device "
                             "pointer, and read the symbol in the kernel)"});
      f.details["constant_advice"] = true;
    }
    f.details["fix"] = fix;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeReadonlyParamRule() { return std::make_unique<ReadonlyParam>(); }

} // namespace warplint
