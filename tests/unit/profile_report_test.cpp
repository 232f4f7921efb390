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

TEST(ProfileReport, UnknownNameIsAProfileError) {
  EXPECT_THROW(HardwareProfile::loadText("h300"), ProfileError);
  EXPECT_THROW(HardwareProfile::loadText("/nonexistent/profile.json"), ProfileError);
}

} // namespace
