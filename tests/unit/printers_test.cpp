// The three report formats on hand-made results: exact text, JSON and SARIF shape.
#include "printers/JsonPrinter.h"
#include "printers/RuleDocs.h"
#include "printers/SarifPrinter.h"
#include "printers/TextPrinter.h"
#include "printers/ToolInfo.h"
#include "analyzer/results/Fix.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace warplint;
using nlohmann::ordered_json;

namespace {

// Built field by field: brace-initialized aggregates trip GCC 12's
// -Wmaybe-uninitialized at -O2.
SourceLocation at(const std::string &file, unsigned line, unsigned column) {
  SourceLocation loc;
  loc.file = file;
  loc.line = line;
  loc.column = column;
  return loc;
}

FindingNote note(const SourceLocation &loc, const std::string &message) {
  FindingNote n;
  n.loc = loc;
  n.message = message;
  return n;
}

FrontendMessage compileError(const SourceLocation &loc, const std::string &message) {
  FrontendMessage m;
  m.loc = loc;
  m.level = "error";
  m.message = message;
  return m;
}

const char *const kSource = "__global__ void transpose(float *out) {\n"
                            "  __shared__ float tile[32][32];\n"
                            "  float v = tile[threadIdx.x][threadIdx.y];\n"
                            "\tout[threadIdx.x * 32] = v;\n"
                            "}\n";

Finding bankConflict() {
  Finding f;
  f.rule = "shared-bank-conflict";
  f.severity = "warning";
  f.loc = at("/src/k.cu", 3, 13);
  f.kernel = "transpose";
  f.message = "32-way bank conflict on 'tile': the warp's access is replayed 32 times";
  f.notes.push_back(note({}, "lanes 0-31 all hit bank 0 (stride 32 words)"));
  f.notes.push_back(note(at("/src/k.cu", 2, 20), "'tile' declared here"));
  f.details = {{"degree", 32}, {"bank", 0}};
  return f;
}

AnalysisResults oneUnit() {
  AnalysisResults r;
  TranslationUnitResult unit;
  unit.file = "/src/k.cu";
  unit.parsed = true;
  unit.kernels.resize(1);
  unit.kernels[0].name = "transpose";
  r.units.push_back(unit);
  return r;
}

std::string text(const AnalysisResults &r, const std::vector<Finding> &f, TextOptions opts = {}) {
  SourceLines sources;
  sources.setContents("/src/k.cu", kSource);
  std::ostringstream os;
  printText(os, r, f, opts, sources);
  return os.str();
}

RuleInfo sampleRule() {
  RuleInfo info;
  info.id = "shared-bank-conflict";
  info.title = "Shared-memory access with bank conflicts";
  info.guideline = "S_1";
  info.seed = "seed 000, section 7";
  info.rationale = "Lanes that hit one bank with distinct words are serialized.";
  info.badExample = "__shared__ float t[32][32];\nx = t[threadIdx.x][0];\n";
  info.goodExample = "__shared__ float t[32][33];\nx = t[threadIdx.x][0];";
  info.fixSafety = "none";
  return info;
}

} // namespace

TEST(TextPrinter, FindingWithCaretAndNotes) {
  TextOptions opts;
  opts.baseDir = "/src";
  EXPECT_EQ(text(oneUnit(), {bankConflict()}, opts),
            "k.cu:3:13: warning: 32-way bank conflict on 'tile': the warp's access is replayed "
            "32 times [shared-bank-conflict]\n"
            "    3 |   float v = tile[threadIdx.x][threadIdx.y];\n"
            "      |             ^\n"
            "k.cu:3:13: note: lanes 0-31 all hit bank 0 (stride 32 words)\n"
            "k.cu:2:20: note: 'tile' declared here\n"
            "    2 |   __shared__ float tile[32][32];\n"
            "      |                    ^\n");
}

