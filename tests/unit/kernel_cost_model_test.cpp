// The kernel cost model (analyzer/cost/KernelCostModel.h) on hand-made work:
// each component follows its counts and the profile's measured rates, the
// largest names the bottleneck, occupancy follows the block's resources, and
// a figure the profile lacks is left out and said so.
#include "analyzer/cost/KernelCostModel.h"
#include "analyzer/results/PrivateMemory.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace warplint;

namespace {

// A 256-thread kernel with one shared load and one global load per thread,
// each executed `trips` times, on a known grid.
struct Kernel {
  KernelInfo info;
  KernelWork work;
  Kernel(double sharedWavefrontsPerExec, double trips = 64, int64_t grid = 132 * 64) {
    info.name = "k";
    info.isGlobal = true;
    info.privateMemory = std::make_shared<PrivateMemoryFacts>();
    MemoryAccess s;
    s.space = AddressSpace::Shared;
    s.base = "tile";
    s.isRead = true;
    MemoryAccess g;
    g.space = AddressSpace::Global;
    g.base = "in";
    g.isRead = true;
    g.widthBytes = 4;
    info.accesses = {s, g};
    work.computed = true;
    work.block = {256, 1, 1};
    work.gridBlocks = grid;
    double warps = 8;
    AccessWork sw;
    sw.access = 0;
    sw.counted = true;
    sw.warpExecutions = warps * trips;
    sw.wavefronts = sw.warpExecutions * sharedWavefrontsPerExec;
    sw.idealWavefronts = sw.warpExecutions;
    AccessWork gw;
    gw.access = 1;
    gw.counted = true;
    gw.widthBytes = 4;
    gw.warpExecutions = warps * trips;
    gw.sectors = gw.idealSectors = 4 * gw.warpExecutions;
    gw.lines = gw.warpExecutions;
    gw.distinctSectors = gw.sectors;
    work.accesses = {sw, gw};
    work.warpInstructions = 10 * warps * trips;
  }
};

} // namespace

TEST(KernelCostModel, ConflictsMakeTheKernelSharedBoundAndTheFixIsPriced) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  Kernel conflicted(32), clean(1);
  KernelCost before = estimateKernelCost(conflicted.info, conflicted.work, *p);
  KernelCost after = estimateKernelCost(clean.info, clean.work, *p);
  ASSERT_TRUE(before.computed) << before.notComputed;
  ASSERT_TRUE(after.computed);
  EXPECT_EQ(before.bottleneck, "shared");
  // 32 wavefronts a request against 1: the shared component scales with them
  // (each at the rate measured at its own conflict degree, within 10%).
  EXPECT_NEAR(before.component("shared") / after.component("shared"), 32, 3.2);
  EXPECT_NE(after.bottleneck, "shared");
  EXPECT_GT(before.timeUs / after.timeUs, 2.0);
  // Nothing else changed.
  EXPECT_DOUBLE_EQ(before.component("dram"), after.component("dram"));
  EXPECT_DOUBLE_EQ(before.component("issue"), after.component("issue"));
  EXPECT_NE(before.shares().find("shared"), std::string::npos);
}

TEST(KernelCostModel, OccupancyFollowsSharedMemoryAndPtxasRegisters) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  Kernel k(1);
  KernelCost free = estimateKernelCost(k.info, k.work, *p);
  EXPECT_EQ(free.occupancy.blocksPerSm, 8); // 2048 threads an SM / 256
  EXPECT_EQ(free.occupancy.limitedBy, "threads");
  EXPECT_EQ(free.occupancy.registersSource, "assumed");
  k.work.staticSharedBytes = 100 * 1024; // two blocks fit in 228 KiB
  KernelCost smem = estimateKernelCost(k.info, k.work, *p);
  EXPECT_EQ(smem.occupancy.blocksPerSm, 2);
  EXPECT_EQ(smem.occupancy.limitedBy, "shared memory");
  k.work.staticSharedBytes = 0;
  k.info.privateMemory->ptxas.ran = true;
  k.info.privateMemory->ptxas.registers = 128; // 128 x 256 = 32768 registers a block
  KernelCost regs = estimateKernelCost(k.info, k.work, *p);
  EXPECT_EQ(regs.occupancy.blocksPerSm, 2);
  EXPECT_EQ(regs.occupancy.limitedBy, "registers");
  EXPECT_EQ(regs.occupancy.registersSource, "ptxas");
}

