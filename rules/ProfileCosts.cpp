#include "rules/ProfileCosts.h"

#include <cmath>
#include <sstream>

namespace warplint {

namespace {

std::string rounded(double v) {
  std::ostringstream os;
  os << std::llround(v);
  return os.str();
}

std::string ratio(double v) {
  std::ostringstream os;
  if (v >= 10 || std::fabs(v - std::round(v)) < 0.05)
    os << std::llround(v);
  else
    os.precision(2), os << v;
  return os.str() + "x";
}

} // namespace

nlohmann::json profileIdentity(const HardwareProfile &p) {
  nlohmann::json j{{"id", p.profileId()}, {"device", p.deviceName()}, {"compute_capability", p.computeCapability()}};
  if (auto clk = p.smClockMHz())
    j["sm_clock_mhz"] = *clk;
  return j;
}

std::string sharedConflictCost(const HardwareProfile &p, int degree, nlohmann::json &details) {
  auto latency = p.sharedLoadLatencyCycles(degree);
  auto latency1 = p.sharedLoadLatencyCycles(1);
  auto throughput = p.sharedThroughputBytesPerClk(degree);
  auto throughput1 = p.sharedThroughputBytesPerClk(1);
  if (!latency || !latency1)
    return {};
  nlohmann::json cost = profileIdentity(p);
  cost["load_latency_cycles"] = *latency;
  cost["conflict_free_latency_cycles"] = *latency1;
  std::string text = "about " + rounded(*latency) + " cycles a load against " + rounded(*latency1) +
                     " conflict-free on " + p.deviceName();
  if (throughput && throughput1 && *throughput > 0) {
    cost["throughput_bytes_per_clk_sm"] = *throughput;
    cost["conflict_free_throughput_bytes_per_clk_sm"] = *throughput1;
    text += ", a " + ratio(*throughput1 / *throughput) + " throughput loss";
  }
  details["measured_cost"] = cost;
  return text;
}

std::string globalTrafficCost(const HardwareProfile &p, int sectors, int idealSectors, int64_t laneStrideBytes,
                              int64_t widthBytes, nlohmann::json &details) {
  nlohmann::json cost = profileIdentity(p);
  // The probe measured float gathers at strides 1..32 elements: use it when
  // the access is one.
  if (widthBytes == 4 && laneStrideBytes > 0 && laneStrideBytes % 4 == 0 && laneStrideBytes / 4 <= 32) {
    int stride = static_cast<int>(laneStrideBytes / 4);
    auto strided = p.globalBandwidthByStrideGBps(stride);
    auto unit = p.globalBandwidthByStrideGBps(1);
    if (strided && unit && *strided > 0) {
      cost["stride_elements"] = stride;
      cost["useful_bandwidth_gbps"] = *strided;
      cost["unit_stride_bandwidth_gbps"] = *unit;
      details["measured_cost"] = cost;
      return "a stride-" + std::to_string(stride) + " float access moves " + rounded(*strided) +
             " GB/s of useful data on " + p.deviceName() + " against " + rounded(*unit) + " GB/s at stride 1";
    }
  }
  auto dram = p.dramBandwidthGBps();
  if (!dram || idealSectors <= 0)
    return {};
  double useful = *dram * idealSectors / sectors;
  cost["dram_bandwidth_gbps"] = *dram;
  cost["useful_bandwidth_bound_gbps"] = useful;
  details["measured_cost"] = cost;
  return "of the " + rounded(*dram) + " GB/s measured on " + p.deviceName() + ", at most " + rounded(useful) +
         " GB/s carry useful bytes";
}

std::string narrowAccessCost(const HardwareProfile &p, int64_t widthBytes, nlohmann::json &details) {
  // The probe copies one element a thread of each type: char and char4,
  // short and int are the narrow and the packed form of the same bytes.
  const char *narrow = widthBytes == 1 ? "char" : widthBytes == 2 ? "short" : nullptr;
  const char *packed = widthBytes == 1 ? "char4" : "int";
  if (!narrow)
    return {};
  auto slow = p.globalBandwidthByTypeGBps(narrow), fast = p.globalBandwidthByTypeGBps(packed);
  if (!slow || !fast)
    return {};
  nlohmann::json cost = profileIdentity(p);
  cost["narrow_type"] = narrow;
  cost["narrow_bandwidth_gbps"] = *slow;
  cost["packed_type"] = packed;
  cost["packed_bandwidth_gbps"] = *fast;
  details["measured_cost"] = cost;
  return std::string(widthBytes == 1 ? "one-byte" : "two-byte") + " elements copy at " + rounded(*slow) +
         " GB/s on " + p.deviceName() + " against " + rounded(*fast) + " GB/s as " + packed + " (one element a thread)";
}

} // namespace warplint
