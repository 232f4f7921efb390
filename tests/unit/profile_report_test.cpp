// `warplint probe --report`: a bundled profile rendered as tables.
#include "analyzer/profile/HardwareProfile.h"
#include "printers/ProfileReport.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

bool has(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(ProfileReport, WholeBundledProfile) {
  std::string text = HardwareProfile::loadText("h100");
  std::string r = renderProfileReport(text, {});
  EXPECT_TRUE(has(r, "device  NVIDIA H100 80GB HBM3  cc 9.0  132 SMs")) << r.substr(0, 400);
  EXPECT_TRUE(has(r, "\n== shared_bank_conflicts: "));
  EXPECT_TRUE(has(r, "\n== tlb_reach: "));
  // Every value is a row with its params; derived facts follow the table.
  EXPECT_TRUE(has(r, "latency_cycles  level=dram"));
  EXPECT_TRUE(has(r, "degree=32, width_bytes=4"));
  EXPECT_TRUE(has(r, "   derived rises_vmm_aliased_stride_32_mib: [{\"last_flat_pages\":16"));
}

TEST(ProfileReport, SelectedProbesOnly) {
  std::string r = renderProfileReport(HardwareProfile::loadText("h200"), {"sm_clock", "dram_copy"});
  EXPECT_TRUE(has(r, "device  NVIDIA H200"));
  EXPECT_TRUE(has(r, "\n== sm_clock: "));
  EXPECT_TRUE(has(r, "kernel=cudaMemcpy_d2d_sustained"));
  EXPECT_FALSE(has(r, "\n== tlb_reach: "));
  EXPECT_FALSE(has(r, "\n== latency_ladder: "));
}

// Probes measured against warps per SM get a second table: one row per
// series, one column per warp count.
TEST(ProfileReport, WarpCurvesAsOneRowEach) {
  const char *profile = R"({"schema": "warplint-hardware-profile", "schema_version": 1,
    "profile_id": "t", "device": {"name": "Test GPU", "compute_capability": "9.0", "sm_count": 132,
      "l2_bytes": 52428800, "theoretical_dram_bandwidth_gbps": 3352.0},
    "clocks": {"sm_mhz": {"source": "none"}, "memory_mhz": {"source": "none"}},
    "software": {"driver_version": "580", "cuda_runtime_version": "13.0", "cuda_driver_api_version": "13.0"},
    "provenance": {"date": "2026-11-26T00:00:00Z", "command": "warplint-probe", "tool": "t", "runs": 7,
      "wall_seconds": 1.0},
    "probes": [{"id": "inst_throughput_vs_warps", "title": "Instruction throughput", "method": "m",
      "wall_seconds": 0.1, "values": [
      {"name": "warp_instructions_per_clk_per_sm", "params": {"class": "mufu", "sass": "MUFU.RSQ", "warps_per_sm": 1},
       "unit": "warp-inst/clk/SM", "median": 0.125, "min": 0.125, "max": 0.125, "runs": 7, "probe": "inst_throughput_vs_warps", "method": "m"},
      {"name": "warp_instructions_per_clk_per_sm", "params": {"class": "mufu", "sass": "MUFU.RSQ", "warps_per_sm": 64},
       "unit": "warp-inst/clk/SM", "median": 0.5, "min": 0.5, "max": 0.5, "runs": 7, "probe": "inst_throughput_vs_warps", "method": "m"},
      {"name": "warp_instructions_per_clk_per_sm", "params": {"class": "dfma", "sass": "DFMA", "warps_per_sm": 64},
       "unit": "warp-inst/clk/SM", "median": 2, "min": 2, "max": 2, "runs": 7, "probe": "inst_throughput_vs_warps", "method": "m"}
    ]}]})";
  std::string r = renderProfileReport(profile, {});
  EXPECT_TRUE(has(r, "by warps per SM")) << r;
  EXPECT_TRUE(has(r, "warp_instructions_per_clk_per_sm  class=mufu, sass=MUFU.RSQ  0.125  0.5")) << r;
  // A series with one warp count has nothing to pivot; its row stays in the main table.
  EXPECT_FALSE(has(r, "class=dfma, sass=DFMA  -")) << r;
  EXPECT_TRUE(has(r, "class=dfma, sass=DFMA, warps_per_sm=64")) << r;
}

// The bundled H100 profile shows the cost-model probes (seed 003).
TEST(ProfileReport, CostModelProbesOfTheBundledH100) {
  std::string r = renderProfileReport(HardwareProfile::loadText("h100"), {});
  for (const char *id : {"inst_throughput_vs_warps", "l2_bandwidth_vs_config", "l1_bandwidth",
                         "local_memory_bandwidth", "constant_throughput_vs_addresses"})
    EXPECT_TRUE(has(r, std::string("\n== ") + id + ": ")) << id;
  EXPECT_TRUE(has(r, "class=mufu, sass=MUFU")) << "no MUFU row";
  EXPECT_TRUE(has(r, "by warps per SM")) << "no pivot";
  EXPECT_TRUE(has(r, "footprint_mib=8, blocks_per_sm=1, threads_per_block=128"));
  EXPECT_TRUE(has(r, "array_bytes_per_thread=1024, access=load_store"));
}

TEST(ProfileReport, UnknownNameIsAProfileError) {
  EXPECT_THROW(HardwareProfile::loadText("h300"), ProfileError);
  EXPECT_THROW(HardwareProfile::loadText("/nonexistent/profile.json"), ProfileError);
}

} // namespace