TEST(KernelCostModel, OneBlockAnSmWithBarriersAddsTheComponents) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  Kernel k(1);
  k.work.staticSharedBytes = 150 * 1024; // one block an SM
  KernelCost overlapped = estimateKernelCost(k.info, k.work, *p);
  EXPECT_FALSE(overlapped.serialized);
  k.work.barriers = 1;
  KernelCost serialized = estimateKernelCost(k.info, k.work, *p);
  EXPECT_TRUE(serialized.serialized);
  double sum = 0;
  for (const CostComponent &c : serialized.components)
    if (c.name != "l2" && c.name != "dram")
      sum += c.us;
  sum += std::max(serialized.component("l2"), serialized.component("dram"));
  EXPECT_NEAR(serialized.timeUs, sum, 1e-9);
  EXPECT_GT(serialized.timeUs, overlapped.timeUs);
}

TEST(KernelCostModel, FewerBytesInFlightLowerTheDramRate) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  Kernel k(1);
  k.work.accesses[1].widthBytes = 1; // one byte a thread in flight
  KernelCost narrow = estimateKernelCost(k.info, k.work, *p);
  CostOptions packed;
  packed.loadBytesInFlightScale = 4;
  KernelCost wide = estimateKernelCost(k.info, k.work, *p, packed);
  EXPECT_GT(narrow.component("dram"), wide.component("dram"));
}

TEST(KernelCostModel, L2TimeOutsideTheProbedBytesInFlightIsExtrapolatedNotLeftOut) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  // One byte a thread in flight at 8 warps an SM: 256 bytes, below the L2
  // probe's smallest configuration (2 KiB), where the curve gives nothing.
  Kernel k(1, 64, 132);
  k.work.accesses[1].widthBytes = 1;
  KernelCost few = estimateKernelCost(k.info, k.work, *p);
  ASSERT_GT(few.component("l2"), 0);
  for (const std::string &a : few.assumptions)
    EXPECT_EQ(a.find("no L2 bandwidth"), std::string::npos) << a;
  // Below the probed range reads are latency-bound: fewer bytes in flight,
  // proportionally less bandwidth (Little's law), so more L2 time.
  k.work.accesses[1].widthBytes = 4;
  KernelCost more = estimateKernelCost(k.info, k.work, *p);
  EXPECT_GT(few.component("l2"), more.component("l2"));
}

TEST(KernelCostModel, AnUncoalescedLoadKeepsItsSectorsInFlight) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  Kernel coalesced(1, 64, 132);
  // The same 4-byte loads with every lane in its own sector (and line): a
  // 32-byte sector a lane outstanding at L2 and DRAM, not 4 bytes.
  Kernel scattered(1, 64, 132);
  AccessWork &g = scattered.work.accesses[1];
  g.laneExecutions = 32 * g.warpExecutions;
  coalesced.work.accesses[1].laneExecutions = g.laneExecutions;
  g.sectors = g.distinctSectors = 32 * g.warpExecutions;
  g.lines = 32 * g.warpExecutions;
  // Per sector moved, DRAM serves the scattered loads faster: eight times
  // the bytes in flight.
  KernelCost c = estimateKernelCost(coalesced.info, coalesced.work, *p);
  KernelCost s = estimateKernelCost(scattered.info, scattered.work, *p);
  EXPECT_LT(s.component("dram") / 8, c.component("dram"));
}

