// The kernel cost model (seed 003, Zhang & Owens 2011): the time a kernel
// spends in each part of the machine, from what one block does
// (analyzer/results/KernelWork.h) against the hardware profile's measured
// throughputs at the kernel's occupancy:
//   issue   warp instructions over the issue rate at the resident warps
//           (alu_throughput_vs_warps), special-function and FP64 work over
//           their pipes' rates where the profile has them;
//   shared  shared-memory wavefronts (bank conflicts included) over the
//           shared pipe's rate at the resident warps (shared_throughput_vs_warps);
//   l1      the 128-byte lines global and local requests pass through the
//           same L1 data pipe;
//   l2      sectors that miss L1 (loads beyond the reuse the L1 keeps, every
//           store) over the L2 bandwidth;
//   dram    each block's distinct sectors over the DRAM bandwidth the bytes
//           in flight per SM reach (dram_bandwidth_vs_config, the seed's Fig. 3);
//   constant  the constant cache's one address at a time.
// The components overlap (the seed's assumption): the kernel takes as long as
// the largest, the bottleneck; shared and l1 share one pipe and add up. Where
// the seed says that under-estimates, with one resident block per SM and
// barriers between loads and use, the components are added instead.
// A figure the profile lacks leaves its component out, and says so.
#pragma once

#include "analyzer/profile/HardwareProfile.h"
#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/KernelWork.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace warplint {

struct Occupancy {
  int blocksPerSm = 0;        // resident blocks per SM
  int warpsPerSm = 0;         // resident warps per SM (what hides latency)
  std::string limitedBy;      // "threads", "registers", "shared memory", "blocks", "grid"
  int registersPerThread = 0;
  std::string registersSource; // "ptxas" or "assumed"
  int64_t sharedBytesPerBlock = 0;
};

struct CostComponent {
  std::string name; // "issue", "shared", "l1", "l2", "dram", "constant"
  double us = 0;
  double peakUs = 0; // the same work at the unit's measured peak rate (its most warps or bytes in flight)
  std::string basis; // what was divided by what, for --explain
};

struct KernelCost {
  bool computed = false;
  std::string notComputed;
  double timeUs = 0;
  std::string bottleneck;           // the largest component's name
  std::vector<CostComponent> components; // in the order above; absent ones left out
  bool serialized = false;          // components added (one block per SM, barriers)
  Occupancy occupancy;
  int64_t gridBlocks = 0;
  double blocksPerSmWork = 0;       // blocks the busiest SM runs over the kernel
  std::vector<std::string> assumptions;
  // Each of the seed's three parts of the machine ("sm": issue slots, pipes
  // and constant cache; "l1tex": shared wavefronts and L1 lines, one data
  // pipe; "memory": L2 and DRAM) busy over the kernel's time, as a share of
  // its measured peak: the work at the peak rate over timeUs (what ncu
  // reports as % of peak).
  std::map<std::string, double> peakShares;
  // No part above kLatencyBoundShare of its peak: the time is the units'
  // rates at too few warps or bytes in flight, not a saturated unit.
  bool latencyBound = false;
  double component(const std::string &name) const;
  // Each component's share of their sum, "shared 68%, dram 24%, issue 8%" (largest first).
  std::string shares() const;
};

struct CostOptions {
  // Private arrays the compiler keeps in local memory (the
  // private-array-local-memory rule's verdicts): their accesses are memory
  // traffic; the other private arrays live in registers.
  std::set<std::string> localArrays;
  // Bytes a thread has in flight per global load, multiplied (a packing fix
  // turns four 1-byte loads into one 4-byte load: same bytes, a quarter of the
  // requests, four times the bytes per request).
  double loadBytesInFlightScale = 1;
  // An assumed grid (none known) scaled: a rewrite that gives each thread
  // four times the work launches a quarter of the blocks.
  double gridScale = 1;
  // Constant-space accesses (indices into KernelInfo::accesses) read as
  // global loads through L1 instead (their AccessWork holds the sectors).
  std::set<size_t> constantAsGlobal;
  // Shared wavefronts a block adds (a staging tile's stores and reads).
  double extraSharedWavefronts = 0;
};

// Nsight Compute's Speed-of-Light rule: "achieved compute throughput and/or
// memory bandwidth below 60% of peak typically indicate latency issues".
constexpr double kLatencyBoundShare = 0.60;

KernelCost estimateKernelCost(const KernelInfo &kernel, const KernelWork &work, const HardwareProfile &profile,
                              const CostOptions &opts = {});

} // namespace warplint
