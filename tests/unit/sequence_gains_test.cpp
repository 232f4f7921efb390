// host-transfer-batching's two shapes priced as their advice says
// (gains/SequenceGains.cpp): a loop copying one row each iteration saves the
// loop's copies less one copy of all the rows; a run of small copies one after
// another saves, each time the run runs, its copies less one packed copy of
// their summed bytes (examples/host/batching_run_*: six parameter copies a
// time step against one struct copy).
#include "analyzer/host/HostFacts.h"
#include "analyzer/profile/HardwareProfile.h"
#include "gains/PredictedGains.h"
#include "gains/SequenceGains.h"
#include "rules/Rule.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

const char *kFile = "/tmp/steps.cu";

HostLoop loopAt(unsigned line, int64_t trips) {
  HostLoop l;
  l.loc = {kFile, line, 3};
  l.kind = "for";
  l.inductionVar = "step";
  l.tripCount = trips;
  l.endLine = line + 20;
  return l;
}

HostTransfer pinnedCopy(unsigned line, int64_t bytes, CopyDirection dir, size_t order) {
  HostTransfer t;
  t.loc = {kFile, line, 5};
  t.api = "cudaMemcpy";
  t.function = "main";
  t.direction = dir;
  bool h2d = dir == CopyDirection::HostToDevice;
  t.hostOperand = h2d ? 1 : 0;
  BufferOrigin host, device;
  host.kind = MemoryOrigin::Pinned;
  host.allocator = "cudaMallocHost";
  host.variable = "h" + std::to_string(line);
  host.key = "var:" + std::to_string(line);
  device.kind = MemoryOrigin::Device;
  device.allocator = "cudaMalloc";
  device.variable = "d" + std::to_string(line);
  (h2d ? t.src : t.dst) = host;
  (h2d ? t.dst : t.src) = device;
  t.srcText = h2d ? host.variable : device.variable;
  t.dstText = h2d ? device.variable : host.variable;
  t.sizeBytes = bytes;
  t.sizeText = std::to_string(bytes);
  t.order = order;
  return t;
}

AnalysisResults unitWith(std::vector<HostTransfer> transfers) {
  AnalysisResults results;
  TranslationUnitResult unit;
  unit.parsed = true;
  unit.file = kFile;
  unit.host = std::make_shared<HostFacts>();
  unit.host->transfers = std::move(transfers);
  results.units.push_back(unit);
  return results;
}

double us(const HardwareProfile &p, const char *memory, double bytes, const char *dir = "h2d") {
  auto v = transferTimeUs(p, dir, memory, bytes);
  EXPECT_TRUE(v.has_value());
  return v.value_or(0);
}

std::vector<Finding> batchingFindings(AnalysisResults &results, const HardwareProfile &profile) {
  RuleOptions only;
  only.enabled = {"host-transfer-batching"};
  RuleContext ctx;
  ctx.profile = &profile;
  std::vector<Finding> findings = runRules(results, ctx, only);
  attachPredictedGains(results, findings, [&](size_t) { return &profile; });
  return findings;
}

} // namespace

