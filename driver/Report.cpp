#include "driver/Report.h"
#include "printers/ExplainPrinter.h"
#include "printers/JsonPrinter.h"
#include "printers/SarifPrinter.h"
#include "printers/SourceLines.h"
#include "printers/TextPrinter.h"

#include <sstream>

namespace warplint {

// Messages quote source text, which need not be valid UTF-8; replace bad
// bytes rather than let the JSON library throw.
static std::string dumpJson(const nlohmann::ordered_json &j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string renderReport(const AnalysisResults &results, const std::vector<Finding> &findings,
                         const ReportOptions &opts) {
  switch (opts.format) {
  case OutputFormat::Json:
    return dumpJson(reportToJson(results, findings, opts.gains));
  case OutputFormat::Sarif:
    return dumpJson(reportToSarif(results, findings, opts.rules, SarifOptions{opts.baseDir}));
  case OutputFormat::Text:
    break;
  }
  TextOptions text;
  text.color = opts.color;
  text.baseDir = opts.baseDir;
  text.showSuppressed = opts.showSuppressed;
  SourceLines sources;
  std::ostringstream os;
  printText(os, results, findings, text, sources);
  if (opts.explain)
    printExplain(os, results, findings, opts.baseDir, opts.gains);
  return os.str();
}

static Severity severityOf(const Finding &f) {
  return f.severity == "note" ? Severity::Note : f.severity == "error" ? Severity::Error : Severity::Warning;
}

int exitStatus(const AnalysisResults &results, const std::vector<Finding> &findings, Severity failOn) {
  return exitStatus(results, findings, failOn, [](const Finding &) { return 0.0; }); // every finding counts
}

int exitStatus(const AnalysisResults &results, const std::vector<Finding> &findings, Severity failOn,
               const std::function<double(const Finding &)> &failMinGain) {
  for (const TranslationUnitResult &unit : results.units)
    if (!unit.parsed)
      return 2;
  for (const Finding &f : findings) {
    if (f.suppression || severityOf(f) < failOn)
      continue;
    auto gain = predictedGainPercent(f);
    double floor = failMinGain(f);
    if (gain && floor > 0 && *gain < floor)
      continue; // predicted to be worth too little to fail a run (0 or less: every finding counts)
    return 1;
  }
  return 0;
}

bool useColor(ColorMode mode, bool toTerminal, const char *noColorEnv, const char *termEnv) {
  if (mode != ColorMode::Auto)
    return mode == ColorMode::Always;
  if (noColorEnv && *noColorEnv)
    return false;
  if (termEnv && std::string(termEnv) == "dumb")
    return false;
  return toTerminal;
}

} // namespace warplint