TEST(TextPrinter, TabsAreExpandedUnderTheCaret) {
  Finding f = bankConflict();
  f.loc = at("/src/k.cu", 4, 2); // just after the tab
  f.notes.clear();
  std::string out = text(oneUnit(), {f});
  EXPECT_NE(out.find("    4 |         out[threadIdx.x * 32] = v;\n"
                     "      |         ^\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(displayColumn("\tx", 2), 8u);
  EXPECT_EQ(displayColumn("ab\tx", 4), 8u);
  EXPECT_EQ(displayColumn("abc", 99), 3u); // past the end: after the last character
  EXPECT_EQ(displayColumn("\xc3\xa9x", 3), 1u); // UTF-8: one column for two bytes
  EXPECT_EQ(expandTabs("a\tb"), "a       b");
}

TEST(TextPrinter, WideLineNumbersWidenTheGutter) {
  SourceLines sources;
  std::string many;
  for (int i = 1; i <= 12345; ++i)
    many += "x\n";
  sources.setContents("f.cu", many);
  Finding f = bankConflict();
  f.loc = at("f.cu", 12345, 1);
  f.notes.clear();
  std::ostringstream os;
  printText(os, {}, {f}, {}, sources);
  EXPECT_NE(os.str().find("\n 12345 | x\n       | ^\n"), std::string::npos) << os.str();
}

TEST(TextPrinter, MissingSourceOmitsSnippet) {
  Finding f = bankConflict();
  f.loc.file = "/nonexistent/dir/gone.cu";
  f.notes.clear();
  SourceLines sources;
  std::ostringstream os;
  printText(os, {}, {f}, {}, sources);
  EXPECT_EQ(os.str(), "/nonexistent/dir/gone.cu:3:13: warning: " + f.message +
                          " [shared-bank-conflict]\n");
}

TEST(TextPrinter, CompileErrorsAndUnanalyzableUnits) {
  AnalysisResults r = oneUnit();
  for (int i = 0; i < 5; ++i)
    r.units[0].compileErrors.push_back(compileError(
        at("/src/k.cu", unsigned(40 + i), 3), "use of undeclared identifier 'x" + std::to_string(i) + "'"));
  TranslationUnitResult broken;
  broken.file = "/src/broken.cu";
  broken.fatalError = "unable to handle compilation";
  r.units.push_back(broken);
  TextOptions opts;
  opts.baseDir = "/src/";
  EXPECT_EQ(text(r, {}, opts),
            "k.cu: note: 5 compile errors (3 shown); kernels whose bodies parsed were still "
            "analyzed\n"
            "k.cu:40:3: note: compile error: use of undeclared identifier 'x0'\n"
            "k.cu:41:3: note: compile error: use of undeclared identifier 'x1'\n"
            "k.cu:42:3: note: compile error: use of undeclared identifier 'x2'\n"
            "broken.cu: error: could not analyze this file: unable to handle compilation\n");
}

TEST(TextPrinter, ColorOnlyWhenAsked) {
  EXPECT_EQ(text(oneUnit(), {bankConflict()}).find('\033'), std::string::npos);
  TextOptions opts;
  opts.color = true;
  std::string colored = text(oneUnit(), {bankConflict()}, opts);
  EXPECT_NE(colored.find("\033[1;35mwarning: "), std::string::npos);
  EXPECT_NE(colored.find("\033[1;32m^"), std::string::npos);
}

TEST(TextPrinter, SummaryLine) {
  AnalysisResults r = oneUnit();
  r.units[0].kernels.resize(3);
  Finding a = bankConflict(), b = bankConflict();
  EXPECT_EQ(summaryLine(r, {a, b}), "2 warnings in 1 file (3 kernels analyzed in 1 file)");
  b.severity = "note";
  EXPECT_EQ(summaryLine(r, {a, b}), "1 warning and 1 note in 1 file (3 kernels analyzed in 1 file)");
  TranslationUnitResult broken;
  broken.file = "b.cu";
  r.units.push_back(broken);
  EXPECT_EQ(summaryLine(r, {}),
            "no findings (3 kernels analyzed in 1 file); 1 file could not be analyzed");
  EXPECT_EQ(summaryLine({}, {}), "no findings (0 kernels analyzed in 0 files)");
}

// A finding a NOLINT silenced: counted apart, printed only when asked, kept
// in JSON under "suppressed" and in SARIF as a result with an inSource
// suppression.
TEST(Printers, SuppressedFindings) {
  AnalysisResults r = oneUnit();
  Finding quiet = bankConflict();
  quiet.suppression = Suppression{"NOLINTNEXTLINE", at("/src/k.cu", 2, 3), "measured, negligible"};
  EXPECT_EQ(summaryLine(r, {quiet}), "no findings (1 kernel analyzed in 1 file); 1 finding suppressed");
  EXPECT_EQ(summaryLine(r, {bankConflict(), quiet}),
            "1 warning in 1 file (1 kernel analyzed in 1 file); 1 finding suppressed");
  EXPECT_EQ(text(r, {quiet}).find("bank conflict"), std::string::npos);
  TextOptions shown;
  shown.showSuppressed = true;
  std::string t = text(r, {quiet}, shown);
  EXPECT_NE(t.find("bank conflict"), std::string::npos);
  EXPECT_NE(t.find("note: suppressed by NOLINTNEXTLINE at /src/k.cu:2: measured, negligible"), std::string::npos) << t;

  ordered_json j = reportToJson(r, {quiet});
  EXPECT_TRUE(j["findings"].empty());
  ASSERT_EQ(j["suppressed"].size(), 1u);
  EXPECT_EQ(j["suppressed"][0]["suppression"]["kind"], "NOLINTNEXTLINE");
  EXPECT_EQ(j["suppressed"][0]["suppression"]["line"], 2);
  EXPECT_EQ(j["suppressed"][0]["suppression"]["justification"], "measured, negligible");

  ordered_json results = reportToSarif(r, {bankConflict(), quiet}, {}, SarifOptions{})["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].contains("suppressions"));
  const ordered_json &s = results[1]["suppressions"][0];
  EXPECT_EQ(s["kind"], "inSource");
  EXPECT_EQ(s["justification"], "measured, negligible");
  EXPECT_EQ(s["location"]["physicalLocation"]["region"]["startLine"], 2);
}

TEST(TextPrinter, DisplayPath) {
  EXPECT_EQ(displayPath("/a/b/c.cu", "/a"), "b/c.cu");
  EXPECT_EQ(displayPath("/a/b/c.cu", "/a/"), "b/c.cu");
  EXPECT_EQ(displayPath("/ab/c.cu", "/a"), "/ab/c.cu");
  EXPECT_EQ(displayPath("/a/b/c.cu", ""), "/a/b/c.cu");
}

TEST(JsonPrinter, ReportShape) {
  AnalysisResults r = oneUnit();
  r.units[0].compileErrors.push_back(compileError(at("/src/k.cu", 40, 3), "boom"));
  TranslationUnitResult broken;
  broken.file = "/src/broken.cu";
  broken.fatalError = "no AST";
  r.units.push_back(broken);
  ordered_json j = reportToJson(r, {bankConflict()});

  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"version", "findings", "suppressed", "errors", "units"}));
  EXPECT_EQ(j["version"], kToolVersion);

  const ordered_json &f = j["findings"][0];
  EXPECT_EQ(f["rule"], "shared-bank-conflict");
  EXPECT_EQ(f["severity"], "warning");
  EXPECT_EQ(f["file"], "/src/k.cu");
  EXPECT_EQ(f["line"], 3);
  EXPECT_EQ(f["column"], 13);
  EXPECT_EQ(f["kernel"], "transpose");
  EXPECT_EQ(f["message"], bankConflict().message);
  EXPECT_EQ(f["details"]["degree"], 32);
  ASSERT_EQ(f["notes"].size(), 2u);
  EXPECT_EQ(f["notes"][0]["line"], 3); // no place of its own: the finding's
  EXPECT_EQ(f["notes"][1]["line"], 2);
  EXPECT_EQ(f["notes"][1]["message"], "'tile' declared here");

  ASSERT_EQ(j["errors"].size(), 1u);
  EXPECT_EQ(j["errors"][0]["file"], "/src/broken.cu");
  EXPECT_EQ(j["errors"][0]["message"], "no AST");

  ASSERT_EQ(j["units"].size(), 2u);
  EXPECT_EQ(j["units"][0]["parsed"], true);
  EXPECT_EQ(j["units"][0]["kernels"], 1);
  EXPECT_EQ(j["units"][0]["compile_errors"], 1);
  EXPECT_EQ(j["units"][0]["compile_diagnostics"][0]["line"], 40);
  EXPECT_EQ(j["units"][1]["parsed"], false);
}

