#include "driver/FixCommand.h"
#include "driver/OutputFile.h"
#include "rewriter/FixApplier.h"
#include "rewriter/FixesYaml.h"
#include "rewriter/UnifiedDiff.h"

#include <filesystem>
#include <iostream>

namespace warplint {

namespace {

std::string nvccPath(const CheckOptions &o) {
  namespace fs = std::filesystem;
  if (!o.cudaPath.empty())
    return (fs::path(o.cudaPath) / "bin" / "nvcc").string();
  if (const char *env = std::getenv("CUDA_PATH"); env && *env && fs::exists(fs::path(env) / "bin" / "nvcc"))
    return (fs::path(env) / "bin" / "nvcc").string();
  if (fs::exists("/usr/local/cuda/bin/nvcc"))
    return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

std::string place(const FixOutcome &f) {
  return f.loc.file + ":" + std::to_string(f.loc.line) + ":" + std::to_string(f.loc.column);
}

} // namespace

int runFixes(const CheckOptions &o, const AnalysisResults &results, const std::vector<Finding> &findings,
             const std::vector<CompileJob> &jobs, const AnalyzerOptions &analyzerOpts, const RuleContext &ctx,
             const RuleOptions &ruleOpts) {
  FixOptions fo;
  fo.write = o.fix;
  fo.fixLaunch = o.fixLaunch;
  if (o.fixVerifyNvcc) {
    fo.nvcc = nvccPath(o);
    for (const std::string &f : o.compilerFlags)
      if (f.rfind("-I", 0) == 0 || f.rfind("-D", 0) == 0 || f.rfind("-std", 0) == 0)
        fo.nvccFlags.push_back(f);
  }
  FixResult r = applyFixes(results, findings, jobs, analyzerOpts, ctx, ruleOpts, fo);

  int status = 0;
  if (o.fixDryRun)
    for (const auto &[file, text] : r.fixed)
      std::cout << unifiedDiff(file, r.original[file], text);
  for (const FixOutcome &f : r.outcomes) {
    if (f.applied)
      std::cerr << "warplint: " << (o.fix ? "fixed" : "fix") << " " << place(f) << ": " << f.fix.description
                << " [" << f.rule << "]\n";
    else
      std::cerr << "warplint: fix not applied at " << place(f) << " [" << f.rule << "]: " << f.why << "\n";
  }
  for (const std::string &e : r.writeErrors) {
    std::cerr << "warplint: error: " << e << "\n";
    status = 2;
  }
  if (!o.exportFixes.empty()) {
    std::string main = results.units.empty() ? "" : results.units.front().file;
    if (!main.empty())
      main = std::filesystem::absolute(main).lexically_normal().string();
    std::string error;
    if (!writeFileAtomically(o.exportFixes,
                             fixesYaml(main, std::filesystem::current_path().string(), r.applied()), error)) {
      std::cerr << "warplint: error: " << error << "\n";
      status = 2;
    }
  }
  return status;
}

} // namespace warplint
