// What evaluateWarpAccessSamples keeps of the warps it measured: lane
// patterns already measured (by their addresses or by their corners), and,
// across the block shapes of one access, each warp's whole outcome.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/warp/WarpSimulator.h"

#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace warplint {

// What the simulator says about one warp's lane addresses does not change
// when every address moves by a multiple of 128 bytes (banks repeat every
// 128 bytes, sectors every 32, lines every 128): such patterns are measured
// once. The key: the active lanes and their addresses moved so that the
// first active one lies in [0, 128).
struct PatternKey {
  std::array<int64_t, kWarpSize + 1> v{};
  bool operator==(const PatternKey &o) const { return v == o.v; }
};
struct PatternHash {
  size_t operator()(const PatternKey &k) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t x : k.v)
      h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

// A lane-affine pattern by its corners: the warp (its lanes' threadIdx),
// the active lanes, the address step along each threadIdx dimension and the
// base address modulo 128 decide every lane's address up to a multiple of
// 128 bytes, hence the measurement (PatternKey).
struct CornerKey {
  int warp = 0;
  uint32_t activeMask = 0;
  std::array<int64_t, 3> step{};
  int64_t base = 0;
  bool operator==(const CornerKey &o) const {
    return warp == o.warp && activeMask == o.activeMask && step == o.step && base == o.base;
  }
};
struct CornerHash {
  // splitmix64's finalizer per field: FNV's multiply left the table's
  // buckets unevenly filled (long chains dominated a loop-heavy file).
  static uint64_t mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  size_t operator()(const CornerKey &k) const {
    uint64_t h = 0;
    for (uint64_t x : {static_cast<uint64_t>(k.warp), static_cast<uint64_t>(k.activeMask), static_cast<uint64_t>(k.step[0]),
                       static_cast<uint64_t>(k.step[1]), static_cast<uint64_t>(k.step[2]), static_cast<uint64_t>(k.base)})
      h = mix(h + x + 0x9e3779b97f4a7c15ull);
    return static_cast<size_t>(h);
  }
};

// Measurements by lane pattern. Node-based maps: a pointer to a value stays
// valid while others are added, so outcomes can point into them.
struct MeasuredPatterns {
  std::unordered_map<PatternKey, WarpAccessEval, PatternHash> byAddresses;
  std::unordered_map<CornerKey, WarpAccessEval, CornerHash> byCorners;
};

// One warp of one block at one iteration combination, at every sample.
struct WarpOutcome {
  bool anyActive = false;
  bool anyUnknown = false; // an address no sample can evaluate: the access is unevaluated
  // Per sample: the measurement, or null when the warp gives none (every
  // lane out of the array, or no lane) or the sample failed (`failed`).
  std::vector<const WarpAccessEval *> measured;
  std::vector<char> failed;
};

// The warps of one access shared by the block shapes it is evaluated under.
// Under a 1-D block of a multiple of 32 threads, warp w holds threads
// 32w..32w+31 whatever the block's size, so when neither the address, nor a
// guard, nor a loop bound reads blockDim, the first warps of a 128-thread
// block are those of a 1024-thread one and are measured once (four plausible
// shapes evaluated the same warps four times; issue 19). Valid for one
// access and one set of samples: evaluateWarpAccessSamples starts it afresh
// when the samples change.
struct WarpsAcrossShapes {
  std::vector<std::vector<int64_t>> samples;
  MeasuredPatterns patterns;
  // (warp, block index, the iteration of each loop) -> outcome
  std::map<std::tuple<int, int64_t, std::vector<int64_t>>, WarpOutcome> outcomes;
};

} // namespace warplint
