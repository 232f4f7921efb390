// libFuzzer target: the whole of `warplint check` on one mutated CUDA file.
// The bytes are written to a .cu file (the analyzer, suppressions and
// fingerprints read the file from disk, as they do for a user's file), then
// analyzed with the bundled minimal CUDA declarations (fast, and what CI
// runners without a toolkit get), the rules run, findings are priced by the
// cost model, suppressions and fingerprints applied, and every printer
// renders into a string: text (with --explain), JSON, SARIF and the
// --dump-model JSON. Nothing is printed and nothing may exit: a crash, a
// sanitizer report, a hang or an exception is the finding.
#include "analyzer/Analyzer.h"
#include "analyzer/frontend/CompileJobs.h"
#include "driver/Baseline.h"
#include "driver/CommandLine.h"
#include "driver/FileSettings.h"
#include "driver/Report.h"
#include "driver/Suppressions.h"
#include "gains/PredictedGains.h"
#include "printers/ModelJson.h"
#include "printers/SourceLines.h"
#include "printers/TextPrinter.h"
#include "rules/Rule.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace warplint;

namespace {

std::string inputPath() {
  // One file per process: -jobs/-workers run several fuzzers side by side.
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/warplint-fuzz-" + std::to_string(getpid()) + ".cu";
}

std::vector<std::string> ruleIds() {
  std::vector<std::string> ids;
  for (const auto &rule : allRules())
    ids.push_back(rule->info().id);
  return ids;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  setExecutablePath((*argv)[0]); // the bundled headers are found next to the binary
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string path = inputPath();
  static const std::vector<std::string> known = ruleIds();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
  }

  CheckOptions o;
  o.files = {path};
  o.noCudaToolkit = true;
  o.explain = true;
  o.showSuppressed = true;
  FileSettingsResolver settings(o, known);
  std::string error;
  if (!settings.init(error))
    abort(); // the default settings never fail: a failure is a bug
  std::vector<CompileJob> jobs = jobsForFiles(o.files, o.compilerFlags);
  std::vector<const FileSettings *> jobSettings;
  for (const CompileJob &job : jobs) {
    const FileSettings *s = settings.forFile(job.file, error);
    if (!s)
      return 0; // a .warplint.yaml in TMPDIR that is not ours
    jobSettings.push_back(s);
  }

  AnalyzerOptions analyzerOpts;
  analyzerOpts.frontend.forceMinimalCuda = true;
  AnalysisResults results = analyze(jobs, analyzerOpts);
  std::vector<Finding> findings = runRules(results, [&](size_t unit) {
    return UnitRuleSettings{&jobSettings[unit]->ctx, &jobSettings[unit]->rules};
  });
  GainsResult gains =
      attachPredictedGains(results, findings, [&](size_t unit) { return jobSettings[unit]->ctx.profile; });
  // As `check --dump-model` writes it (driver/Commands.cpp): source text that
  // is not UTF-8 replaced, not an exception.
  std::string sink = modelToJson(results, &gains).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);

  SourceLines source;
  assignFingerprints(findings, "/", source);
  Suppressions suppressions;
  suppressions.apply(findings);
  sink += std::to_string(suppressions.problems().size());

  ReportOptions report;
  report.baseDir = "/";
  report.showSuppressed = true;
  report.explain = true;
  report.gains = &gains;
  for (const auto &rule : allRules())
    report.rules.push_back(&rule->info());
  for (OutputFormat format : {OutputFormat::Text, OutputFormat::Json, OutputFormat::Sarif}) {
    report.format = format;
    sink += renderReport(results, findings, report);
  }
  sink += summaryLine(results, findings) + topGainsLine(findings, "/");
  int status = exitStatus(results, findings, Severity::Note, [&](const Finding &f) {
    return f.unit < jobSettings.size() ? jobSettings[f.unit]->failMinGain : kDefaultFailMinGain;
  });
  if (status < 0 || status > 2)
    abort();
  // Keep the rendering from being optimized away.
  volatile size_t length = sink.size();
  (void)length;
  return 0;
}
