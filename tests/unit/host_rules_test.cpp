// Host-side findings belong to a unit, not a kernel: runRules sets unit and
// leaves kernelIndex at -1, and the gains stage and the printers take them.
#include "analyzer/host/HostFacts.h"
#include "gains/PredictedGains.h"
#include "printers/ModelJson.h"
#include "rules/Rule.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

AnalysisResults unitWithPageableCopy() {
  AnalysisResults results;
  TranslationUnitResult unit;
  unit.parsed = true;
  unit.file = "/tmp/copy.cu";
  unit.host = std::make_shared<HostFacts>();
  HostTransfer t;
  t.loc = {"/tmp/copy.cu", 12, 3};
  t.api = "cudaMemcpy";
  t.function = "main";
  t.direction = CopyDirection::HostToDevice;
  t.hostOperand = 1;
  t.src.kind = MemoryOrigin::Pageable;
  t.src.allocator = "malloc";
  t.src.variable = "h";
  t.dst.kind = MemoryOrigin::Device;
  t.sizeBytes = 1 << 20;
  unit.host->transfers.push_back(t);
  unit.kernels.resize(1); // a kernel of its own, judged by the kernel rules
  unit.kernels[0].name = "k";
  unit.kernels[0].isGlobal = true;
  results.units.push_back(unit);
  return results;
}

} // namespace

TEST(HostRules, FindingsHaveNoKernel) {
  AnalysisResults results = unitWithPageableCopy();
  RuleOptions only;
  only.enabled = {"host-pageable-transfer"};
  std::vector<Finding> findings = runRules(results, RuleContext{}, only);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].unit, 0u);
  EXPECT_EQ(findings[0].kernelIndex, static_cast<size_t>(-1));
  EXPECT_EQ(findings[0].kernel, "");
  EXPECT_NE(findings[0].message.find("1 MiB from pageable host memory 'h' (malloc)"), std::string::npos)
      << findings[0].message;
  // No profile value: no number in the notes.
  for (const FindingNote &n : findings[0].notes)
    EXPECT_EQ(n.message.find("GB/s"), std::string::npos) << n.message;
  GainsResult gains = attachPredictedGains(results, findings, [](size_t) { return nullptr; });
  EXPECT_TRUE(findings[0].details.contains("predicted_kernel_speedup_unavailable"));
  EXPECT_FALSE(modelToJson(results, &gains)[0]["host"]["transfers"].empty());
}

TEST(HostRules, UnitsWithoutHostFactsAreSkipped) {
  AnalysisResults results = unitWithPageableCopy();
  results.units[0].host.reset();
  RuleOptions host;
  host.enabled = {"host-pageable-transfer", "host-transfer-batching", "host-transfer-no-overlap",
                  "managed-memory-no-prefetch"};
  EXPECT_TRUE(runRules(results, RuleContext{}, host).empty());
}