// Six small pinned copies one after another in a 200-step loop, then one
// 1 MiB copy back after the loop (so the step loop is not around every copy
// and counts): each step's six copies become one of their 5,392 bytes.
TEST(SequenceGains, RunPackedIntoOneCopyEachRepetition) {
  HardwareProfile profile = HardwareProfile::bundled("h100");
  const int64_t sizes[] = {16, 256, 256, 256, 512, 4096};
  std::vector<HostTransfer> copies;
  double piecesUs = 0, sum = 0;
  for (size_t i = 0; i < 6; ++i) {
    HostTransfer t = pinnedCopy(20 + i, sizes[i], CopyDirection::HostToDevice, i);
    t.loops = {loopAt(18, 200)};
    t.block = std::string(kFile) + ":18:40";
    copies.push_back(t);
    piecesUs += us(profile, "pinned", sizes[i]);
    sum += sizes[i];
  }
  copies.push_back(pinnedCopy(40, 1 << 20, CopyDirection::DeviceToHost, 6));
  double backUs = us(profile, "pinned", 1 << 20, "d2h");
  AnalysisResults results = unitWith(copies);
  std::vector<Finding> findings = batchingFindings(results, profile);
  ASSERT_EQ(findings.size(), 1u);
  const Finding &f = findings[0];
  ASSERT_TRUE(f.details.contains("run")) << f.message;
  ASSERT_TRUE(f.details.contains("sequence_cost")) << f.details.dump();
  const auto &cost = f.details["sequence_cost"];
  double before = 200 * piecesUs + backUs;
  double after = 200 * us(profile, "pinned", sum) + backUs;
  EXPECT_NEAR(cost["time_us"].get<double>(), before, 0.01);
  EXPECT_NEAR(cost["time_us_after"].get<double>(), after, 0.01);
  // The saving: per step, six copies less one packed copy (not the first
  // copy's 200 iterations merged, the loop-of-rows pricing).
  EXPECT_NEAR(cost["time_us"].get<double>() - cost["time_us_after"].get<double>(),
              200 * (piecesUs - us(profile, "pinned", sum)), 0.01);
  EXPECT_EQ(cost["run_copies_packed"].get<int>(), 6);
  EXPECT_EQ(cost["packed_copy_bytes"].get<int>(), 5392);
  EXPECT_NEAR(f.details["predicted_sequence_speedup"].get<double>(), before / after, 0.001);
  bool noted = false;
  for (const FindingNote &n : f.notes)
    noted = noted || n.message.find("with the run's 6 copies packed into one of 5.3 KiB each iteration") !=
                         std::string::npos;
  EXPECT_TRUE(noted);
}

// The same run written once per call (no loop): one packed copy once.
TEST(SequenceGains, RunOnceOutsideLoops) {
  HardwareProfile profile = HardwareProfile::bundled("h100");
  std::vector<HostTransfer> copies;
  double piecesUs = 0;
  for (size_t i = 0; i < 4; ++i) {
    HostTransfer t = pinnedCopy(10 + i, 1024, CopyDirection::HostToDevice, i);
    t.block = std::string(kFile) + ":8:12";
    copies.push_back(t);
    piecesUs += us(profile, "pinned", 1024);
  }
  AnalysisResults results = unitWith(copies);
  std::vector<Finding> findings = batchingFindings(results, profile);
  ASSERT_EQ(findings.size(), 1u);
  const auto &cost = findings[0].details["sequence_cost"];
  EXPECT_NEAR(cost["time_us"].get<double>(), piecesUs, 0.01);
  EXPECT_NEAR(cost["time_us_after"].get<double>(), us(profile, "pinned", 4096), 0.01);
}

// A loop copying one 1 KiB row of one pinned block each of its 512
// iterations: the loop's copies as one copy of 512 KiB (unchanged pricing).
TEST(SequenceGains, LoopOfRowsMergedIntoOneCopy) {
  HardwareProfile profile = HardwareProfile::bundled("h100");
  HostTransfer row = pinnedCopy(30, 1024, CopyDirection::HostToDevice, 0);
  row.loops = {loopAt(29, 512)};
  row.srcVariesInLoop = row.dstVariesInLoop = true;
  row.outerPiece = true;
  HostTransfer back = pinnedCopy(40, 1 << 20, CopyDirection::DeviceToHost, 1);
  AnalysisResults results = unitWith({row, back});
  std::vector<Finding> findings = batchingFindings(results, profile);
  ASSERT_EQ(findings.size(), 1u);
  const Finding &f = findings[0];
  EXPECT_FALSE(f.details.contains("run"));
  const auto &cost = f.details["sequence_cost"];
  double backUs = us(profile, "pinned", 1 << 20, "d2h");
  EXPECT_NEAR(cost["time_us"].get<double>(), 512 * us(profile, "pinned", 1024) + backUs, 0.01);
  EXPECT_NEAR(cost["time_us_after"].get<double>(), us(profile, "pinned", 512 * 1024) + backUs, 0.01);
  EXPECT_FALSE(cost.contains("run_copies_packed"));
}
