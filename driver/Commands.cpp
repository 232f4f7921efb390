#include "driver/Commands.h"
#include "gains/PredictedGains.h"
#include "driver/FixCommand.h"
#include "driver/Baseline.h"
#include "driver/FileSettings.h"
#include "printers/ModelJson.h"
#include "analyzer/Analyzer.h"
#include "analyzer/profile/HardwareProfile.h"
#include "driver/OutputFile.h"
#include "driver/Report.h"
#include "driver/Suppressions.h"
#include "printers/RuleDocs.h"
#include "printers/TextPrinter.h"
#include "rules/Rule.h"

#include <algorithm>
#include <thread>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace warplint {

namespace fs = std::filesystem;

namespace {

int usageError(const std::string &message) {
  std::cerr << "warplint: error: " << message << "\n";
  return 2;
}

std::vector<const RuleInfo *> registryInfos() {
  std::vector<const RuleInfo *> infos;
  for (const auto &rule : allRules())
    infos.push_back(&rule->info());
  return infos;
}

std::string joined(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &item : items)
    s += (s.empty() ? "" : ", ") + item;
  return s;
}

// Every named input must be a readable regular file before any parsing starts:
// a typo is a usage error, not a TU that failed.
std::vector<std::string> inputProblems(const std::vector<std::string> &files) {
  std::vector<std::string> problems;
  for (const std::string &file : files) {
    struct stat st;
    if (stat(file.c_str(), &st) != 0)
      problems.push_back("no such file: '" + file + "'");
    else if (S_ISDIR(st.st_mode))
      problems.push_back("'" + file + "' is a directory, not a source file");
    else if (access(file.c_str(), R_OK) != 0)
      problems.push_back("cannot read '" + file + "'");
  }
  return problems;
}

std::string currentDirectory() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  return ec ? std::string() : cwd.string();
}

bool emit(const std::string &text, const std::string &outputFile) {
  if (outputFile.empty()) {
    std::cout << text << std::flush;
    return true;
  }
  std::string error;
  if (writeFileAtomically(outputFile, text, error))
    return true;
  usageError(error);
  return false;
}

} // namespace

std::vector<std::string> knownRuleIds() {
  std::vector<std::string> known;
  for (const RuleInfo *info : registryInfos())
    known.push_back(info->id);
  return known;
}

int checkRuleAndCudaOptions(const CheckOptions &o) {
  std::vector<std::string> known = knownRuleIds();
  for (const auto &[list, flag] : {std::pair{&o.rules, "--rules"}, {&o.warningsAsErrors, "--warnings-as-errors"}}) {
    std::vector<std::string> unknown = unknownRuleIds(*list, known);
    if (!unknown.empty())
      return usageError("unknown rule" + std::string(unknown.size() == 1 ? " '" : "s '") + joined(unknown) +
                        "' in " + flag + " (known: " + joined(known) + ")");
  }
  if (const char *env = std::getenv("WARPLINT_PTXAS"); o.ptxas.empty() && env && *env) {
    PtxasMode mode;
    if (!parsePtxasMode(env, mode) || mode == PtxasMode::CacheOnly)
      return usageError("invalid value '" + std::string(env) + "' in WARPLINT_PTXAS (expected off, auto or on)");
  }
  if (!o.cudaPath.empty() && !o.noCudaToolkit) {
    std::string why;
    if (!locateCuda(o.cudaPath, why))
      return usageError(why);
  }
  return 0;
}

AnalyzerOptions analyzerOptionsFor(const CheckOptions &o) {
  AnalyzerOptions analyzerOpts;
  analyzerOpts.frontend.cudaPath = o.cudaPath;
  analyzerOpts.frontend.forceMinimalCuda = o.noCudaToolkit;
  analyzerOpts.frontend.buildDir = o.buildDir;
  analyzerOpts.frontend.extraArgs = o.compilerFlags;
  // Unset, $WARPLINT_PTXAS decides (the test suites pin it), else auto;
  // an invalid value in the variable is an error of the run (checked in
  // checkRuleAndCudaOptions).
  std::string ptxas = o.ptxas;
  if (const char *env = std::getenv("WARPLINT_PTXAS"); ptxas.empty() && env && *env)
    ptxas = env;
  if (ptxas.empty() || !parsePtxasMode(ptxas, analyzerOpts.ptxas))
    analyzerOpts.ptxas = PtxasMode::Auto;
  if (o.noCudaToolkit)
    analyzerOpts.ptxas = PtxasMode::Off;
  analyzerOpts.nativeCacheDir = o.noCache ? "" : !o.cacheDir.empty() ? o.cacheDir : defaultNativeCacheDir();
  analyzerOpts.countWork = !o.noCostModel;
  analyzerOpts.timeLimitSeconds = o.timeLimit;
  return analyzerOpts;
}

