#include "analyzer/warp/PatternMeasure.h"

#include <algorithm>
#include <array>

namespace warplint {

// Constant memory serves a warp one distinct address at a time.
// (Sorted arrays, not sets: this runs for every distinct lane pattern.)
static void countDistinct(const LaneAddresses &lanes, WarpAccessEval &e) {
  std::array<int64_t, kWarpSize> addresses, lines;
  size_t n = 0;
  for (int l = 0; l < kWarpSize; ++l)
    if (lanes.active[l]) {
      addresses[n] = lanes.address[l];
      lines[n++] = lanes.address[l] >= 0 ? lanes.address[l] / 128 : (lanes.address[l] - 127) / 128;
    }
  std::sort(addresses.begin(), addresses.begin() + n);
  std::sort(lines.begin(), lines.begin() + n);
  e.distinctAddresses = static_cast<int>(std::unique(addresses.begin(), addresses.begin() + n) - addresses.begin());
  e.distinctLines = static_cast<int>(std::unique(lines.begin(), lines.begin() + n) - lines.begin());
}

int64_t floorDiv128(int64_t a) { return a >= 0 ? a / 128 : -((-a + 127) / 128); }

WarpAccessEval measurePattern(const LaneAddresses &lanes, AddressSpace space) {
  WarpAccessEval e;
  e.activeLanes = lanes.activeCount();
  e.uniform = lanes.uniform();
  countDistinct(lanes, e);
  if (lanes.active[0] && lanes.active[1]) {
    e.laneStrideKnown = true;
    e.laneStrideBytes = lanes.address[1] - lanes.address[0];
  }
  if (space == AddressSpace::Shared) {
    auto c = sharedBankConflicts(lanes);
    e.bankConflictDegree = c.degree;
    e.wavefronts = c.wavefronts;
    e.idealWavefronts = c.idealWavefronts;
    e.conflictBank = c.bank;
    e.conflictLanes = c.lanes;
  } else {
    auto s = globalSectors(lanes);
    e.sectors = s.sectors;
    e.idealSectors = s.idealSectors;
  }
  return e;
}

double evaluationSeverity(const WarpAccessEval &e, AddressSpace space) {
  if (space == AddressSpace::Shared)
    return e.bankConflictDegree + 0.001 * e.wavefronts;
  if (space == AddressSpace::Constant)
    return e.distinctAddresses + 0.001 * e.distinctLines;
  if (e.idealSectors == 0)
    return 0;
  return static_cast<double>(e.sectors) / e.idealSectors;
}

} // namespace warplint
