#include "rules/host/HostRule.h"

#include <cstdio>

namespace warplint::host {

Finding makeFinding(const std::string &rule, const std::string &severity, const SourceLocation &loc,
                    const std::string &function, const std::string &message) {
  Finding f;
  f.rule = rule;
  f.severity = severity;
  f.loc = loc;
  f.message = message;
  f.details["host_function"] = function;
  f.details["predicted_kernel_speedup_unavailable"] = "a host-side finding: the kernel cost model prices kernels only";
  return f;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string bytesText(int64_t b) {
  auto unit = [&](double scale, const char *name) {
    double v = static_cast<double>(b) / scale;
    std::string s = v == static_cast<double>(static_cast<int64_t>(v)) ? std::to_string(static_cast<int64_t>(v)) : fixed(v, 1);
    return s + " " + name;
  };
  if (b >= (int64_t(1) << 30)) return unit(double(int64_t(1) << 30), "GiB");
  if (b >= (int64_t(1) << 20)) return unit(double(int64_t(1) << 20), "MiB");
  if (b >= 1024) return unit(1024.0, "KiB");
  return std::to_string(b) + (b == 1 ? " byte" : " bytes");
}

std::string describeOrigin(const BufferOrigin &o, const std::string &fromFile) {
  std::string s = "'" + o.variable + "'";
  std::string where = o.allocator;
  if (o.allocLoc.valid()) {
    std::string file = o.allocLoc.file.substr(o.allocLoc.file.find_last_of('/') + 1);
    where += (where.empty() ? "" : " ") + std::string("at ") +
             (fromFile.empty() || o.allocLoc.file == fromFile ? "line " : file + ":") + std::to_string(o.allocLoc.line);
  }
  if (!where.empty())
    s += " (" + where + ")";
  return s;
}

nlohmann::json originJson(const BufferOrigin &o) {
  nlohmann::json j = {{"memory", memoryOriginName(o.kind)}};
  if (!o.allocator.empty()) j["allocator"] = o.allocator;
  if (!o.variable.empty()) j["variable"] = o.variable;
  if (o.allocLoc.valid()) j["allocation_line"] = o.allocLoc.line;
  if (!o.unknownReason.empty()) j["unknown_reason"] = o.unknownReason;
  if (o.allocBytes) j["allocation_bytes"] = *o.allocBytes;
  if (o.scalar) j["scalar"] = true;
  return j;
}

nlohmann::json transferJson(const HostTransfer &t) {
  nlohmann::json j = {{"api", t.api}, {"direction", copyDirectionName(t.direction)}, {"size", t.sizeText},
                      {"dst", originJson(t.dst)}, {"src", originJson(t.src)}};
  if (t.sizeBytes) j["size_bytes"] = *t.sizeBytes;
  if (t.twoD) j["height"] = t.heightText;
  if (t.async) j["stream"] = t.stream.text.empty() ? "default" : t.stream.text;
  nlohmann::json loops = nlohmann::json::array();
  for (const HostLoop &l : t.loops) {
    nlohmann::json lj = {{"line", l.loc.line}, {"kind", l.kind}};
    if (!l.inductionVar.empty()) lj["var"] = l.inductionVar;
    if (l.tripCount) lj["trip_count"] = *l.tripCount;
    loops.push_back(lj);
  }
  if (!loops.empty()) j["loops"] = loops;
  return j;
}

int64_t measuredTransferSize(std::optional<int64_t> bytes) {
  static const int64_t sizes[] = {4096, 65536, 1048576, 16777216, 268435456};
  if (!bytes)
    return 16777216;
  int64_t best = sizes[0];
  for (int64_t s : sizes)
    if (s <= *bytes)
      best = s;
  return best;
}

std::optional<double> transferBandwidth(const HardwareProfile *p, const std::string &direction,
                                        const std::string &memory, int64_t measuredBytes) {
  if (!p)
    return std::nullopt;
  auto v = p->find("host_transfer_bandwidth", "bandwidth_gbps",
                   {{"direction", direction}, {"memory", memory}, {"bytes", static_cast<double>(measuredBytes)}});
  return v ? std::optional<double>(v->median) : std::nullopt;
}

std::optional<double> copyLatencyUs(const HardwareProfile *p, const std::string &direction, const std::string &memory,
                                    int64_t bytes, int64_t &measuredBytes) {
  measuredBytes = bytes <= 4 ? 4 : bytes <= 256 ? 256 : 4096;
  if (!p)
    return std::nullopt;
  auto v = p->find("host_copy_latency", "time_us",
                   {{"direction", direction}, {"memory", memory}, {"bytes", static_cast<double>(measuredBytes)}});
  return v ? std::optional<double>(v->median) : std::nullopt;
}

std::string deviceName(const HardwareProfile *p) { return p ? p->deviceName() : ""; }

} // namespace warplint::host