int runCheck(const CheckOptions &o) {
  if (int status = checkRuleAndCudaOptions(o))
    return status;
  std::vector<std::string> known = knownRuleIds();

  // Costs come from a measured hardware profile: the one named (flag, then
  // the file's .warplint.yaml), else the bundled H100 profile when the build
  // embedded one. Rules, profile and options may differ per file's config.
  FileSettingsResolver settings(o, known);
  std::string settingsError;
  if (!settings.init(settingsError))
    return usageError(settingsError);
  Baseline baseline;
  if (!o.baselineFile.empty() && !loadBaseline(o.baselineFile, baseline, settingsError))
    return usageError(settingsError);

  std::vector<std::string> problems = inputProblems(o.files);
  if (!problems.empty()) {
    for (const std::string &p : problems)
      usageError(p);
    return 2;
  }

  AnalyzerOptions analyzerOpts = analyzerOptionsFor(o);

  std::vector<CompileJob> jobs;
  if (!o.buildDir.empty()) {
    std::string error;
    if (!loadCompileJobs(o.buildDir, o.files, jobs, error))
      return usageError(error);
    if (jobs.empty())
      return usageError("no CUDA sources in " + (fs::path(o.buildDir) / "compile_commands.json").string());
  } else {
    jobs = jobsForFiles(o.files, o.compilerFlags);
  }

  // Each file's settings; files its config excludes are dropped here.
  std::vector<const FileSettings *> jobSettings;
  size_t excluded = 0;
  for (size_t i = 0; i < jobs.size();) {
    const FileSettings *s = settings.forFile(jobs[i].file, settingsError);
    if (!s)
      return usageError(settingsError);
    if (s->config && s->config->excludes(jobs[i].file)) {
      jobs.erase(jobs.begin() + static_cast<long>(i));
      ++excluded;
      continue;
    }
    jobSettings.push_back(s);
    ++i;
  }
  if (excluded && !o.quiet)
    std::cerr << "warplint: " << excluded << " file" << (excluded == 1 ? "" : "s")
              << " excluded by .warplint.yaml\n";

  if (o.printClangCommand) {
    for (const CompileJob &job : jobs) {
      ClangCommand cmd = buildClangCommand(job, analyzerOpts.frontend);
      std::string line;
      for (const std::string &a : cmd.argv) {
        // Quoted for a POSIX shell, so the line can be run as it is.
        bool plain = !a.empty() && a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                       "0123456789_./=:+,-@%") == std::string::npos;
        std::string quoted = plain ? a : "'" + a + "'";
        if (!plain)
          for (size_t pos = quoted.find('\'', 1); pos != quoted.size() - 1 && pos != std::string::npos;
               pos = quoted.find('\'', pos + 4))
            quoted.replace(pos, 1, "'\\''");
        line += (line.empty() ? "" : " ") + quoted;
      }
      std::cout << line << "\n";
    }
    return 0;
  }

  analyzerOpts.threads = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  // On a terminal, one line on stderr that is rewritten as files finish.
  bool progress = !o.quiet && jobs.size() > 1 && isatty(STDERR_FILENO);
  if (progress)
    analyzerOpts.onUnitDone = [&](size_t done, size_t total, const std::string &file) {
      std::cerr << "\r\033[K[" << done << "/" << total << "] " << displayPath(file, currentDirectory())
                << std::flush;
    };
  // Kept, not freed, when the process ends right after (processEndsAfter).
  struct ResultsHolder {
    std::unique_ptr<AnalysisResults> owned;
    bool keep;
    ~ResultsHolder() {
      if (keep)
        (void)owned.release();
    }
  } held{std::make_unique<AnalysisResults>(analyze(jobs, analyzerOpts)), o.processEndsAfter};
  AnalysisResults &results = *held.owned;
  if (progress)
    std::cerr << "\r\033[K" << std::flush;
  std::vector<Finding> findings = runRules(results, [&](size_t unit) {
    return UnitRuleSettings{&jobSettings[unit]->ctx, &jobSettings[unit]->rules};
  });
  // What each finding is worth on its kernel: a stage of its own between
  // the rules and the printers (gains/).
  GainsResult gains =
      attachPredictedGains(results, findings, [&](size_t unit) { return jobSettings[unit]->ctx.profile; });
  if (o.dumpModel)
    // Source text is not always UTF-8: invalid bytes are replaced, as in the JSON report.
    return emit(modelToJson(results, &gains).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                    "\n",
                o.outputFile)
               ? 0
               : 2;
  // --min-gain / min-gain: findings predicted to gain less are not shown
  // (those the model could not price always are).
  size_t belowMinGain = 0;
  std::vector<size_t> keep;
  for (size_t i = 0; i < findings.size(); ++i) {
    auto gain = predictedGainPercent(findings[i]);
    if (gain && findings[i].unit < jobSettings.size() && *gain < jobSettings[findings[i].unit]->minGain)
      ++belowMinGain;
    else
      keep.push_back(i);
  }
  if (belowMinGain) {
    std::vector<Finding> shown;
    for (size_t i : keep)
      shown.push_back(std::move(findings[i]));
    findings = std::move(shown);
  }
  if (o.sortByGain)
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
      return predictedGainPercent(a).value_or(-1e300) > predictedGainPercent(b).value_or(-1e300);
    });
  SourceLines source;
  assignFingerprints(findings, currentDirectory(), source);
  if (!o.baselineFile.empty()) {
    size_t known = subtractBaseline(findings, baseline);
    if (!o.quiet && o.format == OutputFormat::Text)
      std::cerr << "warplint: " << known << " finding" << (known == 1 ? "" : "s") << " in the baseline not shown\n";
  }
  // Inline NOLINT comments: a stage of its own between rules and printers.
  Suppressions suppressions;
  suppressions.apply(findings);
  for (const FrontendMessage &m : suppressions.problems())
    std::cerr << displayPath(m.loc.file, currentDirectory()) << ":" << m.loc.line << ":" << m.loc.column << ": warning: " << m.message << "\n";

  ReportOptions report;
  report.format = o.format;
  report.baseDir = currentDirectory();
  report.showSuppressed = o.showSuppressed;
  report.explain = o.explain;
  report.gains = &gains;
  for (const RuleInfo *info : registryInfos())
    if (o.rules.empty() || std::find(o.rules.begin(), o.rules.end(), info->id) != o.rules.end())
      report.rules.push_back(info);
  report.color = o.format == OutputFormat::Text &&
                 useColor(o.color, o.outputFile.empty() && isatty(STDOUT_FILENO),
                          std::getenv("NO_COLOR"), std::getenv("TERM"));

  if (!emit(renderReport(results, findings, report), o.outputFile))
    return 2;
  if (o.format == OutputFormat::Text && !o.quiet) {
    std::cerr << summaryLine(results, findings) << "\n";
    if (belowMinGain)
      std::cerr << "warplint: " << belowMinGain << " finding" << (belowMinGain == 1 ? "" : "s")
                << " predicted below --min-gain not shown\n";
    if (std::string top = topGainsLine(findings, currentDirectory()); !top.empty())
      std::cerr << top << "\n";
  }
  if (o.fix || o.fixDryRun || !o.exportFixes.empty()) {
    std::vector<Finding> active; // a silenced finding's fix is not applied either
    for (const Finding &f : findings)
      if (!f.suppression)
        active.push_back(f);
    // A fix is re-checked with the settings of the first file (the rules
    // that offered the fixes ran under each file's own).
    if (runFixes(o, results, active, jobs, analyzerOpts, jobSettings.front()->ctx, jobSettings.front()->rules) != 0)
      return 2;
  }
  return exitStatus(results, findings, o.failOn, [&](const Finding &f) {
    return f.unit < jobSettings.size() ? jobSettings[f.unit]->failMinGain : kDefaultFailMinGain;
  });
}

