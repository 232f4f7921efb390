#include "printers/JsonPrinter.h"
#include "printers/CostJson.h"
#include "printers/ExplainPrinter.h"
#include "printers/ToolInfo.h"

namespace warplint {

using nlohmann::ordered_json;

static void putLocation(ordered_json &j, const SourceLocation &loc) {
  j["file"] = loc.file;
  j["line"] = loc.line;
  j["column"] = loc.column;
}

ordered_json findingToJson(const Finding &f) {
  ordered_json j;
  j["rule"] = f.rule;
  j["severity"] = f.severity;
  putLocation(j, f.loc);
  j["kernel"] = f.kernel;
  j["message"] = f.message;
  j["notes"] = ordered_json::array();
  for (const FindingNote &n : f.notes) {
    ordered_json note;
    // A note without a place of its own is about the finding's place.
    putLocation(note, n.loc.valid() ? n.loc : f.loc);
    note["message"] = n.message;
    j["notes"].push_back(std::move(note));
  }
  j["details"] = ordered_json(f.details);
  if (!f.fingerprint.empty())
    j["fingerprint"] = f.fingerprint;
  return j;
}

ordered_json reportToJson(const AnalysisResults &results, const std::vector<Finding> &findings,
                          const GainsResult *gains) {
  ordered_json j;
  j["version"] = kToolVersion;
  j["findings"] = ordered_json::array();
  j["suppressed"] = ordered_json::array();
  for (const Finding &f : findings) {
    if (!f.suppression) {
      j["findings"].push_back(findingToJson(f));
      continue;
    }
    ordered_json s = findingToJson(f);
    ordered_json how;
    how["kind"] = f.suppression->kind;
    putLocation(how, f.suppression->loc);
    how["justification"] = f.suppression->justification;
    s["suppression"] = std::move(how);
    j["suppressed"].push_back(std::move(s));
  }

  j["errors"] = ordered_json::array();
  j["units"] = ordered_json::array();
  for (size_t ui = 0; ui < results.units.size(); ++ui) {
    const TranslationUnitResult &unit = results.units[ui];
    if (!unit.parsed)
      j["errors"].push_back({{"file", unit.file},
                             {"kind", "unanalyzable"},
                             {"message", unit.fatalError.empty() ? "no AST was produced"
                                                                 : unit.fatalError}});
    ordered_json u;
    u["file"] = unit.file;
    u["parsed"] = unit.parsed;
    u["kernels"] = unit.kernels.size();
    u["compile_errors"] = unit.compileErrors.size();
    u["compile_diagnostics"] = ordered_json::array();
    for (const FrontendMessage &m : unit.compileErrors) {
      ordered_json d;
      putLocation(d, m.loc);
      d["level"] = m.level;
      d["message"] = m.message;
      u["compile_diagnostics"].push_back(std::move(d));
    }
    for (const FrontendMessage &m : unit.frontendNotes) {
      ordered_json d;
      putLocation(d, m.loc);
      d["level"] = m.level;
      d["message"] = m.message;
      u["frontend_notes"].push_back(std::move(d));
    }
    u["classification"] = classificationToJson(unit, findings);
    if (gains) {
      u["costs"] = ordered_json::array();
      for (size_t ki = 0; ki < unit.kernels.size(); ++ki)
        if (const KernelCostReport *r = gains->forKernel(ui, ki))
          u["costs"].push_back(kernelCostJson(*r));
    }
    j["units"].push_back(std::move(u));
  }
  return j;
}

} // namespace warplint
