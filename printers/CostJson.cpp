#include "printers/CostJson.h"

#include <cmath>

namespace warplint {

namespace {
double round3(double v) { return std::round(v * 1000) / 1000; }
} // namespace

nlohmann::ordered_json kernelCostJson(const KernelCostReport &r) {
  const KernelCost &c = r.asWritten;
  nlohmann::ordered_json j;
  j["kernel"] = r.kernel;
  j["file"] = r.loc.file;
  j["line"] = r.loc.line;
  j["profile"] = r.profileId;
  if (!c.computed) {
    j["not_computed"] = c.notComputed;
    return j;
  }
  j["time_us"] = round3(c.timeUs);
  j["bottleneck"] = c.bottleneck;
  // No part of the machine above kLatencyBoundShare of its peak (the
  // bottleneck is then the largest time, not a saturated unit).
  j["latency_bound"] = c.latencyBound;
  nlohmann::ordered_json peaks = nlohmann::ordered_json::object();
  for (auto &[part, share] : c.peakShares)
    peaks[part] = round3(share);
  j["peak_shares"] = peaks;
  j["serialized"] = c.serialized;
  nlohmann::ordered_json comps = nlohmann::ordered_json::object(), fractions = nlohmann::ordered_json::object(),
                         basis = nlohmann::ordered_json::object();
  double sum = 0;
  for (const CostComponent &x : c.components)
    sum += x.us;
  for (const CostComponent &x : c.components) {
    comps[x.name] = round3(x.us);
    fractions[x.name] = sum > 0 ? round3(x.us / sum) : 0.0;
    basis[x.name] = x.basis;
  }
  j["components_us"] = comps;
  j["fractions"] = fractions;
  j["basis"] = basis;
  j["occupancy"] = {{"blocks_per_sm", c.occupancy.blocksPerSm},
                    {"warps_per_sm", c.occupancy.warpsPerSm},
                    {"limited_by", c.occupancy.limitedBy},
                    {"registers_per_thread", c.occupancy.registersPerThread},
                    {"registers_source", c.occupancy.registersSource},
                    {"shared_bytes_per_block", c.occupancy.sharedBytesPerBlock}};
  j["grid_blocks"] = c.gridBlocks;
  j["blocks_per_sm_work"] = c.blocksPerSmWork;
  if (r.allFixesSpeedup)
    j["all_fixes_speedup"] = round3(*r.allFixesSpeedup);
  if (r.allFindingsSpeedup)
    j["all_findings_speedup"] = round3(*r.allFindingsSpeedup);
  if (!r.ruleSpeedups.empty()) {
    nlohmann::ordered_json rules = nlohmann::ordered_json::object();
    for (auto &[rule, s] : r.ruleSpeedups)
      rules[rule] = round3(s);
    j["rule_speedups"] = rules;
  }
  j["assumptions"] = c.assumptions;
  return j;
}

nlohmann::ordered_json kernelWorkJson(const KernelInfo &k, const KernelWork &w) {
  nlohmann::ordered_json j;
  if (!w.computed) {
    j["not_computed"] = w.notComputed;
    return j;
  }
  j["block"] = {w.block.x, w.block.y, w.block.z};
  if (w.gridBlocks)
    j["grid_blocks"] = *w.gridBlocks;
  j["warp_instructions"] = round3(w.warpInstructions);
  j["sfu_warp_instructions"] = round3(w.sfuWarpInstructions);
  j["fp64_warp_instructions"] = round3(w.fp64WarpInstructions);
  j["barriers"] = w.barriers;
  j["static_shared_bytes"] = w.staticSharedBytes;
  j["accesses"] = nlohmann::ordered_json::array();
  for (const AccessWork &a : w.accesses) {
    const MemoryAccess &m = k.accesses[a.access];
    nlohmann::ordered_json x{{"line", m.loc.line},
                             {"column", m.loc.column},
                             {"expression", m.text},
                             {"space", addressSpaceName(m.space)},
                             {"counted", a.counted},
                             {"warp_executions", round3(a.warpExecutions)}};
    if (m.space == AddressSpace::Shared) {
      x["wavefronts"] = round3(a.wavefronts);
      x["ideal_wavefronts"] = round3(a.idealWavefronts);
    } else if (m.space == AddressSpace::Constant) {
      x["constant_addresses"] = round3(a.constantAddresses);
    } else {
      x["sectors"] = round3(a.sectors);
      x["ideal_sectors"] = round3(a.idealSectors);
      x["lines"] = round3(a.lines);
      x["distinct_sectors"] = round3(a.distinctSectors);
    }
    if (a.multiplier != 1)
      x["multiplier"] = round3(a.multiplier);
    if (!a.multiplierNotes.empty())
      x["multiplier_notes"] = a.multiplierNotes;
    if (!a.notCounted.empty())
      x["not_counted"] = a.notCounted;
    j["accesses"].push_back(std::move(x));
  }
  nlohmann::ordered_json trips = nlohmann::ordered_json::array();
  for (size_t i = 0; i < w.loopTrips.size() && i < k.loops.size(); ++i)
    trips.push_back({{"line", k.loops[i].loc.line},
                     {"trips", w.loopTrips[i] ? nlohmann::ordered_json(*w.loopTrips[i]) : nlohmann::ordered_json()}});
  j["loop_trips"] = trips;
  j["assumptions"] = w.assumptions;
  return j;
}

} // namespace warplint
