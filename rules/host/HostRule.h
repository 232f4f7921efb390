// Rules over a unit's host code (issue 20): not per kernel, but once per
// unit over analyzer/host/HostFacts.h. Their findings flow through the same
// stages as the kernel rules' (NOLINT, baselines, printers) with no kernel:
// Finding::kernel is empty and kernelIndex stays -1.
#pragma once

#include "analyzer/host/HostFacts.h"
#include "analyzer/profile/HardwareProfile.h"
#include "rules/Rule.h"

#include <optional>
#include <string>

namespace warplint {

class HostRule : public Rule {
public:
  void check(const KernelInfo &, const RuleContext &, std::vector<Finding> &) const final {}
  void checkUnit(const TranslationUnitResult &unit, const RuleContext &ctx, std::vector<Finding> &out) const final {
    if (unit.host)
      checkHost(unit, *unit.host, ctx, out);
  }
  virtual void checkHost(const TranslationUnitResult &unit, const HostFacts &facts, const RuleContext &ctx,
                         std::vector<Finding> &out) const = 0;
};

namespace host {

Finding makeFinding(const std::string &rule, const std::string &severity, const SourceLocation &loc,
                    const std::string &function, const std::string &message);
// "4 MiB", "1.5 KiB", "12 bytes".
std::string bytesText(int64_t bytes);
// "'h_a' (malloc at line 12)", or "(new[] at rewrite.h:78)" when the
// allocation is in another file than `fromFile`.
std::string describeOrigin(const BufferOrigin &o, const std::string &fromFile = "");
nlohmann::json originJson(const BufferOrigin &o);
nlohmann::json transferJson(const HostTransfer &t);
// "GB/s"-style figures from the active profile; nullopt when it lacks them.
// The measured sizes of host_transfer_bandwidth closest to `bytes` (at or
// below it; the smallest when below all); unknown sizes use 16 MiB.
int64_t measuredTransferSize(std::optional<int64_t> bytes);
std::optional<double> transferBandwidth(const HardwareProfile *p, const std::string &direction,
                                        const std::string &memory, int64_t measuredBytes);
// host_copy_latency at 4, 256 or 4096 bytes (the nearest at or above `bytes`, capped at 4096).
std::optional<double> copyLatencyUs(const HardwareProfile *p, const std::string &direction, const std::string &memory,
                                    int64_t bytes, int64_t &measuredBytes);
std::string deviceName(const HardwareProfile *p);
std::string fixed(double v, int digits);

} // namespace host
} // namespace warplint