TEST(SarifPrinter, LogShape) {
  AnalysisResults r = oneUnit();
  RuleInfo info = sampleRule();
  Finding outside = bankConflict();
  outside.loc.file = "/elsewhere/my kernels.cu";
  outside.severity = "note";
  outside.notes.clear();
  ordered_json log = reportToSarif(r, {bankConflict(), outside}, {&info}, SarifOptions{"/src"});

  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_EQ(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(log["runs"].size(), 1u);
  const ordered_json &run = log["runs"][0];

  const ordered_json &driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"], "warplint");
  EXPECT_EQ(driver["version"], kToolVersion);
  EXPECT_EQ(driver["informationUri"], kToolInformationUri);
  const ordered_json &rule = driver["rules"][0];
  EXPECT_EQ(rule["id"], "shared-bank-conflict");
  EXPECT_EQ(rule["shortDescription"]["text"], info.title);
  EXPECT_EQ(rule["fullDescription"]["text"], info.rationale);
  EXPECT_EQ(rule["helpUri"], std::string(kToolInformationUri) +
                                 "/blob/main/docs/rules/shared-bank-conflict.md");
  EXPECT_EQ(rule["properties"]["guideline"], "S_1");
  EXPECT_EQ(rule["properties"]["tags"], ordered_json::array({"cuda", "performance"}));

  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///src/");
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], true);

  const ordered_json &res = run["results"][0];
  EXPECT_EQ(res["ruleId"], "shared-bank-conflict");
  EXPECT_EQ(res["ruleIndex"], 0);
  EXPECT_EQ(res["level"], "warning");
  EXPECT_EQ(res["message"]["text"], bankConflict().message);
  const ordered_json &phys = res["locations"][0]["physicalLocation"];
  EXPECT_EQ(phys["artifactLocation"]["uri"], "k.cu");
  EXPECT_EQ(phys["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(phys["region"]["startLine"], 3);
  EXPECT_EQ(phys["region"]["startColumn"], 13);
  ASSERT_EQ(res["relatedLocations"].size(), 2u);
  EXPECT_EQ(res["relatedLocations"][0]["id"], 1);
  EXPECT_EQ(res["relatedLocations"][1]["message"]["text"], "'tile' declared here");
  EXPECT_EQ(res["relatedLocations"][1]["physicalLocation"]["region"]["startLine"], 2);
  EXPECT_EQ(res["properties"]["kernel"], "transpose");

  const ordered_json &res2 = run["results"][1];
  EXPECT_EQ(res2["level"], "note");
  EXPECT_EQ(res2["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///elsewhere/my%20kernels.cu");
  EXPECT_FALSE(res2["locations"][0]["physicalLocation"]["artifactLocation"].contains("uriBaseId"));
  EXPECT_FALSE(res2.contains("relatedLocations"));
}

TEST(SarifPrinter, UnanalyzableUnitFailsTheInvocation) {
  AnalysisResults r;
  TranslationUnitResult broken;
  broken.file = "/src/broken.cu";
  broken.fatalError = "no AST";
  r.units.push_back(broken);
  ordered_json log = reportToSarif(r, {}, {}, SarifOptions{});
  const ordered_json &inv = log["runs"][0]["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], false);
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["level"], "error");
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]
               ["artifactLocation"]["uri"],
            "file:///src/broken.cu");
  EXPECT_FALSE(log["runs"][0].contains("originalUriBaseIds"));
  EXPECT_TRUE(log["runs"][0]["results"].is_array());
}

