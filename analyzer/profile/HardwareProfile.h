// HardwareProfile: the measured memory-hierarchy figures of one GPU, as
// written by warplint-probe (probes/) and described by
// probes/profile.schema.json. Rules use it to put a cost on a finding
// ("32-way bank conflict: about 91 cycles a load against 29 conflict-free on
// NVIDIA H100 80GB HBM3").
//
// Loading validates the profile (schema name and version, required fields,
// every value with median/min/max/runs/unit/probe/method, at least 7 runs) and
// throws ProfileError with a message naming the origin and the field.
//
// Every lookup returns std::nullopt when the profile holds no such value: a
// profile only contains what a probe measured, and callers must phrase their
// message without a number then. Nothing is ever estimated here.
//
// Typical use:
//   auto p = warplint::HardwareProfile::load(opt.empty() ? "h100" : opt);  // name or file
//   if (auto c = p.sharedLoadLatencyCycles(32)) ...  // cycles a load, 32-way conflict
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace warplint {

class ProfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One measured value: statistics over the probe's repeated runs.
struct MeasuredValue {
  double median = 0, min = 0, max = 0;
  int runs = 0;
  std::string unit;    // "cycles", "GB/s", "B/clk/SM", ...
  std::string probe;   // probe id, e.g. "shared_bank_conflicts"
  std::string method;  // how it was measured, one sentence
};

// A parameter value in a lookup or in a profile: a number or a string.
struct ParamValue {
  bool isNumber = false;
  double number = 0;
  std::string text;
  ParamValue(double v) : isNumber(true), number(v) {}   // NOLINT: implicit on purpose
  ParamValue(int v) : isNumber(true), number(v) {}      // NOLINT
  ParamValue(const char* s) : text(s) {}                // NOLINT
  ParamValue(std::string s) : text(std::move(s)) {}     // NOLINT
  bool operator==(const ParamValue& o) const {
    return isNumber == o.isNumber && (isNumber ? number == o.number : text == o.text);
  }
};
using Params = std::map<std::string, ParamValue>;

class HardwareProfile {
 public:
  static constexpr int kSchemaVersion = 1;
  static constexpr int kMinRuns = 7;

  // --- loading (all throw ProfileError) ---
  static HardwareProfile fromJson(const std::string& text, const std::string& origin = "<string>");
  static HardwareProfile fromFile(const std::string& path);
  // A profile compiled into the binary: "h100", "h200" (see bundledNames()).
  static HardwareProfile bundled(const std::string& name);
  // A bundled name if it is one, otherwise a file path.
  static HardwareProfile load(const std::string& nameOrPath);
  static std::vector<std::string> bundledNames();
  // The JSON text of a bundled name or a file, after the same validation as
  // load() (for reports that show every value, not only the looked-up ones).
  static std::string loadText(const std::string& nameOrPath);
  // The bundled H100 profile; nullopt when the build embedded none.
  static std::optional<HardwareProfile> defaultProfile();

  // --- identity ---
  const std::string& profileId() const { return profileId_; }
  const std::string& deviceName() const { return deviceName_; }
  const std::string& computeCapability() const { return computeCapability_; }  // "9.0"
  int smCount() const { return smCount_; }
  // SM clock sampled (NVML) during the probe run; else the probe-measured clock.
  std::optional<double> smClockMHz() const;
  std::optional<double> theoreticalDramBandwidthGBps() const;
  // Device property the probe recorded: shared memory one block may use (opt-in maximum).
  std::optional<double> maxSharedBytesPerBlock() const;

  // --- shared memory ---
  // Latency of one warp's dependent 4-byte shared load at bank-conflict degree 1..32.
  std::optional<double> sharedLoadLatencyCycles(int degree) const;
  // Shared-load throughput in bytes/clock/SM at degree 1..32 (4-byte accesses).
  std::optional<double> sharedThroughputBytesPerClk(int degree) const;
  // 8- or 16-byte accesses, lane l reading element l*strideElements (1,2,4,..,32).
  std::optional<double> sharedWideThroughputBytesPerClk(int widthBytes, int strideElements) const;

  // --- global memory ---
  // Best tuned device copy (bytes read + written per second), GB/s = 1e9 B/s.
  std::optional<double> dramBandwidthGBps() const;
  std::optional<double> memcpyBandwidthGBps() const;  // cudaMemcpy device-to-device
  std::optional<double> sectorSizeBytes() const;      // L1 fetch granularity
  std::optional<double> l1LineBytes() const;
  std::optional<double> l1CapacityKiB() const;
  // Copy bandwidth by element type: char, char2, char4, short, int, float, float2, float4, double.
  std::optional<double> globalBandwidthByTypeGBps(const std::string& type) const;
  // float gather out[i] = in[i*stride] (stride 1..32), useful bytes per second.
  std::optional<double> globalBandwidthByStrideGBps(int strideElements) const;
  // float copy out[i] = in[i + offset] (offset 0..32 elements).
  std::optional<double> globalBandwidthByOffsetGBps(int offsetElements) const;

  // --- constant memory ---
  // Warp latency when its lanes read n distinct words of one line (n = 1..32).
  std::optional<double> constantLatencyCycles(int distinctAddresses) const;

  // --- latency ladder: register, shared, constant, l1_hit, readonly, local,
  //     l2_near, l2_far, l2_mixed, dram ---
  std::optional<double> latencyCycles(const std::string& level) const;
  std::optional<double> latencyNs(const std::string& level) const;

  // --- warp-level capabilities (seed 000 Table 2): shared, constant, global, readonly ---
  std::optional<bool> supportsBroadcast(const std::string& space) const;
  std::optional<bool> supportsParallel(const std::string& space) const;

  // --- compile-time probe: largest register-resident private array ---
  // arch "sm_90", pattern "vector_add" | "matrix_multiply" | "sort".
  std::optional<int> largestRegisterArray(const std::string& arch, const std::string& pattern) const;

  // --- generic: the first value of `probe`/`name` whose params include `params` ---
  std::optional<MeasuredValue> find(const std::string& probe, const std::string& name,
                                    const Params& params = {}) const;
  size_t valueCount() const { return values_.size(); }

 private:
  struct Entry {
    std::string probe, name;
    Params params;
    MeasuredValue value;
  };
  std::optional<double> median(const std::string& probe, const std::string& name,
                               const Params& params) const;

  std::string profileId_, deviceName_, computeCapability_;
  int smCount_ = 0;
  std::optional<double> smClockMHz_, theoreticalDram_, maxSharedPerBlock_;
  std::vector<Entry> values_;
  std::map<std::string, std::map<std::string, bool>> broadcast_, parallel_;
  std::map<std::string, int> registerArrays_;  // "sm_90/sort" -> size
};

}  // namespace warplint
