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

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
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
  // A numeric device property the probe recorded from the CUDA runtime
  // ("registers_per_sm", "max_threads_per_sm", "shared_memory_per_sm_bytes", ...).
  std::optional<double> deviceProperty(const std::string& key) const;

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

  // --- throughput for the kernel cost model (seed 003, Zhang & Owens) ---
  // Rates against warps per SM come from probes that measured 1, 2, 4, 8, 16,
  // 32 and 64 warps (shared conflict-free also 12, 24, 48). Between two
  // measured warp counts the rate is interpolated linearly in warps (an
  // interpolation, not a measurement); outside the measured range, or where
  // the profile lacks the probe, the answer is nullopt.
  //
  // Warp instructions per clock per SM of one class (inst_throughput_vs_warps):
  // "ffma", "imad", "iadd" (2-input add: ptxas mixes IMAD.IADD and IADD3),
  // "iadd3" (3-input add), "lop3", "mufu" (rsqrt), "dfma", "f2i", "i2f".
  std::optional<double> instThroughputPerClk(const std::string& cls, double warpsPerSm) const;
  // The SASS opcode the class's timed loop compiled to ("MUFU.RSQ"), as recorded.
  std::optional<std::string> instSassOpcode(const std::string& cls) const;
  // Shared-memory 4-byte loads at bank-conflict degree 1, 2, 4, 8 or 32
  // (exactly `degree` lanes a bank) against warps per SM: bytes per clock per
  // SM, and wavefronts per clock per SM (= bytes x degree / 128).
  std::optional<double> sharedThroughputVsWarpsBytesPerClk(int degree, double warpsPerSm) const;
  std::optional<double> sharedWavefrontsPerClk(int degree, double warpsPerSm) const;
  // L1-hit global loads (ld.global.ca, warp-coalesced), bytes per clock per
  // SM; widthBytes 16 (float4 lanes) or 4.
  std::optional<double> l1BandwidthBytesPerClk(double warpsPerSm = 32, int widthBytes = 16) const;
  // Warp LDC requests per clock per SM at 64 warps when the lanes read n =
  // 1, 2, 4, 8, 16 or 32 distinct words of one line.
  std::optional<double> constantRequestsPerClk(int distinctAddresses) const;
  // Global-memory bandwidth (GB/s = 1e9 B/s, whole GPU) against bytes in
  // flight per SM = blocks/SM x threads/block x accesses in flight x 16 B
  // (seed 003 Fig. 3). Several launch shapes share one bytes-in-flight figure:
  // their median is taken; between measured figures (powers of two, 2 KiB to
  // 256 KiB) the bandwidth is interpolated linearly in log2(bytes); outside
  // them nullopt. L2: an 8 MiB L2-resident footprint through ld/st.global.cg.
  std::optional<double> l2BandwidthGBps(double bytesInFlightPerSm) const;  // reads
  std::optional<double> l2WriteBandwidthGBps(double bytesInFlightPerSm) const;
  std::optional<double> dramReadBandwidthGBps(double bytesInFlightPerSm) const;
  // One measured launch shape (no interpolation).
  std::optional<double> l2ReadBandwidthGBps(int blocksPerSm, int threadsPerBlock, int loadsInFlight) const;
  std::optional<double> dramReadBandwidthGBps(int blocksPerSm, int threadsPerBlock, int loadsInFlight) const;
  // Local memory (a dynamically indexed private array, 64 warps an SM), bytes
  // loaded + stored, against the footprint an SM (array bytes x resident
  // threads, KiB; measured 64 to 2048 KiB: inside L1, around its capacity,
  // around L2's, past it), interpolated linearly in log2(footprint) between
  // measured points, nullopt outside them. access "load_store" (4 loads + 4
  // stores a step, like spill stores and reloads) or "load" (4 loads a step).
  std::optional<double> localBandwidthGBps(double footprintKiBPerSm,
                                           const std::string& access = "load_store") const;
  std::optional<double> localBandwidthBytesPerClk(double footprintKiBPerSm,
                                                  const std::string& access = "load_store") const;

  // --- compile-time probe: largest register-resident private array ---
  // arch "sm_90", pattern "vector_add" | "matrix_multiply" | "sort".
  std::optional<int> largestRegisterArray(const std::string& arch, const std::string& pattern) const;

  // --- generic: the first value of `probe`/`name` whose params include `params` ---
  std::optional<MeasuredValue> find(const std::string& probe, const std::string& name,
                                    const Params& params = {}) const;
  size_t valueCount() const { return values_.size(); }
  // Names this profile's content for caches of what is derived from it:
  // every load gives a new one, copies keep theirs (a loaded profile never
  // changes).
  uint64_t contentId() const { return contentId_; }
  // Every value, property and table equal (a bundled profile's compact text
  // against its file).
  bool operator==(const HardwareProfile& o) const;

 private:
  struct Entry {
    std::string probe, name;
    Params params;
    MeasuredValue value;
  };
  std::optional<double> median(const std::string& probe, const std::string& name,
                               const Params& params) const;
  // The medians of probe/name values that `keep` accepts, by their numeric
  // parameter `axis` (the median of several values at one point), linearly
  // interpolated at x (in log2 of the axis when logAxis); nullopt outside the
  // measured points.
  std::optional<double> interpolate(const std::string& probe, const std::string& name,
                                    const std::function<bool(const Params&)>& keep,
                                    const std::string& axis, double x, bool logAxis = false) const;

  uint64_t contentId_ = 0;
  std::string profileId_, deviceName_, computeCapability_;
  int smCount_ = 0;
  std::optional<double> smClockMHz_, theoreticalDram_, maxSharedPerBlock_;
  std::map<std::string, double> deviceNumbers_;  // $.device's numeric members
  std::vector<Entry> values_;
  // The entries of each probe and value name, in file order: a kernel's cost
  // estimate looks values up hundreds of times (tridiagonal: 5% of its time
  // scanning every entry).
  std::unordered_map<std::string, std::vector<size_t>> byProbeAndName_;
  static std::string indexKey(const std::string& probe, const std::string& name);
  const std::vector<size_t>& entriesOf(const std::string& probe, const std::string& name) const;
  std::map<std::string, std::map<std::string, bool>> broadcast_, parallel_;
  std::map<std::string, int> registerArrays_;  // "sm_90/sort" -> size
};

}  // namespace warplint
