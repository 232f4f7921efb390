#include "printers/SarifPrinter.h"
#include "printers/RuleDocs.h"
#include "printers/SourceLines.h"
#include "printers/TextPositions.h"
#include "printers/ToolInfo.h"
#include "analyzer/results/Fix.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace warplint {

using nlohmann::ordered_json;

namespace {

constexpr const char *kSchemaUri = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char *kBaseId = "SRCROOT";

std::string withSlash(const std::string &dir) {
  return !dir.empty() && dir.back() == '/' ? dir : dir + "/";
}

class SarifWriter {
public:
  explicit SarifWriter(const SarifOptions &opts) : opts_(opts) {}

  // A location with the finding's line as the region's snippet and the lines
  // around it as the context region, so viewers show code without the file.
  ordered_json locationWithSource(const SourceLocation &loc, SourceLines &source) const {
    ordered_json l = location(loc);
    const std::string *line = loc.line ? source.line(loc.file, loc.line) : nullptr;
    if (!line)
      return l;
    ordered_json &physical = l["physicalLocation"];
    const std::string &text = *line;
    ordered_json &region = physical["region"];
    if (loc.column != 0) {
      region["startColumn"] = utf16Column(text, loc.column);
      unsigned from = std::min<unsigned>(loc.column - 1, text.size());
      region["snippet"] = {{"text", text.substr(from)}};
    } else {
      region["snippet"] = {{"text", text}};
    }
    unsigned first = loc.line > 2 ? loc.line - 2 : 1;
    unsigned last = loc.line;
    while (last < loc.line + 2 && source.line(loc.file, last + 1))
      ++last;
    std::string context;
    for (unsigned i = first; i <= last; ++i)
      context += *source.line(loc.file, i) + (i < last ? "\n" : "");
    physical["contextRegion"] = {{"startLine", first}, {"endLine", last}, {"snippet", {{"text", context}}}};
    return l;
  }

  ordered_json artifactLocation(const std::string &file) const {
    std::string base = opts_.baseDir.empty() ? "" : withSlash(opts_.baseDir);
    if (!base.empty() && file.size() > base.size() && file.compare(0, base.size(), base) == 0)
      return {{"uri", percentEncodePath(file.substr(base.size()))}, {"uriBaseId", kBaseId}};
    if (!file.empty() && file[0] == '/')
      return {{"uri", "file://" + percentEncodePath(file)}};
    return {{"uri", percentEncodePath(file)}}; // relative as given by the analyzer
  }

  ordered_json location(const SourceLocation &loc) const {
    ordered_json physical;
    physical["artifactLocation"] = artifactLocation(loc.file);
    if (loc.line != 0) {
      ordered_json region;
      region["startLine"] = loc.line;
      if (loc.column != 0)
        region["startColumn"] = loc.column;
      physical["region"] = std::move(region);
    }
    return {{"physicalLocation", std::move(physical)}};
  }

private:
  const SarifOptions &opts_;
};

// Byte offsets of a fix as SARIF text positions (1-based lines, columns in
// UTF-16 code units, SARIF's default columnKind), from the file as analyzed:
// a file whose contents no longer match the analysis's hash gets none.
class TextPositions {
public:
  explicit TextPositions(const AnalysisResults &results) {
    for (const TranslationUnitResult &u : results.units)
      for (const auto &[file, hash] : u.fileHashes)
        hashes_[file] = hash;
  }

  // False when the file cannot be read or changed since the analysis.
  bool position(const std::string &file, unsigned offset, unsigned &line, unsigned &column) {
    const std::string *text = contents(file);
    return text && utf16Position(*text, offset, line, column);
  }

private:
  const std::string *contents(const std::string &file) {
    auto it = cache_.find(file);
    if (it == cache_.end()) {
      std::string text;
      bool ok = false;
      std::ifstream in(file, std::ios::binary);
      auto h = hashes_.find(file);
      if (in && h != hashes_.end()) {
        std::ostringstream buf;
        buf << in.rdbuf();
        text = buf.str();
        ok = contentHash(text) == h->second;
      }
      it = cache_.emplace(file, ok ? std::optional<std::string>(std::move(text)) : std::nullopt).first;
    }
    return it->second ? &*it->second : nullptr;
  }

