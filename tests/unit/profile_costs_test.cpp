// Costs in findings come from the measured profile, and from nothing else.
#include "rules/ProfileCosts.h"
#include <fstream>
#include <gtest/gtest.h>

using namespace warplint;

TEST(ProfileCosts, SharedConflictUsesMeasuredLatencyAndThroughput) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  nlohmann::json details;
  std::string text = sharedConflictCost(*p, 32, details);
  ASSERT_FALSE(text.empty());
  EXPECT_NE(text.find("cycles a load against"), std::string::npos);
  EXPECT_NE(text.find(p->deviceName()), std::string::npos);
  EXPECT_NE(text.find("throughput loss"), std::string::npos);
  EXPECT_EQ(details["measured_cost"]["id"], p->profileId());
  EXPECT_DOUBLE_EQ(details["measured_cost"]["load_latency_cycles"].get<double>(), *p->sharedLoadLatencyCycles(32));
}

TEST(ProfileCosts, GlobalUsesTheStrideTableForFloatGathers) {
  auto p = HardwareProfile::defaultProfile();
  if (!p)
    GTEST_SKIP() << "no bundled profile";
  nlohmann::json details;
  std::string text = globalTrafficCost(*p, 32, 4, 128, 4, details);
  EXPECT_NE(text.find("stride-32 float access"), std::string::npos);
  EXPECT_DOUBLE_EQ(details["measured_cost"]["useful_bandwidth_gbps"].get<double>(),
                   *p->globalBandwidthByStrideGBps(32));
  // A row-pitch stride is far beyond the table: the DRAM bound is used.
  nlohmann::json d2;
  std::string t2 = globalTrafficCost(*p, 32, 4, 4096, 4, d2);
  EXPECT_NE(t2.find("carry useful bytes"), std::string::npos);
  EXPECT_NEAR(d2["measured_cost"]["useful_bandwidth_bound_gbps"].get<double>(), *p->dramBandwidthGBps() / 8, 1e-6);
}

TEST(ProfileCosts, AbsentValuesGiveNoNumber) {
  // The bundled profile's identity with every measured value removed.
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/probes/profiles/h100.json");
  if (!in)
    GTEST_SKIP() << "no H100 profile";
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["probes"] = nlohmann::json::array();
  HardwareProfile p = HardwareProfile::fromJson(doc.dump());
  nlohmann::json details;
  EXPECT_EQ(sharedConflictCost(p, 32, details), "");
  EXPECT_EQ(globalTrafficCost(p, 32, 4, 128, 4, details), "");
  EXPECT_FALSE(details.contains("measured_cost"));
}
