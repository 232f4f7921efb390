// `warplint lsp`: the language server with warplint's analysis wired in. Each
// document is analyzed as `check` would analyze the file: its compile command
// (from the nearest compile_commands.json, nvcc lines translated, else the
// fallback flags after `--`), its .warplint.yaml settings, its NOLINT
// comments, and the editor's unsaved text in place of the file on disk.
#include "analyzer/frontend/CompilationDatabaseSearch.h"
#include "driver/Commands.h"
#include "driver/FileSettings.h"
#include "driver/Suppressions.h"
#include "gains/PredictedGains.h"
#include "lsp/Server.h"
#include "printers/ToolInfo.h"
#include "rules/Rule.h"

#include <iostream>

namespace warplint {

namespace {

// The job for `path`: from the database named by -p or found near the file,
// when it lists the file; else the fallback flags.
CompileJob jobFor(const std::string &path, const CheckOptions &o, std::string &databaseDir) {
  databaseDir = o.buildDir.empty() ? findCompilationDatabase(path) : o.buildDir;
  if (!databaseDir.empty()) {
    std::vector<CompileJob> jobs;
    std::string error;
    if (loadCompileJobs(databaseDir, {path}, jobs, error) && !jobs.empty())
      return jobs.front();
    std::cerr << "warplint lsp: " << path << ": " << error << "; using the fallback flags\n";
    databaseDir.clear();
  }
  return jobsForFiles({path}, o.compilerFlags).front();
}

} // namespace

int runLsp(const CheckOptions &o) {
  if (int status = checkRuleAndCudaOptions(o))
    return status;
  FileSettingsResolver settings(o, knownRuleIds());
  std::string settingsError;
  if (!settings.init(settingsError)) {
    std::cerr << "warplint: error: " << settingsError << "\n";
    return 2;
  }
  const AnalyzerOptions base = analyzerOptionsFor(o);

  // Called on the server's one worker thread only, so the settings cache
  // needs no lock.
  auto analyzeDocument = [&](const std::string &path, const std::string &text) {
    lsp::DocumentReport report;
    std::string error;
    const FileSettings *fileSettings = settings.forFile(path, error);
    if (!fileSettings) {
      report.fatalError = error;
      return report;
    }
    if (fileSettings->config && fileSettings->config->excludes(path))
      return report; // excluded by .warplint.yaml: nothing to say
    AnalyzerOptions opts = base;
    CompileJob job = jobFor(path, o, opts.frontend.buildDir);
    opts.overlayFiles[job.file] = text;
    AnalysisResults results = analyze({job}, opts);
    const TranslationUnitResult &unit = results.units.front();
    if (!unit.parsed)
      report.fatalError = unit.fatalError;
    report.messages = unit.compileErrors;
    std::vector<Finding> findings = runRules(results, fileSettings->ctx, fileSettings->rules);
    attachPredictedGains(results, findings, [&](size_t) { return fileSettings->ctx.profile; });
    // NOLINT comments in the buffer silence findings as they do for check
    // (which lists silenced ones only on request; an editor never does).
    Suppressions suppressions;
    suppressions.setContents(path, text);
    suppressions.apply(findings);
    for (Finding &f : findings) {
      auto gain = predictedGainPercent(f);
      if (!f.suppression && !(gain && *gain < fileSettings->minGain))
        report.findings.push_back(std::move(f));
    }
    for (const FrontendMessage &m : suppressions.problems())
      report.messages.push_back(m);
    return report;
  };

  lsp::Transport transport(std::cin, std::cout);
  lsp::ServerOptions options;
  options.version = kToolVersion;
  lsp::Server server(transport, analyzeDocument, options);
  return server.run();
}

} // namespace warplint