TEST(SarifPrinter, FixAsArtifactChanges) {
  // A real file, so the fix's byte offsets can be turned into lines and columns.
  std::string path = ::testing::TempDir() + "sarif_fix_k.cu";
  const std::string text = "// \xc3\xa9t\xc3\xa9\n__shared__ float tile[32][32];\n";
  { std::ofstream(path, std::ios::binary) << text; }
  AnalysisResults r;
  TranslationUnitResult unit;
  unit.file = path;
  unit.parsed = true;
  unit.fileHashes.push_back({path, contentHash(text)});
  r.units.push_back(unit);
  Finding f = bankConflict();
  f.loc.file = path;
  Fix fix;
  fix.description = "pad the innermost dimension of 'tile' by 1 (32 -> 33)";
  Replacement rep;
  rep.file = path;
  rep.offset = unsigned(text.find("[32];") + 1); // the second extent
  rep.length = 2;
  rep.text = "33";
  fix.replacements.push_back(rep);
  f.fixes.push_back(fix);

  ordered_json res = reportToSarif(r, {f}, {}, SarifOptions{})["runs"][0]["results"][0];
  ASSERT_EQ(res["fixes"].size(), 1u);
  EXPECT_EQ(res["fixes"][0]["description"]["text"], fix.description);
  const ordered_json &change = res["fixes"][0]["artifactChanges"][0];
  EXPECT_EQ(change["artifactLocation"]["uri"], "file://" + percentEncodePath(path));
  const ordered_json &repl = change["replacements"][0];
  EXPECT_EQ(repl["insertedContent"]["text"], "33");
  EXPECT_EQ(repl["deletedRegion"]["byteOffset"], rep.offset);
  EXPECT_EQ(repl["deletedRegion"]["byteLength"], 2);
  // Line 2 is ASCII: column = byte column.
  EXPECT_EQ(repl["deletedRegion"]["startLine"], 2);
  EXPECT_EQ(repl["deletedRegion"]["startColumn"], 27);
  EXPECT_EQ(repl["deletedRegion"]["endColumn"], 29);

  // On line 1, two-byte characters count once (UTF-16 code units).
  fix.replacements[0].offset = unsigned(text.find('t'));
  fix.replacements[0].length = 1;
  f.fixes = {fix};
  res = reportToSarif(r, {f}, {}, SarifOptions{})["runs"][0]["results"][0];
  EXPECT_EQ(res["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]["startColumn"], 5);

  // A file that changed since the analysis keeps only the byte region.
  { std::ofstream(path, std::ios::binary) << text << "// edited\n"; }
  res = reportToSarif(r, {f}, {}, SarifOptions{})["runs"][0]["results"][0];
  const ordered_json &stale = res["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"];
  EXPECT_TRUE(stale.contains("byteOffset"));
  EXPECT_FALSE(stale.contains("startLine"));
  std::remove(path.c_str());
}

TEST(SarifPrinter, PercentEncoding) {
  EXPECT_EQ(percentEncodePath("/a b/c#d%e.cu"), "/a%20b/c%23d%25e.cu");
  EXPECT_EQ(percentEncodePath("k_1-2.~cu"), "k_1-2.~cu");
}

TEST(RuleDocs, PageHasEverySection) {
  std::string md = renderRuleMarkdown(sampleRule());
  EXPECT_EQ(md.rfind("<!-- Generated", 0), 0u);
  for (const char *part : {"# shared-bank-conflict\n", "**Shared-memory access with bank conflicts**",
                           "| Guideline | S_1 |", "| Source | seed 000, section 7 |",
                           "| Fix | none |", "## Why\n\nLanes that hit one bank",
                           "## Flagged\n\n```cuda\n__shared__ float t[32][32];\nx = t[threadIdx.x][0];\n```\n",
                           "## Instead\n\n```cuda\n__shared__ float t[32][33];\nx = t[threadIdx.x][0];\n```\n"})
    EXPECT_NE(md.find(part), std::string::npos) << part;
}

TEST(RuleDocs, IndexLinksEveryRule) {
  RuleInfo a = sampleRule(), b = sampleRule();
  b.id = "global-uncoalesced";
  b.guideline = "G_3";
  std::string md = renderRuleIndex({&a, &b});
  EXPECT_NE(md.find("| [shared-bank-conflict](shared-bank-conflict.md) | S_1 |"), std::string::npos);
  EXPECT_NE(md.find("| [global-uncoalesced](global-uncoalesced.md) | G_3 |"), std::string::npos);
}

TEST(RuleDocs, IncompleteEntriesAreReported) {
  EXPECT_TRUE(checkRuleInfo(sampleRule()).empty());
  RuleInfo bad = sampleRule();
  bad.id = "Shared_Bank";
  bad.goodExample.clear();
  EXPECT_EQ(checkRuleInfo(bad).size(), 2u);
}