TEST(KernelCostModel, AProfileWithoutRatesLeavesComponentsOutAndSaysSo) {
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/probes/profiles/h100.json");
  nlohmann::json j = nlohmann::json::parse(in);
  nlohmann::json kept = nlohmann::json::array();
  for (auto &probe : j["probes"])
    if (probe["id"] != "shared_throughput_vs_warps" && probe["id"] != "dram_bandwidth_vs_config")
      kept.push_back(probe);
  j["probes"] = kept;
  HardwareProfile p = HardwareProfile::fromJson(j.dump(), "test");
  Kernel k(32);
  KernelCost c = estimateKernelCost(k.info, k.work, p);
  ASSERT_TRUE(c.computed);
  EXPECT_EQ(c.component("shared"), 0);
  EXPECT_NE(c.bottleneck, "shared");
  bool said = false;
  for (const std::string &a : c.assumptions)
    said = said || a.find("no shared-memory throughput curve") != std::string::npos;
  EXPECT_TRUE(said);
}

namespace {
// The bundled H100 profile without the probes named.
HardwareProfile h100Without(const std::vector<std::string> &drop) {
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/probes/profiles/h100.json");
  nlohmann::json j = nlohmann::json::parse(in);
  nlohmann::json kept = nlohmann::json::array();
  for (auto &probe : j["probes"])
    if (std::find(drop.begin(), drop.end(), probe["id"].get<std::string>()) == drop.end())
      kept.push_back(probe);
  j["probes"] = kept;
  return HardwareProfile::fromJson(j.dump(), "test");
}
} // namespace

TEST(KernelCostModel, ALaunchsFixedTimeIsAddedAndATinyKernelIsLatencyBound) {
  auto p = HardwareProfile::defaultProfile();
  if (!p || !p->find("kernel_fixed_time", "gpu_time_duration_us"))
    GTEST_SKIP() << "no bundled profile with kernel_fixed_time";
  // One block that loads and reads shared memory once a thread: its work is
  // far below a microsecond, the launch's fixed time is not.
  Kernel tiny(1, 1, 1);
  KernelCost c = estimateKernelCost(tiny.info, tiny.work, *p);
  ASSERT_TRUE(c.computed) << c.notComputed;
  double launch = c.component("launch");
  EXPECT_GT(launch, 0.5);
  EXPECT_GT(launch / c.timeUs, 0.5);
  EXPECT_TRUE(c.latencyBound);
  bool stated = false, latencyStated = false;
  for (const std::string &a : c.assumptions) {
    stated = stated || a.find("a launch's fixed time") != std::string::npos;
    latencyStated = latencyStated || a.find("the launch's fixed time is") != std::string::npos;
  }
  EXPECT_TRUE(stated);
  EXPECT_TRUE(latencyStated);
  // The bottleneck is still the largest part of the work, never the launch.
  EXPECT_NE(c.bottleneck, "launch");
  // The first wave sets the ramp: a full grid's fixed time is at least one block's.
  Kernel full(1, 1, 132 * 64);
  KernelCost f = estimateKernelCost(full.info, full.work, *p);
  EXPECT_GE(f.component("launch"), launch);
}

TEST(KernelCostModel, TheFixedTimePullsATinyKernelsSpeedupTowardOne) {
  auto p = HardwareProfile::defaultProfile();
  if (!p || !p->find("kernel_fixed_time", "gpu_time_duration_us"))
    GTEST_SKIP() << "no bundled profile with kernel_fixed_time";
  HardwareProfile noLaunch = h100Without({"kernel_fixed_time"});
  Kernel conflicted(32, 4, 132), clean(1, 4, 132);
  double with = estimateKernelCost(conflicted.info, conflicted.work, *p).timeUs /
                estimateKernelCost(clean.info, clean.work, *p).timeUs;
  KernelCost b = estimateKernelCost(conflicted.info, conflicted.work, noLaunch);
  double without = b.timeUs / estimateKernelCost(clean.info, clean.work, noLaunch).timeUs;
  EXPECT_GT(without, 1.0);
  EXPECT_LT(with, without);
  EXPECT_GE(with, 1.0);
  EXPECT_EQ(b.component("launch"), 0);
  bool said = false;
  for (const std::string &a : b.assumptions)
    said = said || a.find("no launch fixed time") != std::string::npos;
  EXPECT_TRUE(said);
}