  std::map<std::string, std::string> hashes_;
  std::map<std::string, std::optional<std::string>> cache_;
};

// A finding's rewrite as a SARIF fix: one artifactChange per file, each
// replacement's deleted region as bytes and, where the file is unchanged,
// as lines and columns too (what editors apply).
ordered_json fixToSarif(const Fix &fix, const SarifWriter &w, TextPositions &pos) {
  ordered_json changes = ordered_json::array();
  std::map<std::string, ordered_json> byFile;
  std::vector<std::string> order;
  for (const Replacement &r : fix.replacements) {
    ordered_json region;
    region["byteOffset"] = r.offset;
    region["byteLength"] = r.length;
    unsigned sl, sc, el, ec;
    if (pos.position(r.file, r.offset, sl, sc) && pos.position(r.file, r.offset + r.length, el, ec)) {
      region["startLine"] = sl;
      region["startColumn"] = sc;
      region["endLine"] = el;
      region["endColumn"] = ec;
    }
    if (!byFile.count(r.file))
      order.push_back(r.file);
    byFile[r.file].push_back({{"deletedRegion", std::move(region)},
                              {"insertedContent", {{"text", r.text}}}});
  }
  for (const std::string &file : order)
    changes.push_back({{"artifactLocation", w.artifactLocation(file)},
                       {"replacements", std::move(byFile[file])}});
  return {{"description", {{"text", fix.description}}}, {"artifactChanges", std::move(changes)}};
}

// SARIF's "friendly name": the id as one PascalCase identifier
// (shared-bank-conflict -> SharedBankConflict).
std::string pascalCaseName(const std::string &id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

const char *sarifLevel(const std::string &severity) {
  if (severity == "error" || severity == "note")
    return severity.c_str();
  return "warning";
}

ordered_json ruleDescriptor(const RuleInfo &info) {
  ordered_json r;
  r["id"] = info.id;
  r["name"] = pascalCaseName(info.id);
  r["shortDescription"] = {{"text", info.title}};
  r["fullDescription"] = {{"text", info.rationale}};
  r["helpUri"] = ruleHelpUri(info.id);
  r["help"] = {{"text", info.rationale}, {"markdown", renderRuleMarkdown(info)}};
  r["defaultConfiguration"] = {{"level", "warning"}};
  r["properties"] = {{"guideline", info.guideline},
                     {"seed", info.seed},
                     {"fixSafety", info.fixSafety},
                     {"tags", ordered_json::array({"cuda", "performance"})}};
  return r;
}

} // namespace

std::string percentEncodePath(const std::string &path) {
  std::string out;
  for (unsigned char c : path) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                      (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                      c == '/';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

ordered_json reportToSarif(const AnalysisResults &results, const std::vector<Finding> &findings,
                           const std::vector<const RuleInfo *> &rules, const SarifOptions &opts) {
  SarifWriter w(opts);
  TextPositions positions(results);
  SourceLines source;

  ordered_json driver;
  driver["name"] = kToolName;
  driver["version"] = kToolVersion;
  driver["semanticVersion"] = kToolVersion;
  driver["informationUri"] = kToolInformationUri;
  driver["rules"] = ordered_json::array();
  for (const RuleInfo *info : rules)
    driver["rules"].push_back(ruleDescriptor(*info));

  ordered_json sarifResults = ordered_json::array();
  for (const Finding &f : findings) {
    ordered_json r;
    r["ruleId"] = f.rule;
    for (size_t i = 0; i < rules.size(); ++i)
      if (rules[i]->id == f.rule)
        r["ruleIndex"] = i;
    r["level"] = sarifLevel(f.severity);
    r["message"] = {{"text", f.message}};
    // SARIF's priority (0-100): the share of the kernel's time the finding's
    // change is predicted to save, 100 * (1 - 1/speedup); absent without a prediction.
    if (auto it = f.details.find("predicted_kernel_speedup"); it != f.details.end() && it->is_number()) {
      double s = it->get<double>();
      r["rank"] = s > 1 ? std::round(1000 * (1 - 1 / s)) / 10 : 0.0;
    }
    r["locations"] = ordered_json::array({w.locationWithSource(f.loc, source)});
    if (!f.notes.empty()) {
      r["relatedLocations"] = ordered_json::array();
      int id = 1;
      for (const FindingNote &n : f.notes) {
        ordered_json related;
        related["id"] = id++;
        related.update(w.location(n.loc.valid() ? n.loc : f.loc));
        related["message"] = {{"text", n.message}};
        r["relatedLocations"].push_back(std::move(related));
      }
    }
    if (!f.fixes.empty()) {
      r["fixes"] = ordered_json::array();
      for (const Fix &fix : f.fixes)
        r["fixes"].push_back(fixToSarif(fix, w, positions));
    }
    if (!f.fingerprint.empty())
      r["partialFingerprints"] = {{kSarifFingerprintKey, f.fingerprint}};
    if (const auto &s = f.suppression) {
      // Suppressed in the source: still a result, marked so that dashboards
      // show it as dismissed with the reason.
      ordered_json sup;
      sup["kind"] = "inSource";
      sup["status"] = "accepted";
      if (!s->justification.empty())
        sup["justification"] = s->justification;
      sup["location"] = w.location(s->loc);
      sup["properties"] = {{"comment", s->kind}};
      r["suppressions"] = ordered_json::array({std::move(sup)});
    }
    r["properties"] = {{"kernel", f.kernel}, {"details", ordered_json(f.details)}};
    sarifResults.push_back(std::move(r));
  }

  // Units that could not be analyzed fail the invocation; compile errors of
  // units that were analyzed are reported alongside as notes.
  bool allParsed = true;
  ordered_json notifications = ordered_json::array();
  for (const TranslationUnitResult &unit : results.units) {
    if (!unit.parsed) {
      allParsed = false;
      notifications.push_back(
          {{"level", "error"},
           {"message", {{"text", "could not analyze this file: " +
                                     (unit.fatalError.empty() ? std::string("no AST was produced")
                                                              : unit.fatalError)}}},
           {"locations", ordered_json::array({w.location({unit.file, 0, 0})})}});
    }
    for (const FrontendMessage &m : unit.compileErrors)
      notifications.push_back(
          {{"level", "note"},
           {"message", {{"text", "compile error: " + m.message}}},
           {"locations",
            ordered_json::array({w.location(m.loc.file.empty() ? SourceLocation{unit.file, 0, 0}
                                                                : m.loc)})}});
  }
  ordered_json invocation;
  invocation["executionSuccessful"] = allParsed;
  if (!notifications.empty())
    invocation["toolExecutionNotifications"] = std::move(notifications);

  ordered_json run;
  run["tool"] = {{"driver", std::move(driver)}};
  if (!opts.baseDir.empty())
    run["originalUriBaseIds"] = {
        {kBaseId, {{"uri", "file://" + percentEncodePath(withSlash(opts.baseDir))}}}};
  run["invocations"] = ordered_json::array({std::move(invocation)});
  run["results"] = std::move(sarifResults);

  ordered_json log;
  log["$schema"] = kSchemaUri;
  log["version"] = "2.1.0";
  log["runs"] = ordered_json::array({std::move(run)});
  return log;
}

} // namespace warplint
