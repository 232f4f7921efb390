// The measured curves the kernel cost model reads from a hardware profile
// (seed 003's Figures 2 and 3: rates against warps an SM and against bytes
// in flight an SM, and a launch's fixed time against its blocks), built
// once per profile. A kernel's estimate is made once per finding and fix
// (tridiagonal: hundreds), and each curve is a hundred profile look-ups.
#pragma once

#include "analyzer/profile/HardwareProfile.h"

#include <optional>
#include <utility>
#include <vector>

namespace warplint {

// A measured curve: the value at x, linear between measured points (in log2
// of x when `logX`), the end values beyond them.
struct Curve {
  std::vector<std::pair<double, double>> points; // sorted by x
  bool logX = false;
  bool empty() const { return points.empty(); }
  double at(double x) const;
};

struct ProfileCurves {
  Curve launch;             // kernel_fixed_time: us against the launch's blocks
  Curve fmaIssue;           // alu_throughput_vs_warps: FMA warp instructions a clock
  Curve sharedConflictFree; // shared_throughput_vs_warps: bytes a clock an SM
  Curve dramRead;           // dram_bandwidth_vs_config: GB/s, the envelope
  Curve copy;               // dram_copy's grid-stride configurations: GB/s, the envelope
  // The bytes in flight between which l2_bandwidth_vs_config measured
  // (found at powers of two; lo 0 when it measured none).
  struct Range {
    double lo = 0, hi = 0;
  };
  Range l2Read, l2Write;

  // The curves of `p`, cached per thread by its contentId.
  static const ProfileCurves &of(const HardwareProfile &p);
};

// L2 bandwidth (GB/s) at the bytes an SM has in flight, also outside the
// range the probe measured; nullopt where the profile has no L2 curve.
std::optional<double> l2BandwidthAt(const HardwareProfile &p, double inflight, bool write);

} // namespace warplint
