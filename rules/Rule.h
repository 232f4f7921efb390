// One rule = one guideline of the seeds: a registry entry (what it is, why,
// what to write instead) and a check over the analyzer's facts.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warplint {

class HardwareProfile; // analyzer/HardwareProfile.h

// Everything a rule's documentation needs; docs/rules/*.md are generated from
// these entries and a test fails when the committed docs drift.
struct RuleInfo {
  std::string id;          // stable kebab-case id, e.g. "shared-bank-conflict"
  std::string title;
  std::string guideline;   // seed guideline id, e.g. "S_1"
  std::string seed;        // where the guideline comes from, e.g. "Fang et al. 2018, section 7.2"
  std::string rationale;
  std::string badExample;  // CUDA code the rule flags
  std::string goodExample; // the same code written right
  std::string fixSafety;   // "none" until a rewrite exists; later "safe"/"unsafe" with reason
};

struct RuleContext {
  const HardwareProfile *profile = nullptr; // may be null: messages then carry no measured cost
  bool assumeNoAlias = false; // --assume-no-alias: pointer parameters never alias
};

class Rule {
public:
  virtual ~Rule() = default;
  virtual const RuleInfo &info() const = 0;
  // Called once per kernel; appends findings.
  virtual void check(const KernelInfo &kernel, const RuleContext &ctx,
                     std::vector<Finding> &out) const = 0;
  // Called once per unit, after the kernels: rules over the unit's host code
  // (rules/host/HostRule.h). Their findings belong to no kernel
  // (Finding::kernelIndex stays -1).
  virtual void checkUnit(const TranslationUnitResult &, const RuleContext &, std::vector<Finding> &) const {}
};

// All rules, in registry order.
const std::vector<std::unique_ptr<Rule>> &allRules();

// Runs every enabled rule over every kernel of every unit.
struct RuleOptions {
  std::vector<std::string> enabled; // empty: all (unless `enabledGiven`)
  bool enabledGiven = false;        // `enabled` is the list even when empty (a config disabling every rule)
  // Rules whose warnings are reported as errors (a config's warnings-as-errors).
  std::vector<std::string> warningsAsErrors;
  bool allWarningsAsErrors = false;
};
std::vector<Finding> runRules(const AnalysisResults &results, const RuleContext &ctx,
                              const RuleOptions &opts = {});

// The context and options for the unit at `index` (each file may have its
// own configuration).
struct UnitRuleSettings {
  const RuleContext *ctx = nullptr;
  const RuleOptions *opts = nullptr;
};
std::vector<Finding> runRules(const AnalysisResults &results,
                              const std::function<UnitRuleSettings(size_t unitIndex)> &settings);

} // namespace warplint
