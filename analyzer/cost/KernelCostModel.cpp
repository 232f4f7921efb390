#include "analyzer/cost/KernelCostModel.h"
#include "analyzer/cost/ProfileCurves.h"
#include "analyzer/native/SassMix.h"
#include "analyzer/results/PrivateMemory.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

namespace warplint {

double KernelCost::component(const std::string &name) const {
  for (const CostComponent &c : components)
    if (c.name == name)
      return c.us;
  return 0;
}

std::string KernelCost::shares() const {
  double sum = 0;
  for (const CostComponent &c : components)
    sum += c.us;
  std::vector<const CostComponent *> order;
  for (const CostComponent &c : components)
    order.push_back(&c);
  std::stable_sort(order.begin(), order.end(), [](auto *a, auto *b) { return a->us > b->us; });
  std::ostringstream os;
  bool first = true;
  for (const CostComponent *c : order) {
    int pct = sum > 0 ? static_cast<int>(std::lround(100 * c->us / sum)) : 0;
    if (!first && pct == 0)
      continue;
    os << (first ? "" : ", ") << c->name << " " << pct << "%";
    first = false;
  }
  return os.str();
}

namespace {

constexpr int kWarp = 32;
// A unit's peak: its rate at the most warps (64 an SM on Hopper) or bytes in
// flight (beyond any probe's range: the curves' plateau) the probes measured.
constexpr double kPeakWarps = 64;
constexpr double kPeakBytesInFlight = double(1 << 26);

std::string fmt(double v, int digits = 3) {
  std::ostringstream os;
  os.precision(digits);
  os << v;
  return os.str();
}

Occupancy occupancyOf(const KernelInfo &k, const KernelWork &w, const HardwareProfile &p,
                      std::vector<std::string> &assumptions) {
  Occupancy o;
  int threads = static_cast<int>(w.block.threads());
  int warps = (threads + kWarp - 1) / kWarp;
  double maxThreads = p.deviceProperty("max_threads_per_sm").value_or(2048);
  double regsPerSm = p.deviceProperty("registers_per_sm").value_or(65536);
  double smemPerSm = p.deviceProperty("shared_memory_per_sm_bytes").value_or(233472);
  const int maxBlocks = 32; // Hopper (compute capability 9.0): 32 resident blocks an SM
  const PtxasReport *ptx = k.privateMemory && k.privateMemory->ptxas.ran ? &k.privateMemory->ptxas : nullptr;
  if (ptx && ptx->registers > 0) {
    o.registersPerThread = ptx->registers;
    o.registersSource = "ptxas";
  } else {
    o.registersPerThread = 32;
    o.registersSource = "assumed";
    assumptions.push_back("32 registers a thread assumed (no ptxas report; --ptxas-confirm reads it)");
  }
  o.sharedBytesPerBlock = ptx && ptx->sharedBytes > 0 ? ptx->sharedBytes : w.staticSharedBytes;
  bool dynamicShared = false;
  for (const LaunchSite &l : k.launchSites)
    dynamicShared = dynamicShared || !l.sharedBytesText.empty();
  if (dynamicShared)
    assumptions.push_back("dynamic shared memory of the launch not counted in the occupancy");
  // Registers are allocated per warp in units of 256.
  int regsPerWarp = ((o.registersPerThread * kWarp + 255) / 256) * 256;
  int byThreads = static_cast<int>(maxThreads) / std::max(1, warps * kWarp);
  int byRegs = regsPerWarp > 0 ? static_cast<int>(regsPerSm / (double(regsPerWarp) * warps)) : maxBlocks;
  int bySmem = o.sharedBytesPerBlock > 0
                   ? static_cast<int>(smemPerSm / double(o.sharedBytesPerBlock + 1024)) // 1 KiB a block reserved
                   : maxBlocks;
  o.blocksPerSm = maxBlocks;
  o.limitedBy = "blocks";
  for (auto [n, why] : {std::pair{byThreads, "threads"}, {byRegs, "registers"}, {bySmem, "shared memory"}})
    if (n < o.blocksPerSm) {
      o.blocksPerSm = n;
      o.limitedBy = why;
    }
  o.blocksPerSm = std::max(o.blocksPerSm, 1);
  o.warpsPerSm = o.blocksPerSm * warps;
  return o;
}

// Bytes one thread has in flight: the global loads of one straight-line
// region issue before the first of them returns, and so do the iterations
// of constant loops of up to 32 trips around them (nvcc unrolls those
// fully); the widest region counts. An uncoalesced load counts the sectors
// it keeps outstanding, over its lanes: what L2 and DRAM serve is sectors
// (Little's law holds for those, and the bandwidth probes load whole
// sectors, 16-byte lanes coalesced), so a 4-byte load whose lanes fall in
// separate sectors has 32 bytes a lane in flight, not 4.
double loadBytesPerThread(const KernelInfo &k, const KernelWork &w) {
  std::map<int, double> byRegion;
  for (const AccessWork &a : w.accesses) {
    const MemoryAccess &f = k.accesses[a.access];
    if ((f.space != AddressSpace::Global && f.space != AddressSpace::Generic) || !f.isRead || a.warpExecutions <= 0)
      continue;
    double bytes = double(a.widthBytes);
    if (a.sectors > a.idealSectors && a.laneExecutions > 0)
      bytes = std::max(bytes, a.sectors * 32 / a.laneExecutions);
    double unrolled = 1;
    for (auto it = a.loops.rbegin(); it != a.loops.rend(); ++it) {
      const auto &trip = k.loops[static_cast<size_t>(*it)].tripCount;
      if (!trip || unrolled * double(*trip) > 32)
        break;
      unrolled *= double(*trip);
    }
    byRegion[a.region] += bytes * unrolled;
  }
  double best = 0;
  for (auto &[r, b] : byRegion)
    best = std::max(best, b);
  return best;
}

// The share of a block's distinct sectors of `base` that DRAM serves, over a
// grid of `gridBlocks`: along each dimension of n blocks the grid touches
// 1 + (n - 1) x (the next block's new share) blocks' worth of sectors. The
// blocks along y (z) are a row (plane) of blocks apart in the launch order:
// they share through L2 only while that many blocks' sectors fit in half of it.
double gridDramShare(const KernelWork &w, const std::string &base, int64_t gridBlocks, double l2Capacity) {
  auto it = w.globalSharing.find(base);
  if (it == w.globalSharing.end() || gridBlocks <= 1)
    return 1;
  const KernelWork::GridSharing &g = it->second;
  double n[3] = {double(gridBlocks), 1, 1};
  if (w.grid)
    n[0] = double(w.grid->x), n[1] = double(w.grid->y), n[2] = double(w.grid->z);
  double apart = 1, touched = 1;
  for (int d = 0; d < 3; ++d) {
    double fresh = g.newShare[d];
    if (l2Capacity > 0 && apart * g.blockBytes > l2Capacity / 2)
      fresh = 1;
    touched *= 1 + (n[d] - 1) * fresh;
    apart *= n[d];
  }
  return std::clamp(touched / double(gridBlocks), 0.0, 1.0);
}

} // namespace

KernelCost estimateKernelCost(const KernelInfo &k, const KernelWork &w, const HardwareProfile &p,
                              const CostOptions &opts) {
  KernelCost cost;
  if (!w.computed) {
    cost.notComputed = w.notComputed.empty() ? "no work counted" : w.notComputed;
    return cost;
  }
  const ProfileCurves &curves = ProfileCurves::of(p);
  double clockMHz = p.smClockMHz().value_or(0);
  int sms = p.smCount();
  if (clockMHz <= 0 || sms <= 0) {
    cost.notComputed = "the profile has no SM clock";
    return cost;
  }
  cost.assumptions = w.assumptions;
  cost.occupancy = occupancyOf(k, w, p, cost.assumptions);
  Occupancy &occ = cost.occupancy;
  if (w.gridBlocks) {
    cost.gridBlocks = *w.gridBlocks;
  } else {
    cost.gridBlocks = std::max<int64_t>(1, std::llround(double(sms) * occ.blocksPerSm * 8 * opts.gridScale));
    cost.assumptions.push_back("grid not known: 8 full waves assumed (" + std::to_string(cost.gridBlocks) +
                               " blocks); the predicted ratios barely depend on it");
  }
  int activeSms = static_cast<int>(std::min<int64_t>(sms, cost.gridBlocks));
  cost.blocksPerSmWork = std::ceil(double(cost.gridBlocks) / sms);
  if (cost.gridBlocks < int64_t(sms) * occ.blocksPerSm) {
    int resident = static_cast<int>(std::max(1.0, cost.blocksPerSmWork));
    if (resident < occ.blocksPerSm) {
      occ.blocksPerSm = resident;
      occ.warpsPerSm = resident * static_cast<int>((w.block.threads() + kWarp - 1) / kWarp);
      occ.limitedBy = "grid";
    }
  }
  double warps = occ.warpsPerSm;
  double blocks = cost.blocksPerSmWork; // per SM over the kernel
  auto cyclesToUs = [&](double cycles) { return cycles / clockMHz; };

  // --- issue ---
  double localInstructions = 0; // the loads and stores of private arrays in local memory
  for (const AccessWork &a : w.accesses)
    if (k.accesses[a.access].space == AddressSpace::Local && opts.localArrays.count(k.accesses[a.access].base))
      localInstructions += a.warpExecutions;
  // The instructions one block issues: the AST estimate of the work tally,
  // or, where the native stage read the kernel's SASS, the native code at
  // the tally's trip counts (seed 003: counting above the native
  // instruction set is the model's main source of error). A finding's
  // change (gains/WorkChanges.cpp) adjusts the AST count; the same change
  // is added to the native count (measured: adding it predicts the
  // examples' pairs better than scaling the native count by the change's
  // share of the AST estimate, tests/gpu/gains/README.md).
  double warpInstructions = w.warpInstructions, sfuInstructions = w.sfuWarpInstructions,
         fp64Instructions = w.fp64WarpInstructions;
  std::string instructionSource = "AST estimate";
  const PtxasReport *native = k.privateMemory && k.privateMemory->ptxas.ran ? &k.privateMemory->ptxas : nullptr;
  // The native code is counted against the kernel's own tally (the warps
  // each access runs in, the loops' trips), not against a finding's changed
  // copy of it: the change is added below, once.
  const KernelWork &tally = k.work ? *k.work : w;
  std::optional<NativeInstructionCount> nativeCount;
  if (native && native->sass) {
    nativeCount = countNativeInstructions(*native->sass, k, tally);
    const NativeInstructionCount &n = *nativeCount;
    if (n.counted) {
      double change = k.work ? w.warpInstructions - k.work->warpInstructions : 0;
      // Private arrays: the model's local loads and stores (none once a fix
      // keeps the array in registers) replace the native LDL/STL.
      warpInstructions = std::max(0.0, n.warpInstructions - n.localWarpInstructions + change);
      sfuInstructions = n.sfuWarpInstructions;
      fp64Instructions = n.fp64WarpInstructions;
      instructionSource = "SASS";
      std::ostringstream why;
      why.precision(3);
      why << "instructions: SASS (" << native->sassTool << "): " << n.warpInstructions
          << " warp instructions a block (AST estimate " << (k.work ? k.work->warpInstructions : w.warpInstructions)
          << ") from " << n.staticInstructions << " native instructions";
      std::vector<std::pair<double, std::string>> mix;
      for (auto &[cls, v] : n.byClass)
        mix.push_back({v, cls});
      std::sort(mix.rbegin(), mix.rend());
      for (size_t i = 0; i < mix.size() && n.warpInstructions > 0; ++i) {
        int pct = int(std::lround(100 * mix[i].first / n.warpInstructions));
        if (pct > 0)
          why << (i == 0 ? "; " : ", ") << mix[i].second << " " << pct << "%";
      }
      for (size_t i = 0; i < n.loops.size(); ++i)
        why << (i == 0 ? "; native loops: " : "; ") << n.loops[i];
      if (n.skippedByBranches > 0)
        why << "; " << n.skippedByBranches << " warp instructions a block skipped by branches (" << n.guardedSpans
            << " guarded spans, each run by the warps its memory accesses run in)";
      cost.assumptions.push_back(why.str());
    } else {
      cost.assumptions.push_back("instructions: AST estimate (the native code was read, but " + n.notCounted + ")");
    }
  } else {
    std::string why = native && !native->sassError.empty() ? " (no native code: " + native->sassError + ")" : "";
    cost.assumptions.push_back("instructions: AST estimate" + why);
  }
  const Curve &ipc = curves.fmaIssue;
  if (!ipc.empty()) {
    double inst = (warpInstructions + localInstructions) * blocks;
    double cycles = inst / ipc.at(warps);
    std::string basis = fmt(inst) + " warp instructions an SM (" + instructionSource + ") at " + fmt(ipc.at(warps)) +
                        " a clock (" + std::to_string(occ.warpsPerSm) + " warps)";
    // The special-function and FP64 pipes are narrower (inst_throughput_vs_warps).
    // At the pipes' peak (their rates at the most warps the curves measured).
    double peakCycles = inst / ipc.at(kPeakWarps);
    if (auto sfu = p.instThroughputPerClk("mufu", warps); sfu && sfuInstructions > 0) {
      cycles = std::max(cycles, sfuInstructions * blocks / *sfu);
      peakCycles = std::max(peakCycles, sfuInstructions * blocks /
                                            p.instThroughputPerClk("mufu", kPeakWarps).value_or(*sfu));
    }
    if (auto dfma = p.instThroughputPerClk("dfma", warps); dfma && fp64Instructions > 0) {
      cycles = std::max(cycles, fp64Instructions * blocks / *dfma);
      peakCycles = std::max(peakCycles, fp64Instructions * blocks /
                                            p.instThroughputPerClk("dfma", kPeakWarps).value_or(*dfma));
    }
    cost.components.push_back({"issue", cyclesToUs(cycles), cyclesToUs(std::min(peakCycles, cycles)), basis});
  } else {
    cost.assumptions.push_back("the profile has no issue-rate curve (alu_throughput_vs_warps): issue time left out");
  }

  // --- shared and the L1 data pipe ---
  double sharedWavefronts = 0, sharedIdeal = 0, l1Lines = 0, loadSectors = 0, storeSectors = 0, constantAddresses = 0;
  double localSectors = 0, localStoreSectors = 0, localFootprintPerThread = 0;
  std::map<std::string, double> loadFootprint, storeFootprint; // per base: the widest access's distinct sectors
  // Where the native code was read: the shared words it issues, where nvcc
  // reuses or merges what the source reads (SassMix.h, nativeSharedScale),
  // scale the tally's wavefronts, before and after a finding's change alike.
  std::map<size_t, double> sharedScale;
  if (nativeCount && nativeCount->counted) {
    std::vector<std::string> notes;
    sharedScale = nativeSharedScale(*nativeCount, k, tally, notes);
    for (const std::string &n : notes)
      cost.assumptions.push_back("shared wavefronts from the native code's loads and stores: " + n);
  }
  for (const AccessWork &a : w.accesses) {
    const MemoryAccess &f = k.accesses[a.access];
    // Untraced memory (AccessWork::notCounted says so) is priced as global.
    AddressSpace space = opts.constantAsGlobal.count(a.access) || f.space == AddressSpace::Generic
                             ? AddressSpace::Global
                             : f.space;
    switch (space) {
    case AddressSpace::Shared: {
      auto scaled = sharedScale.find(a.access);
      double scale = scaled != sharedScale.end() ? scaled->second : 1.0;
      sharedWavefronts += a.wavefronts * scale;
      sharedIdeal += a.idealWavefronts * scale;
      break;
    }
    case AddressSpace::Constant:
      constantAddresses += a.constantAddresses;
      break;
    case AddressSpace::Local:
      if (opts.localArrays.count(f.base)) {
        l1Lines += a.lines;
        localSectors += a.sectors;
        if (f.isWrite)
          localStoreSectors += a.sectors;
        localFootprintPerThread += double(a.widthBytes);
      }
      break;
    case AddressSpace::Global:
      l1Lines += a.lines;
      if (f.isRead) {
        loadSectors += a.sectors;
        loadFootprint[f.base] = std::max(loadFootprint[f.base], a.distinctSectors);
      }
      if (f.isWrite) {
        storeSectors += a.sectors;
        storeFootprint[f.base] = std::max(storeFootprint[f.base], a.distinctSectors);
      }
      break;
    default:
      break;
    }
  }
  sharedWavefronts += opts.extraSharedWavefronts;
  // The shared pipe's rate at the resident warps, from the curve measured at
  // the kernel's average conflict degree (conflicted wavefronts pipeline
  // better at few warps); the conflict-free curve otherwise.
  int degree = 1;
  if (sharedIdeal > 0)
    for (int d : {2, 4, 8, 32})
      if (sharedWavefronts / sharedIdeal >= d * 0.75)
        degree = d;
  std::optional<double> sharedRate = p.sharedWavefrontsPerClk(degree, warps);
  if (!sharedRate) {
    const Curve &shared = curves.sharedConflictFree;
    if (!shared.empty())
      sharedRate = shared.at(warps) / 128.0;
  }
  if (sharedRate) {
    // The pipe's peak: one conflict-free wavefront stream at the most warps.
    double peakRate = std::max(*sharedRate, p.sharedWavefrontsPerClk(1, kPeakWarps).value_or(*sharedRate));
    cost.components.push_back({"shared", cyclesToUs(sharedWavefronts * blocks / *sharedRate),
                               cyclesToUs(sharedWavefronts * blocks / peakRate),
                               fmt(sharedWavefronts * blocks) + " shared wavefronts an SM at " + fmt(*sharedRate) +
                                   " a clock"});
  } else {
    cost.assumptions.push_back("the profile has no shared-memory throughput curve: shared time left out");
  }
  // Global and local requests pass the same L1 data pipe: a 128-byte line a
  // pass, at the L1-hit rate the probe measured (l1_bandwidth).
  std::optional<double> lineRate;
  if (auto b = p.l1BandwidthBytesPerClk(std::min(warps, 64.0), 16))
    lineRate = *b / 128.0;
  else if (sharedRate)
    lineRate = sharedRate;
  if (lineRate) {
    double peakRate = *lineRate;
    if (auto b = p.l1BandwidthBytesPerClk(kPeakWarps, 16))
      peakRate = std::max(peakRate, *b / 128.0);
    cost.components.push_back({"l1", cyclesToUs(l1Lines * blocks / *lineRate), cyclesToUs(l1Lines * blocks / peakRate),
                               fmt(l1Lines * blocks) + " L1 wavefronts (128-byte lines of global and local "
                               "requests) an SM at " + fmt(*lineRate) + " a clock"});
  }
  else
    cost.assumptions.push_back("the profile has no L1 bandwidth: L1 time left out");

  // --- L2: what misses the L1 ---
  double loadDistinct = 0, storeDistinct = 0;
  for (auto &[b, s] : loadFootprint)
    loadDistinct += s;
  for (auto &[b, s] : storeFootprint)
    storeDistinct += s;
  // DRAM: a sector the grid's blocks share comes from DRAM once while L2
  // holds it (a table every block reads, the halo of neighbouring tiles).
  double l2Capacity = p.deviceProperty("l2_bytes").value_or(0);
  int sharedArrays = 0;
  auto dramShare = [&](const std::string &base) {
    double share = gridDramShare(w, base, cost.gridBlocks, l2Capacity);
    sharedArrays += share < 0.95 ? 1 : 0;
    return share;
  };
  double loadDram = 0, storeDram = 0;
  for (auto &[b, s] : loadFootprint)
    loadDram += s * dramShare(b);
  for (auto &[b, s] : storeFootprint)
    storeDram += s * dramShare(b);
  double l1Bytes = p.l1CapacityKiB().value_or(0) * 1024;
  double l1Free = std::max(0.0, l1Bytes - double(occ.sharedBytesPerBlock) * occ.blocksPerSm);
  // The L1 keeps what a block re-reads soon: each block's distinct sectors
  // reach L2 once (measured: dense_before's 88% L1 hit rate is its 16-fold
  // reuse within a block, though its footprint is many times the L1).
  double l2LoadSectors = std::min(loadSectors, loadDistinct);
  if (loadDistinct > 0 && loadDistinct < loadSectors)
    cost.assumptions.push_back("L1 hits: each block's distinct global sectors are loaded from L2 once");
  // Local memory: loads hit L1 while the resident threads' arrays fit it;
  // stores go through to L2 (measured: median_before's local store sectors
  // all reach L2 at a 96% L1 hit rate).
  double localPerSm = localFootprintPerThread * warps * kWarp;
  double l2LocalSectors = localStoreSectors + (localPerSm > l1Free ? localSectors - localStoreSectors : 0);
  double inflightPerSm = std::max(loadBytesPerThread(k, w) * opts.loadBytesInFlightScale, 1.0) * warps * kWarp;
  auto l2Read = l2BandwidthAt(p, inflightPerSm, false), l2Write = l2BandwidthAt(p, inflightPerSm, true);
  if (l2Read && l2Write) {
    double share = double(activeSms) / sms;
    double readBytes = l2LoadSectors * 32 * cost.gridBlocks;
    double writeBytes = (storeSectors + l2LocalSectors) * 32 * cost.gridBlocks;
    double us = readBytes / (*l2Read * share * 1e3) + writeBytes / (*l2Write * share * 1e3); // GB/s -> bytes/us
    // The device's peak: the plateau the probe reached with the most bytes in flight.
    double peakUs = readBytes / (std::max(*l2Read, l2BandwidthAt(p, kPeakBytesInFlight, false).value_or(0)) * 1e3) +
                    writeBytes / (std::max(*l2Write, l2BandwidthAt(p, kPeakBytesInFlight, true).value_or(0)) * 1e3);
    cost.components.push_back({"l2", us, peakUs, fmt(readBytes) + " bytes read from L2 at " + fmt(*l2Read * share) +
                                             " GB/s, " + fmt(writeBytes) + " written at " +
                                             fmt(*l2Write * share) + " GB/s"});
  } else {
    cost.assumptions.push_back("the profile has no L2 bandwidth: L2 time left out");
  }

  // --- DRAM ---
  // Reads wait for their data: the read bandwidth the bytes in flight reach;
  // with writes, the copy bandwidth at as many bytes in flight (below the
  // copy curve's first point, shaped like the read curve).
  const Curve &dram = curves.dramRead, &copy = curves.copy;
  if (!dram.empty()) {
    // Local arrays are written back to DRAM once each when L2 evicts them
    // (measured: standardize_before's DRAM bytes exceed the after's by its
    // local arrays' size).
    double localBytesPerThread = 0;
    if (k.privateMemory)
      for (const PrivateArray &arr : k.privateMemory->arrays)
        if (opts.localArrays.count(arr.name))
          localBytesPerThread += double(arr.bytes);
    double readBytes = loadDram * 32 * cost.gridBlocks,
           writeBytes = storeDram * 32 * cost.gridBlocks +
                        localBytesPerThread * double(w.block.threads()) * cost.gridBlocks;
    double perThread = loadBytesPerThread(k, w) * opts.loadBytesInFlightScale;
    double inflight = std::max(perThread, 1.0) * warps * kWarp;
    double share = double(activeSms) / sms;
    double readGBps = dram.at(inflight) * share;
    double us = readBytes / (readGBps * 1e3);
    std::string basis = fmt(readBytes) + " bytes read at " + fmt(readGBps) + " GB/s (" + fmt(inflight) +
                        " bytes in flight an SM)";
    if (writeBytes > 0 && !copy.empty()) {
      double x0 = copy.points.front().first;
      double copyGBps = (inflight >= x0 ? copy.at(inflight) : copy.at(x0) * dram.at(inflight) / dram.at(x0)) * share;
      double copyUs = (readBytes + writeBytes) / (copyGBps * 1e3);
      if (copyUs > us) {
        us = copyUs;
        basis = fmt(readBytes + writeBytes) + " bytes read and written at " + fmt(copyGBps) + " GB/s (" +
                fmt(inflight) + " bytes in flight an SM)";
      }
    }
    // The device's peak: the read curve's plateau, for the bytes read and written.
    double peakUs = (readBytes + writeBytes) / (std::max(dram.points.back().second, readGBps) * 1e3);
    cost.components.push_back({"dram", us, std::min(peakUs, us), basis});
  } else {
    cost.assumptions.push_back("the profile has no DRAM bandwidth curve: DRAM time left out");
  }
  if (!loadFootprint.empty() || !storeFootprint.empty())
    cost.assumptions.push_back(
        sharedArrays > 0 ? "DRAM traffic: each block's distinct sectors, less those its neighbouring blocks touch too "
                           "(walked for the next block along each grid dimension; shared while L2 holds them)"
                         : "DRAM traffic: each block's distinct sectors; the blocks share none (walked for the next "
                           "block along each grid dimension)");

  // --- constant cache ---
  if (constantAddresses > 0) {
    // One replay a distinct address: warp requests of one address a clock
    // is the rate of addresses (constant_throughput_vs_addresses).
    if (auto c = p.constantRequestsPerClk(1))
      cost.components.push_back({"constant", cyclesToUs(constantAddresses * blocks / *c),
                                 cyclesToUs(constantAddresses * blocks / *c),
                                 fmt(constantAddresses * blocks) + " constant-cache addresses an SM at " +
                                     fmt(*c) + " a clock"});
    else
      cost.assumptions.push_back("the profile has no constant-cache throughput: constant time left out");
  }

  // --- the bottleneck ---
  double issue = cost.component("issue"), lsu = cost.component("shared") + cost.component("l1");
  double memory = std::max(cost.component("l2"), cost.component("dram"));
  double constant = cost.component("constant");
  // Barriers split a block into stages whose loads, shared-memory work and
  // instructions wait for each other. With one resident block an SM they
  // are serialized (the components add, seed 003 §3); with B blocks, the
  // others' stages fill a share of the wait: 1/B of what does not overlap
  // is left (the seed notes that assuming full overlap under-estimates).
  double largest = std::max({issue, lsu, memory, constant});
  double rest = issue + lsu + memory + constant - largest;
  // The parts overlap, but not perfectly: a kernel whose second part is
  // nearly as busy as its first runs slower than the first alone (measured:
  // cuda-samples convolutionSeparable after its padding, L1TEX at 79% of
  // peak and L2 at 68%, 1.52x where the largest part alone gives 1.80x). The
  // parts combine as a 3-norm, which is the largest when one part dominates;
  // the exponent was the best of 3, 4, 6 and the plain maximum on the
  // examples' pairs, and on the real programs' too (tests/gpu/gains/README.md).
  constexpr double kOverlapNorm = 3;
  double overlapped = std::pow(std::pow(issue, kOverlapNorm) + std::pow(lsu, kOverlapNorm) +
                                   std::pow(memory, kOverlapNorm) + std::pow(constant, kOverlapNorm),
                               1 / kOverlapNorm);
  cost.serialized = occ.blocksPerSm == 1 && w.barriers > 0;
  if (w.barriers > 0 && occ.blocksPerSm >= 1) {
    double sum = largest + rest; // what one block an SM, its stages serialized, takes
    cost.timeUs = overlapped + (sum - overlapped) / occ.blocksPerSm;
    cost.assumptions.push_back(cost.serialized
                                   ? "one block an SM with barriers: its stages wait for each other, so the "
                                     "components are added (seed 003 §3)"
                                   : "barriers: " + std::to_string(occ.blocksPerSm) +
                                         " blocks an SM overlap each other's stages; 1/" +
                                         std::to_string(occ.blocksPerSm) + " of the other components is added");
  } else {
    cost.timeUs = overlapped;
  }
  if (overlapped > largest * 1.005)
    cost.assumptions.push_back("the parts overlap imperfectly: issue, L1TEX, memory and constant times combine as a "
                               "3-norm (the largest alone when it dominates)");
  // The largest of the overlapping groups, named by its larger part.
  auto larger = [&](const char *a, const char *b) { return cost.component(a) >= cost.component(b) ? a : b; };
  std::vector<std::pair<double, std::string>> groups{{issue, "issue"},
                                                     {lsu, larger("shared", "l1")},
                                                     {memory, larger("dram", "l2")},
                                                     {constant, "constant"}};
  auto top = std::max_element(groups.begin(), groups.end(), [](auto &a, auto &b) { return a.first < b.first; });
  cost.bottleneck = top->first > 0 ? top->second : "";
  // --- the fixed time of a launch ---
  // A kernel takes, besides its work, the launch, the ramp of its first wave
  // of blocks onto the SMs and the drain after its last block: measured as
  // the GPU's own duration of a grid of trivial blocks (kernel_fixed_time,
  // as ncu's gpu__time_duration sees it), taken at the kernel's first wave
  // (its blocks up to one resident set an SM: later waves' blocks start while
  // earlier ones work, so their dispatch overlaps the work). It adds to the
  // work's time and overlaps nothing; it is the same before and after a fix,
  // so it pulls a short kernel's predicted speedups toward 1.
  // Only where the launch states the grid: at an assumed grid the work's
  // size is a guess, and a fixed time beside it would decide the predicted
  // gains (a finding in a kernel of unknown size would predict ~1.0x and stop
  // failing CI for that reason alone).
  if (cost.timeUs > 0 && !w.gridBlocks) {
    cost.assumptions.push_back("a launch's fixed time (kernel_fixed_time) is left out: the grid is not known, so "
                               "the work's size is assumed and the fixed time's share would be a guess");
  } else if (cost.timeUs > 0) {
    const Curve &launch = curves.launch;
    if (!launch.empty()) {
      int64_t firstWave = std::min<int64_t>(cost.gridBlocks, int64_t(sms) * std::max(1, occ.blocksPerSm));
      double fixedUs = launch.at(double(firstWave));
      std::ostringstream basis;
      basis.precision(3);
      basis << "fixed time of a launch with a first wave of " << firstWave
            << " blocks (kernel_fixed_time: gpu__time_duration of trivial blocks)";
      cost.components.push_back({"launch", fixedUs, 0, basis.str()});
      std::ostringstream why;
      why.precision(3);
      why << "a launch's fixed time (" << fixedUs << " us: the launch, the first wave of " << firstWave
          << " blocks ramping onto the SMs and the tail; kernel_fixed_time) is added to the work's "
          << cost.timeUs << " us; the same before and after a fix";
      cost.assumptions.push_back(why.str());
      cost.timeUs += fixedUs;
    } else {
      cost.assumptions.push_back("the profile has no launch fixed time (kernel_fixed_time): the launch, ramp and "
                                 "tail of the kernel are left out");
    }
  }
  cost.computed = cost.timeUs > 0;
  if (cost.computed) {
    // How busy each part is over the kernel's time, against its peak (what
    // ncu reports as % of peak). The SM-local parts are the busiest SM's
    // work; ncu averages over every SM, idle ones included.
    double smShare = double(activeSms) / sms;
    auto peak = [&](const char *name) {
      for (const CostComponent &c : cost.components)
        if (c.name == name)
          return c.peakUs;
      return 0.0;
    };
    auto busy = [&](double us) { return std::min(1.0, us / cost.timeUs); };
    cost.peakShares["sm"] = busy(std::max(peak("issue"), peak("constant")) * smShare);
    cost.peakShares["l1tex"] = busy((peak("shared") + peak("l1")) * smShare);
    cost.peakShares["memory"] = busy(std::max(peak("l2"), peak("dram")));
    auto busiest = std::max_element(cost.peakShares.begin(), cost.peakShares.end(),
                                    [](auto &a, auto &b) { return a.second < b.second; });
    // The seed's overlap assumption fails where too few warps or bytes in
    // flight keep every unit from its peak (seed 003 §3): the components are
    // then the units' rates at this kernel's warps and bytes in flight, and
    // the kernel is latency-bound, as ncu says below 60% of peak everywhere.
    cost.latencyBound = busiest->second < kLatencyBoundShare;
    // The launch's fixed time is in timeUs, so a kernel made mostly of it has
    // no unit near its peak over its whole time (as Nsight Compute sees a
    // kernel of a few microseconds): latency-bound, whatever its work's part.
    double launchShare = cost.component("launch") / cost.timeUs;
    if (cost.latencyBound && launchShare >= 0.5)
      cost.assumptions.push_back("latency-bound: the launch's fixed time is " +
                                 std::to_string(int(std::lround(100 * launchShare))) +
                                 "% of the kernel's time, when no unit works (busiest part: " + busiest->first + " at " +
                                 std::to_string(int(std::lround(100 * busiest->second))) + "% of its peak; '" +
                                 cost.bottleneck + "' is the largest part of its work)");
    else if (cost.latencyBound)
      cost.assumptions.push_back("latency-bound: no part of the machine is above " +
                                 std::to_string(int(std::lround(100 * kLatencyBoundShare))) +
                                 "% of its peak (busiest: " + busiest->first + " at " +
                                 std::to_string(int(std::lround(100 * busiest->second))) +
                                 "%); too few warps or bytes in flight hide the latencies, so the time is the "
                                 "units' rates at this kernel's warps and bytes in flight, and '" + cost.bottleneck +
                                 "' is the largest of them");
  }
  if (!cost.computed)
    cost.notComputed = "no component has a measured rate";
  return cost;
}

} // namespace warplint
