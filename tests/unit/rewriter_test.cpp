// The rewriter's guarantees: edits only inside their ranges, overlapping
// edits refused, a file changed since analysis never clobbered, diffs in
// unified format.
#include "analyzer/Analyzer.h"
#include "rewriter/FixApplier.h"
#include "rewriter/UnifiedDiff.h"
#include "rules/Rule.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warplint {
namespace {

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Rewriter, AppliesOnlyInsideRanges) {
  std::string text = "float t[32][32];\n";
  EXPECT_EQ(applyReplacements(text, {{"f", 12, 2, "33"}}), "float t[32][33];\n");
  // Identical edits (one kernel instantiated twice) apply once.
  EXPECT_EQ(applyReplacements(text, {{"f", 12, 2, "33"}, {"f", 12, 2, "33"}}), "float t[32][33];\n");
}

TEST(Rewriter, OverlapIsDetected) {
  Replacement a{"f", 10, 4, "x"}, b{"f", 12, 4, "y"}, c{"f", 14, 1, "z"}, d{"g", 10, 4, "x"};
  EXPECT_TRUE(a.overlaps(b));
  EXPECT_FALSE(a.overlaps(c));
  EXPECT_FALSE(a.overlaps(d));
  Replacement insertA{"f", 5, 0, "const "}, insertB{"f", 5, 0, "volatile "};
  EXPECT_TRUE(insertA.overlaps(insertB));
}

TEST(Rewriter, UnifiedDiffHunk) {
  std::string before = "a\nb\nc\nd\ne\nf\ng\nh\n", after = "a\nb\nc\nd\nE\nf\ng\nh\n";
  EXPECT_EQ(unifiedDiff("x.cu", before, after),
            "--- x.cu\n+++ x.cu\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
  EXPECT_EQ(unifiedDiff("x.cu", before, before), "");
}

TEST(Rewriter, FileChangedSinceAnalysisIsNotClobbered) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("warplint-rewriter-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string file = (dir / "tile.cu").string();
  {
    std::ofstream out(file);
    out << "__global__ void t(float *out) {\n"
           "  __shared__ float tile[32][32];\n"
           "  tile[threadIdx.y][threadIdx.x] = 1.f;\n"
           "  __syncthreads();\n"
           "  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
           "}\n"
           "int main() { t<<<1, dim3(32, 32)>>>(0); }\n";
  }
  AnalyzerOptions aopts;
  aopts.frontend.forceMinimalCuda = true;
  std::vector<CompileJob> jobs = jobsForFiles({file}, {});
  AnalysisResults results = analyze(jobs, aopts);
  RuleContext ctx;
  RuleOptions ropts;
  std::vector<Finding> findings = runRules(results, ctx, ropts);
  ASSERT_FALSE(findings.empty());

  // Someone saves the file between analysis and fixing.
  std::string edited = slurp(file) + "// edited meanwhile\n";
  {
    std::ofstream out(file);
    out << edited;
  }
  FixOptions fo;
  fo.write = true;
  FixResult r = applyFixes(results, findings, jobs, aopts, ctx, ropts, fo);
  ASSERT_FALSE(r.outcomes.empty());
  for (const FixOutcome &o : r.outcomes) {
    EXPECT_FALSE(o.applied);
    EXPECT_NE(o.why.find("changed since it was analyzed"), std::string::npos) << o.why;
  }
  EXPECT_EQ(slurp(file), edited);

  // Unchanged, the same fixes apply and the file is padded.
  results = analyze(jobs, aopts);
  findings = runRules(results, ctx, ropts);
  r = applyFixes(results, findings, jobs, aopts, ctx, ropts, fo);
  EXPECT_NE(slurp(file).find("tile[32][33]"), std::string::npos);
  fs::remove_all(dir);
}

// A signature edit that misses a forward declaration leaves two overloads,
// which clang accepts; the verifier must refuse it without nvcc.
TEST(Rewriter, EditMissingADeclarationIsRolledBack) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("warplint-redecl-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string file = (dir / "fwd.cu").string();
  const std::string source = "__global__ void scale(float *out, float *in);\n"
                             "void launch(float *d) { scale<<<1, 32>>>(d, d); }\n"
                             "__global__ void scale(float *out, float *in) { out[threadIdx.x] = 2.f * in[threadIdx.x]; }\n";
  {
    std::ofstream out(file);
    out << source;
  }
  AnalyzerOptions aopts;
  aopts.frontend.forceMinimalCuda = true;
  std::vector<CompileJob> jobs = jobsForFiles({file}, {});
  AnalysisResults results = analyze(jobs, aopts);
  ASSERT_EQ(results.units.size(), 1u);
  ASSERT_EQ(results.units[0].kernels.size(), 1u);
  const KernelInfo &k = results.units[0].kernels[0];
  EXPECT_TRUE(k.undefinedOverloads.empty());
  ASSERT_EQ(k.params.size(), 2u);
  ASSERT_EQ(k.params[1].redeclConstInsertAt.size(), 1u) << "the forward declaration's place for const";
  EXPECT_EQ(k.params[1].redeclConstInsertAt[0].offset, source.find("float *in);"));

  RuleContext ctx;
  RuleOptions ropts;
  ropts.enabled = {"readonly-param"};
  std::vector<Finding> findings = runRules(results, ctx, ropts);
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_EQ(findings[0].fixes.size(), 1u);
  ASSERT_EQ(findings[0].fixes[0].replacements.size(), 2u); // the definition and the declaration

  // The old behaviour: only the definition edited.
  std::vector<Finding> partial = findings;
  partial[0].fixes[0].replacements.resize(1);
  FixOptions fo;
  fo.write = true;
  FixResult r = applyFixes(results, partial, jobs, aopts, ctx, ropts, fo);
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_FALSE(r.outcomes[0].applied);
  EXPECT_NE(r.outcomes[0].why.find("the definition no longer matches a declaration: 'scale' declared at fwd.cu:1"),
            std::string::npos)
      << r.outcomes[0].why;
  EXPECT_EQ(slurp(file), source);

  // The whole fix applies and reaches both declarations.
  r = applyFixes(results, findings, jobs, aopts, ctx, ropts, fo);
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_TRUE(r.outcomes[0].applied) << r.outcomes[0].why;
  std::string fixed = slurp(file);
  EXPECT_NE(fixed.find("__global__ void scale(float *out, const float *in);"), std::string::npos) << fixed;
  EXPECT_NE(fixed.find("__global__ void scale(float *out, const float *in) {"), std::string::npos) << fixed;
  fs::remove_all(dir);
}

} // namespace
} // namespace warplint
