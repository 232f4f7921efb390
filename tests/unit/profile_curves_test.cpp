// ProfileCurves: the cost model's curves are read once per profile and
// kept by its contentId; a copy shares them, another load (even of the same
// text) builds its own, and each profile gets its own values.
#include "analyzer/cost/ProfileCurves.h"

#include <gtest/gtest.h>

using namespace warplint;

TEST(ProfileCurves, CachedPerLoadedProfile) {
  HardwareProfile h100 = HardwareProfile::bundled("h100"), again = HardwareProfile::bundled("h100");
  HardwareProfile h200 = HardwareProfile::bundled("h200");
  HardwareProfile copy = h100;
  EXPECT_EQ(copy.contentId(), h100.contentId());
  EXPECT_NE(again.contentId(), h100.contentId());
  const ProfileCurves &a = ProfileCurves::of(h100);
  EXPECT_EQ(&a, &ProfileCurves::of(copy));
  const ProfileCurves &b = ProfileCurves::of(again);
  EXPECT_NE(&a, &b);
  EXPECT_EQ(a.dramRead.points, b.dramRead.points);
  ASSERT_FALSE(a.dramRead.empty());
  ASSERT_FALSE(a.launch.empty());
  ASSERT_FALSE(a.fmaIssue.empty());
  // The H200's own measurements, not the H100's cached curves.
  const ProfileCurves &c = ProfileCurves::of(h200);
  ASSERT_FALSE(c.dramRead.empty());
  EXPECT_NE(a.dramRead.points, c.dramRead.points);
  // The same object again after the others were built.
  EXPECT_EQ(&a, &ProfileCurves::of(h100));
  // The FMA curve's points are the profile's values at those warp counts.
  for (auto &[warps, rate] : a.fmaIssue.points) {
    auto v = h100.find("alu_throughput_vs_warps", "fma_warp_instructions_per_clk_per_sm", {{"warps_per_sm", warps}});
    ASSERT_TRUE(v);
    EXPECT_EQ(v->median, rate);
  }
}

TEST(ProfileCurves, L2BandwidthOutsideTheMeasuredRange) {
  HardwareProfile p = HardwareProfile::bundled("h100");
  const ProfileCurves::Range &r = ProfileCurves::of(p).l2Read;
  ASSERT_GT(r.lo, 0);
  ASSERT_GT(r.hi, r.lo);
  double atLo = *p.l2BandwidthGBps(r.lo), atHi = *p.l2BandwidthGBps(r.hi);
  // Inside: the profile's interpolation; below: Little's law; above: the plateau.
  EXPECT_EQ(*l2BandwidthAt(p, (r.lo + r.hi) / 2, false), *p.l2BandwidthGBps((r.lo + r.hi) / 2));
  EXPECT_DOUBLE_EQ(*l2BandwidthAt(p, r.lo / 4, false), atLo / 4);
  EXPECT_EQ(*l2BandwidthAt(p, r.hi * 64, false), atHi);
  const ProfileCurves::Range &w = ProfileCurves::of(p).l2Write;
  ASSERT_GT(w.lo, 0);
  EXPECT_EQ(*l2BandwidthAt(p, w.lo / 4, true), *p.l2WriteBandwidthGBps(w.lo));
}
