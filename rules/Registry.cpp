// The rule registry: the one list of rules, in the order they are documented
// and reported, and the loop that runs them over the analyzer's facts.
#include "rules/AllRules.h"
#include "rules/Rule.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace warplint {

const std::vector<std::unique_ptr<Rule>> &allRules() {
  // Built on first use so that rule constructors never run during static
  // initialization of other translation units.
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(makeSharedBankConflictRule());
    r.push_back(makeGlobalUncoalescedRule());
    r.push_back(makeReadonlyParamRule());
    r.push_back(makeGlobalNarrowAccessRule());
    r.push_back(makePrivateArrayLocalMemoryRule());
    r.push_back(makeConstantDivergentAccessRule());
    r.push_back(makeSharedStagingCandidateRule());
    r.push_back(makeSharedStagingNoReuseRule());
    r.push_back(makeWarpShuffleCandidateRule());
    r.push_back(makeHostPageableTransferRule());
    r.push_back(makeHostTransferBatchingRule());
    r.push_back(makeHostTransferNoOverlapRule());
    r.push_back(makeManagedMemoryNoPrefetchRule());
    return r;
  }();
  return rules;
}

static bool isEnabled(const RuleOptions &opts, const std::string &id) {
  return (opts.enabled.empty() && !opts.enabledGiven) ||
         std::find(opts.enabled.begin(), opts.enabled.end(), id) != opts.enabled.end();
}

static bool isError(const RuleOptions &opts, const std::string &id) {
  return opts.allWarningsAsErrors ||
         std::find(opts.warningsAsErrors.begin(), opts.warningsAsErrors.end(), id) != opts.warningsAsErrors.end();
}

// A verdict on an access evaluated with a guard parameter at a small value
// (MemoryAccess::guardValueAssumed) holds for that value only: a note.
static void downgradeGuardValueVerdicts(const TranslationUnitResult &unit, Finding &f) {
  if (f.severity != "warning")
    return;
  for (const KernelInfo &k : unit.kernels) {
    if (k.name != f.kernel)
      continue;
    for (const MemoryAccess &a : k.accesses)
      if (!a.guardValueAssumed.empty() && a.loc.file == f.loc.file && a.loc.line == f.loc.line &&
          a.loc.column == f.loc.column) {
        f.severity = "note";
        f.message += " (only known with " + a.guardValueAssumed + ")";
        return;
      }
  }
}

std::vector<Finding> runRules(const AnalysisResults &results, const RuleContext &ctx,
                              const RuleOptions &opts) {
  return runRules(results, [&](size_t) { return UnitRuleSettings{&ctx, &opts}; });
}

std::vector<Finding> runRules(const AnalysisResults &results,
                              const std::function<UnitRuleSettings(size_t unitIndex)> &settings) {
  std::vector<Finding> all;
  // A kernel defined in a header is analyzed once per unit that includes it;
  // its findings are reported once.
  std::set<std::tuple<std::string, std::string, unsigned, unsigned, std::string, std::string>> seen;
  for (size_t u = 0; u < results.units.size(); ++u) {
    const TranslationUnitResult &unit = results.units[u];
    UnitRuleSettings s = settings(u);
    std::vector<Finding> unitFindings;
    for (size_t ki = 0; ki < unit.kernels.size(); ++ki) {
      size_t before = unitFindings.size();
      for (const auto &rule : allRules())
        if (isEnabled(*s.opts, rule->info().id))
          rule->check(unit.kernels[ki], *s.ctx, unitFindings);
      for (size_t i = before; i < unitFindings.size(); ++i) {
        unitFindings[i].unit = u;
        unitFindings[i].kernelIndex = ki;
      }
    }
    // Host-side rules: once per unit, findings of no kernel.
    size_t before = unitFindings.size();
    for (const auto &rule : allRules())
      if (isEnabled(*s.opts, rule->info().id))
        rule->checkUnit(unit, *s.ctx, unitFindings);
    for (size_t i = before; i < unitFindings.size(); ++i)
      unitFindings[i].unit = u;
    // Report in source order within a unit (kernels and rules interleave
    // otherwise); stable so that findings at one location keep rule order.
    std::stable_sort(unitFindings.begin(), unitFindings.end(),
                     [](const Finding &a, const Finding &b) {
                       return std::tie(a.loc.file, a.loc.line, a.loc.column) <
                              std::tie(b.loc.file, b.loc.line, b.loc.column);
                     });
    for (Finding &f : unitFindings) {
      downgradeGuardValueVerdicts(unit, f);
      if (f.severity == "warning" && isError(*s.opts, f.rule))
        f.severity = "error";
      if (seen.emplace(f.rule, f.loc.file, f.loc.line, f.loc.column, f.kernel, f.message).second)
        all.push_back(std::move(f));
    }
  }
  return all;
}

} // namespace warplint
