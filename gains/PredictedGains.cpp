#include "gains/PredictedGains.h"
#include "gains/SequenceGains.h"
#include "gains/WorkChanges.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace warplint {

const KernelCostReport *GainsResult::forKernel(size_t unit, size_t kernelIndex) const {
  for (const KernelCostReport &r : kernels)
    if (r.unit == unit && r.kernelIndex == kernelIndex)
      return &r;
  return nullptr;
}

std::optional<double> predictedGainPercent(const Finding &f) {
  auto it = f.details.find("predicted_kernel_speedup");
  if (it == f.details.end() || !it->is_number())
    return std::nullopt;
  return (it->get<double>() - 1) * 100;
}

namespace {

double round3(double v) { return std::round(v * 1000) / 1000; }

std::string boundPhrase(const std::string &bottleneck) {
  if (bottleneck == "issue")
    return "instruction-issue bound";
  if (bottleneck == "shared")
    return "shared-memory bound";
  if (bottleneck == "l1")
    return "L1-bound";
  if (bottleneck == "l2")
    return "L2-bound";
  if (bottleneck == "dram")
    return "DRAM-bound";
  if (bottleneck == "constant")
    return "constant-cache bound";
  return "bound by nothing the model measures";
}

std::string speedupText(double s) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(s < 10 ? 2 : 1);
  os << "~" << s << "x";
  return os.str();
}

nlohmann::json componentsJson(const KernelCost &c) {
  nlohmann::json j = nlohmann::json::object();
  for (const CostComponent &x : c.components)
    j[x.name] = round3(x.us);
  return j;
}

void attach(Finding &f, const std::string &kernel, const KernelCost &before, const KernelCost &after,
            double speedup, const std::string &change, const std::string &profileId) {
  f.details["predicted_kernel_speedup"] = round3(speedup);
  f.details["bottleneck"] = before.bottleneck;
  f.details["kernel_cost"] = {{"kernel", kernel},
                              {"profile", profileId},
                              {"change", change},
                              {"time_us", round3(before.timeUs)},
                              {"time_us_after", round3(after.timeUs)},
                              {"bottleneck_after", after.bottleneck},
                              {"components_us", componentsJson(before)},
                              {"components_us_after", componentsJson(after)}};
  std::string gain = speedup < 1.005 && speedup > 0.995 ? "no change the model can see (~1.00x)"
                                                        : speedupText(speedup) + " on this kernel";
  std::string bound = boundPhrase(before.bottleneck);
  if (before.latencyBound)
    bound = "latency-bound (no unit near its peak; largest part: " + before.bottleneck + ")";
  f.notes.push_back({{}, "kernel " + kernel + ": " + bound + " (model: " + before.shares() +
                             "); " + change + ": " + gain + " (" + profileId + " profile; --explain shows the model)"});
}

std::string kernelLabel(const KernelInfo &k) { return k.name + k.templateArgs; }

} // namespace

GainsResult attachPredictedGains(const AnalysisResults &results, std::vector<Finding> &findings,
                                 const UnitProfile &profileOf) {
  GainsResult out;
  std::map<std::pair<size_t, size_t>, std::vector<size_t>> byKernel;
  for (size_t i = 0; i < findings.size(); ++i)
    if (findings[i].unit != static_cast<size_t>(-1))
      byKernel[{findings[i].unit, findings[i].kernelIndex}].push_back(i);

  for (size_t u = 0; u < results.units.size(); ++u) {
    const HardwareProfile *profile = profileOf(u);
    const TranslationUnitResult &unit = results.units[u];
    for (size_t ki = 0; ki < unit.kernels.size(); ++ki) {
      const KernelInfo &k = unit.kernels[ki];
      std::vector<size_t> mine = byKernel[{u, ki}];
      auto noPrediction = [&](const std::string &why) {
        for (size_t i : mine)
          findings[i].details["predicted_kernel_speedup_unavailable"] = why;
      };
      if (!k.isGlobal) {
        noPrediction("a __device__ function analyzed on its own: no launch to cost");
        continue;
      }
      if (!profile) {
        noPrediction("no hardware profile");
        continue;
      }
      if (!k.work || !k.work->computed) {
        noPrediction(k.work ? k.work->notComputed : "the cost model was not run (--no-cost-model)");
        continue;
      }
      WorkState asWritten{*k.work, {}};
      for (size_t i : mine)
        if (findings[i].rule == "private-array-local-memory")
          if (auto a = findings[i].details.find("array"); a != findings[i].details.end() && a->is_string())
            asWritten.options.localArrays.insert(a->get<std::string>());
      KernelCostReport report;
      report.unit = u;
      report.kernelIndex = ki;
      report.kernel = kernelLabel(k);
      report.loc = k.loc;
      report.profileId = profile->profileId();
      report.asWritten = estimateKernelCost(k, asWritten.work, *profile, asWritten.options);
      if (!report.asWritten.computed) {
        noPrediction(report.asWritten.notComputed);
        out.kernels.push_back(std::move(report));
        continue;
      }
      WorkState allFixes = asWritten, allFindings = asWritten;
      std::map<std::string, WorkState> byRule;
      bool anyFix = false, anyChange = false;
      for (size_t i : mine) {
        Finding &f = findings[i];
        WorkState s = asWritten;
        std::string change, why;
        if (!applyFindingChange(f, k, s, change, why)) {
          f.details["predicted_kernel_speedup_unavailable"] = why;
          continue;
        }
        KernelCost after = estimateKernelCost(k, s.work, *profile, s.options);
        if (!after.computed) {
          f.details["predicted_kernel_speedup_unavailable"] = after.notComputed;
          continue;
        }
        double speedup = report.asWritten.timeUs / after.timeUs;
        attach(f, report.kernel, report.asWritten, after, speedup, change, report.profileId);
        std::string ignored;
        if (!f.fixes.empty() && applyFindingChange(f, k, allFixes, ignored, why))
          anyFix = true;
        if (applyFindingChange(f, k, allFindings, ignored, why))
          anyChange = true;
        auto rule = byRule.emplace(f.rule, asWritten).first;
        applyFindingChange(f, k, rule->second, ignored, why);
      }
      if (anyFix) {
        KernelCost c = estimateKernelCost(k, allFixes.work, *profile, allFixes.options);
        if (c.computed)
          report.allFixesSpeedup = report.asWritten.timeUs / c.timeUs;
      }
      if (anyChange) {
        KernelCost c = estimateKernelCost(k, allFindings.work, *profile, allFindings.options);
        if (c.computed)
          report.allFindingsSpeedup = report.asWritten.timeUs / c.timeUs;
      }
      for (auto &[rule, state] : byRule) {
        KernelCost c = estimateKernelCost(k, state.work, *profile, state.options);
        if (c.computed)
          report.ruleSpeedups[rule] = report.asWritten.timeUs / c.timeUs;
      }
      out.kernels.push_back(std::move(report));
    }
  }
  // Host-side findings: priced on the GPU work of their host function, with
  // the kernels' times just computed.
  attachSequenceGains(results, out, findings, profileOf);
  return out;
}

} // namespace warplint