int runListRules(const ListRulesOptions &o) {
  std::vector<const RuleInfo *> infos = registryInfos();
  switch (o.format) {
  case ListFormat::Markdown:
    std::cout << renderRuleIndex(infos);
    return 0;
  case ListFormat::Json: {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const RuleInfo *info : infos)
      j.push_back({{"id", info->id},
                   {"title", info->title},
                   {"guideline", info->guideline},
                   {"seed", info->seed},
                   {"rationale", info->rationale},
                   {"bad_example", info->badExample},
                   {"good_example", info->goodExample},
                   {"fix_safety", info->fixSafety}});
    std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return 0;
  }
  case ListFormat::Text:
    break;
  }
  size_t idWidth = 0, guidelineWidth = 0;
  for (const RuleInfo *info : infos) {
    idWidth = std::max(idWidth, info->id.size());
    guidelineWidth = std::max(guidelineWidth, info->guideline.size());
  }
  for (const RuleInfo *info : infos)
    std::cout << info->id << std::string(idWidth - info->id.size() + 2, ' ') << info->guideline
              << std::string(guidelineWidth - info->guideline.size() + 2, ' ') << info->title
              << "\n";
  return 0;
}

int runDocs(const DocsOptions &o) {
  std::error_code ec;
  fs::create_directories(o.outDir, ec);
  if (ec)
    return usageError("cannot create directory '" + o.outDir + "': " + ec.message());

  std::vector<const RuleInfo *> infos = registryInfos();
  std::set<std::string> written;
  auto write = [&](const std::string &name, const std::string &text) {
    std::string error;
    if (!writeFileAtomically((fs::path(o.outDir) / name).string(), text, error)) {
      usageError(error);
      return false;
    }
    written.insert(name);
    return true;
  };
  for (const RuleInfo *info : infos) {
    for (const std::string &problem : checkRuleInfo(*info))
      std::cerr << "warplint: warning: rule registry: " << problem << "\n";
    if (!write(info->id + ".md", renderRuleMarkdown(*info)))
      return 2;
  }
  if (!write("README.md", renderRuleIndex(infos)))
    return 2;

  // Pages of rules that no longer exist are not deleted (the directory may be
  // shared), but called out: the drift test fails on them.
  for (const auto &entry : fs::directory_iterator(o.outDir, ec))
    if (entry.path().extension() == ".md" && !written.count(entry.path().filename().string()))
      std::cerr << "warplint: warning: " << entry.path().string()
                << " documents no rule in the registry; delete it\n";
  std::cerr << "wrote " << written.size() << " files to " << o.outDir << "\n";
  return 0;
}

} // namespace warplint
