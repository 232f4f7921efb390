// Command-line parsing, atomic output, report rendering and exit status.
#include "driver/CommandLine.h"
#include "driver/OutputFile.h"
#include "driver/Report.h"

#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace warplint;

namespace {

ParseResult parse(std::vector<std::string> args) { return parseCommandLine(args); }

CheckOptions check(std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  ParseResult r = parse(args);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.commandLine.command, Command::Check);
  return r.commandLine.check;
}

std::string checkError(std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  ParseResult r = parse(args);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errorTopic, "check");
  return r.error;
}

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory per test, removed with what the test left in it.
class TempDir {
public:
  TempDir() {
    char pattern[] = "/tmp/warplint-cli-test.XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() {
    for (const std::string &name : entries())
      std::remove((path_ + "/" + name).c_str());
    rmdir(path_.c_str());
  }
  const std::string &path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    if (DIR *d = opendir(path_.c_str())) {
      while (dirent *e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
          names.push_back(e->d_name);
      closedir(d);
    }
    return names;
  }

private:
  std::string path_;
};

} // namespace

TEST(CommandLine, FilesWithDefaults) {
  CheckOptions o = check({"a.cu", "b.cu"});
  EXPECT_EQ(o.files, (std::vector<std::string>{"a.cu", "b.cu"}));
  EXPECT_TRUE(o.buildDir.empty());
  EXPECT_FALSE(o.hasCompilerFlags);
  EXPECT_EQ(o.format, OutputFormat::Text);
  EXPECT_EQ(o.color, ColorMode::Auto);
  EXPECT_TRUE(o.outputFile.empty());
  EXPECT_TRUE(o.rules.empty());
  EXPECT_TRUE(o.profile.empty());
  EXPECT_FALSE(o.noCudaToolkit);
}

TEST(CommandLine, CompilerFlagsAfterDoubleDash) {
  CheckOptions o = check({"a.cu", "--", "-I", "inc", "--format", "-DN=4", "--help"});
  EXPECT_EQ(o.files, (std::vector<std::string>{"a.cu"}));
  EXPECT_TRUE(o.hasCompilerFlags);
  // Everything after `--` is the compiler's, even what looks like our options.
  EXPECT_EQ(o.compilerFlags, (std::vector<std::string>{"-I", "inc", "--format", "-DN=4", "--help"}));
  EXPECT_EQ(o.format, OutputFormat::Text);
  EXPECT_TRUE(check({"a.cu", "--"}).hasCompilerFlags);
}

TEST(CommandLine, BuildDirWithAndWithoutFiles) {
  CheckOptions o = check({"-p", "build"});
  EXPECT_EQ(o.buildDir, "build");
  EXPECT_TRUE(o.files.empty());
  o = check({"-p=out/build", "k.cu"});
  EXPECT_EQ(o.buildDir, "out/build");
  EXPECT_EQ(o.files, (std::vector<std::string>{"k.cu"}));
}

TEST(CommandLine, EveryCheckOption) {
  CheckOptions o = check({"--format", "json", "--output", "r.json", "--cuda-path", "/opt/cuda",
                          "--no-cuda-toolkit", "--rules", "shared-bank-conflict",
                          "--profile", "h100", "--color", "always", "k.cu"});
  EXPECT_EQ(o.format, OutputFormat::Json);
  EXPECT_EQ(o.outputFile, "r.json");
  EXPECT_EQ(o.cudaPath, "/opt/cuda");
  EXPECT_TRUE(o.noCudaToolkit);
  EXPECT_EQ(o.rules, (std::vector<std::string>{"shared-bank-conflict"}));
  EXPECT_EQ(o.profile, "h100");
  EXPECT_EQ(o.color, ColorMode::Always);
  EXPECT_EQ(o.files, (std::vector<std::string>{"k.cu"}));
}

TEST(CommandLine, EqualsSpellingAndAliases) {
  CheckOptions o = check({"k.cu", "--format=sarif", "-o", "r.sarif", "--color=never",
                          "--profile=profiles/a100.json", "--cuda-path=/usr/local/cuda"});
  EXPECT_EQ(o.format, OutputFormat::Sarif);
  EXPECT_EQ(o.outputFile, "r.sarif");
  EXPECT_EQ(o.color, ColorMode::Never);
  EXPECT_EQ(o.profile, "profiles/a100.json");
  EXPECT_EQ(o.cudaPath, "/usr/local/cuda");
  EXPECT_EQ(check({"k.cu", "--format", "text"}).format, OutputFormat::Text);
  EXPECT_EQ(check({"k.cu", "--color", "auto"}).color, ColorMode::Auto);
  EXPECT_EQ(check({"k.cu", "--output=x"}).outputFile, "x");
}

TEST(CommandLine, FailOnAndShowSuppressed) {
  EXPECT_EQ(check({"k.cu"}).failOn, Severity::Note); // today's behaviour: any finding fails
  EXPECT_FALSE(check({"k.cu"}).showSuppressed);
  EXPECT_EQ(check({"k.cu", "--fail-on", "warning"}).failOn, Severity::Warning);
  EXPECT_EQ(check({"k.cu", "--fail-on=error"}).failOn, Severity::Error);
  EXPECT_TRUE(check({"k.cu", "--show-suppressed"}).showSuppressed);
  ParseResult r = parseCommandLine({"check", "k.cu", "--fail-on", "fatal"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "invalid value 'fatal' for --fail-on (expected note, warning, error)");
}

TEST(CommandLine, RuleListsSplitAndAccumulate) {
  EXPECT_EQ(check({"k.cu", "--rules", "a,b", "--rules=c,a"}).rules,
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_NE(checkError({"k.cu", "--rules", "a,,b"}).find("empty rule id"), std::string::npos);
  EXPECT_NE(checkError({"k.cu", "--rules", "a,"}).find("empty rule id"), std::string::npos);
  EXPECT_EQ(unknownRuleIds({"a", "zz", "b"}, {"a", "b"}), (std::vector<std::string>{"zz"}));
  EXPECT_TRUE(unknownRuleIds({}, {"a"}).empty());
}

TEST(CommandLine, CheckErrors) {
  EXPECT_EQ(checkError({}), "no input files (give FILE... or -p BUILD_DIR)");
  EXPECT_EQ(checkError({"--", "-DX"}), "no input files (give FILE... or -p BUILD_DIR)");
  EXPECT_EQ(checkError({"k.cu", "--frobnicate"}), "unknown option '--frobnicate'");
  EXPECT_EQ(checkError({"k.cu", "-DX"}), "unknown option '-DX' (compiler flags go after `--`)");
  EXPECT_EQ(checkError({"-"}), "reading source from stdin is not supported");
  EXPECT_EQ(checkError({"k.cu", "--format"}), "option '--format' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--format="}), "option '--format' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--format", "xml"}),
            "invalid value 'xml' for --format (expected text, json, sarif)");
  EXPECT_EQ(checkError({"k.cu", "--color", "yes"}),
            "invalid value 'yes' for --color (expected auto, always, never)");
  EXPECT_EQ(checkError({"k.cu", "-p"}), "option '-p' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--output"}), "option '--output' needs a value");
  EXPECT_EQ(checkError({"k.cu", "-o"}), "option '-o' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--cuda-path"}), "option '--cuda-path' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--rules"}), "option '--rules' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--profile="}), "option '--profile' needs a value");
  EXPECT_EQ(checkError({"k.cu", "--no-cuda-toolkit=1"}), "unknown option '--no-cuda-toolkit=1'");
}

TEST(CommandLine, ExplainIsATextTable) {
  EXPECT_TRUE(check({"k.cu", "--explain"}).explain);
  EXPECT_FALSE(check({"k.cu"}).explain);
  std::string both = "--explain prints a text table; JSON reports and --dump-model already carry the classification";
  EXPECT_EQ(checkError({"k.cu", "--explain", "--format", "json"}), both);
  EXPECT_EQ(checkError({"k.cu", "--format=sarif", "--explain"}), both);
  EXPECT_EQ(checkError({"k.cu", "--explain", "--dump-model"}), both);
  EXPECT_NE(usageText("check").find("--explain"), std::string::npos);
}

TEST(CommandLine, TopLevel) {
  ParseResult r = parse({"--version"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.commandLine.command, Command::Version);

  for (auto args : std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"help"}}) {
    r = parse(args);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.commandLine.command, Command::Help);
    EXPECT_EQ(r.commandLine.helpTopic, "");
  }
  for (auto args : std::vector<std::vector<std::string>>{
           {"check", "--help"}, {"check", "k.cu", "-h"}, {"check", "--bogus", "--help"},
           {"help", "check"}}) {
    r = parse(args);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.commandLine.command, Command::Help);
    EXPECT_EQ(r.commandLine.helpTopic, "check");
  }

  r = parse({});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "no command given");
  r = parse({"--frob"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "unknown option '--frob'");
  r = parse({"k.cu"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "unknown command 'k.cu' (to analyze a file: warplint check k.cu)");
  EXPECT_FALSE(parse({"--version", "x"}).ok);
  EXPECT_FALSE(parse({"help", "nope"}).ok);
}

TEST(CommandLine, ListRulesAndDocs) {
  ParseResult r = parse({"list-rules"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.commandLine.command, Command::ListRules);
  EXPECT_EQ(r.commandLine.listRules.format, ListFormat::Text);
  EXPECT_EQ(parse({"list-rules", "--format", "markdown"}).commandLine.listRules.format,
            ListFormat::Markdown);
  EXPECT_EQ(parse({"list-rules", "--format=json"}).commandLine.listRules.format, ListFormat::Json);
  EXPECT_FALSE(parse({"list-rules", "--format", "sarif"}).ok);
  EXPECT_FALSE(parse({"list-rules", "extra"}).ok);
  EXPECT_EQ(parse({"list-rules", "--help"}).commandLine.helpTopic, "list-rules");

  r = parse({"docs", "--out", "docs/rules"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.commandLine.command, Command::Docs);
  EXPECT_EQ(r.commandLine.docs.outDir, "docs/rules");
  r = parse({"docs"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "missing --out DIR");
  EXPECT_EQ(r.errorTopic, "docs");
}

TEST(CommandLine, UsageMentionsEveryOption) {
  std::string usage = usageText("check");
  for (const char *opt : {"-p BUILD_DIR", "--format text|json|sarif", "--output FILE", "--cuda-path",
                          "--no-cuda-toolkit", "--rules", "--profile", "--color auto|always|never",
                          "--help", "-- COMPILER-FLAGS", "--fail-on note|warning|error",
                          "--show-suppressed", "NOLINTNEXTLINE", "NOLINTBEGIN"})
    EXPECT_NE(usage.find(opt), std::string::npos) << opt;
  EXPECT_NE(usageText("").find("list-rules"), std::string::npos);
  EXPECT_NE(usageText("docs").find("--out DIR"), std::string::npos);
}

TEST(CommandLine, LspTakesCheckParsingOptions) {
  ParseResult r = parse({"lsp", "--stdio", "--no-cuda-toolkit", "--profile", "h200", "--cuda-path=/opt/cuda",
                         "--config", "w.yaml", "--rules", "readonly-param", "-p", "build", "--", "-DTILE=32"});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.commandLine.command, Command::Lsp);
  const CheckOptions &o = r.commandLine.check;
  EXPECT_TRUE(o.noCudaToolkit);
  EXPECT_EQ(o.profile, "h200");
  EXPECT_EQ(o.cudaPath, "/opt/cuda");
  EXPECT_EQ(o.configFile, "w.yaml");
  EXPECT_EQ(o.rules, (std::vector<std::string>{"readonly-param"}));
  EXPECT_EQ(o.buildDir, "build");
  EXPECT_EQ(o.compilerFlags, (std::vector<std::string>{"-DTILE=32"}));

  r = parse({"lsp", "kernel.cu"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errorTopic, "lsp");
  EXPECT_NE(r.error.find("the editor names the files"), std::string::npos);
  EXPECT_FALSE(parse({"lsp", "--fix"}).ok);
  r = parse({"help", "lsp"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.commandLine.helpTopic, "lsp");
  for (const char *opt : {"--no-cuda-toolkit", "--cuda-path", "--profile", "--config", "--rules", "-p BUILD_DIR",
                          "--assume-no-alias", "--stdio", "FALLBACK-FLAGS"})
    EXPECT_NE(usageText("lsp").find(opt), std::string::npos) << opt;
  EXPECT_NE(usageText("").find("lsp"), std::string::npos);
}

TEST(OutputFile, WritesAndReplacesAtomically) {
  TempDir dir;
  std::string path = dir.path() + "/report.json";
  std::string error;
  ASSERT_TRUE(writeFileAtomically(path, "first\n", error)) << error;
  EXPECT_EQ(slurp(path), "first\n");
  ASSERT_TRUE(writeFileAtomically(path, "second\n", error)) << error;
  EXPECT_EQ(slurp(path), "second\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"report.json"})); // no temporary left
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & S_IRGRP, 0u) << "not the 0600 of a temporary file";
}

TEST(OutputFile, FailureNamesThePath) {
  std::string error;
  EXPECT_FALSE(writeFileAtomically("/nonexistent-dir/x/report.json", "x", error));
  EXPECT_NE(error.find("/nonexistent-dir/x/report.json"), std::string::npos) << error;
}

TEST(Report, ExitStatus) {
  AnalysisResults r;
  r.units.resize(1);
  r.units[0].parsed = true;
  std::vector<Finding> one(1);
  EXPECT_EQ(exitStatus(r, {}), 0);
  EXPECT_EQ(exitStatus(r, one), 1);
  // --fail-on: a finding below the threshold does not fail; one at it does.
  one[0].severity = "note";
  EXPECT_EQ(exitStatus(r, one, Severity::Note), 1);
  EXPECT_EQ(exitStatus(r, one, Severity::Warning), 0);
  one[0].severity = "warning";
  EXPECT_EQ(exitStatus(r, one, Severity::Warning), 1);
  EXPECT_EQ(exitStatus(r, one, Severity::Error), 0);
  // A suppressed finding never fails.
  one[0].suppression = Suppression{"NOLINT", {"k.cu", 3, 10}, ""};
  EXPECT_EQ(exitStatus(r, one), 0);
  one[0].suppression.reset();
  r.units.emplace_back(); // a unit with no AST outranks findings
  EXPECT_EQ(exitStatus(r, one), 2);
  EXPECT_EQ(exitStatus(r, {}), 2);
}

TEST(Report, ColorDecision) {
  EXPECT_TRUE(useColor(ColorMode::Always, false, nullptr, nullptr));
  EXPECT_FALSE(useColor(ColorMode::Never, true, nullptr, nullptr));
  EXPECT_TRUE(useColor(ColorMode::Auto, true, nullptr, "xterm"));
  EXPECT_FALSE(useColor(ColorMode::Auto, false, nullptr, "xterm"));
  EXPECT_FALSE(useColor(ColorMode::Auto, true, "1", "xterm"));
  EXPECT_TRUE(useColor(ColorMode::Auto, true, "", "xterm"));
  EXPECT_FALSE(useColor(ColorMode::Auto, true, nullptr, "dumb"));
}

TEST(Report, FormatsSurviveInvalidUtf8) {
  Finding f;
  f.rule = "shared-bank-conflict";
  f.severity = "warning";
  f.loc.file = "k.cu";
  f.loc.line = 1;
  f.loc.column = 1;
  f.message = "bad byte \xff here";
  ReportOptions opts;
  for (OutputFormat format : {OutputFormat::Json, OutputFormat::Sarif, OutputFormat::Text}) {
    opts.format = format;
    std::string out;
    EXPECT_NO_THROW(out = renderReport({}, {f}, opts));
    EXPECT_NE(out.find("bad byte"), std::string::npos);
  }
  opts.format = OutputFormat::Json;
  nlohmann::json parsed;
  EXPECT_NO_THROW(parsed = nlohmann::json::parse(renderReport({}, {f}, opts)));
  EXPECT_EQ(parsed["findings"].size(), 1u);
}

// `check` and `lsp` parse the options they share in one place: each spelling
// is accepted, and each mistake rejected with the same message, by both.
TEST(CommandLine, CheckAndLspShareTheirCommonOptions) {
  const std::vector<std::vector<std::string>> accepted = {
      {"-p", "build"}, {"-p=build"}, {"--cuda-path", "/opt/cuda"}, {"--cuda-path=/opt/cuda"},
      {"--rules", "a,b,a"}, {"--rules=a", "--rules", "b"}, {"--config", "w.yaml"}, {"--config=w.yaml"},
      {"--profile", "h200"}, {"--profile=h200"}, {"--no-cuda-toolkit"}, {"--assume-no-alias"},
      {"--", "-DTILE=32", "--rules"}, {"--"}};
  for (const auto &opts : accepted) {
    std::vector<std::string> checkArgs = {"check", "-p", "fallback"}, lspArgs = {"lsp"};
    checkArgs.insert(checkArgs.end(), opts.begin(), opts.end());
    lspArgs.insert(lspArgs.end(), opts.begin(), opts.end());
    ParseResult c = parse(checkArgs), l = parse(lspArgs);
    ASSERT_TRUE(c.ok) << opts[0] << ": " << c.error;
    ASSERT_TRUE(l.ok) << opts[0] << ": " << l.error;
    const CheckOptions &co = c.commandLine.check, &lo = l.commandLine.check;
    if (lo.buildDir.empty()) // check was given `-p fallback` so that it has an input
      EXPECT_EQ(co.buildDir, "fallback") << opts[0];
    else
      EXPECT_EQ(co.buildDir, lo.buildDir) << opts[0];
    EXPECT_EQ(co.cudaPath, lo.cudaPath) << opts[0];
    EXPECT_EQ(co.rules, lo.rules) << opts[0];
    EXPECT_EQ(co.configFile, lo.configFile) << opts[0];
    EXPECT_EQ(co.profile, lo.profile) << opts[0];
    EXPECT_EQ(co.noCudaToolkit, lo.noCudaToolkit) << opts[0];
    EXPECT_EQ(co.assumeNoAlias, lo.assumeNoAlias) << opts[0];
    EXPECT_EQ(co.hasCompilerFlags, lo.hasCompilerFlags) << opts[0];
    EXPECT_EQ(co.compilerFlags, lo.compilerFlags) << opts[0];
  }
  EXPECT_EQ(parse({"lsp", "--rules", "a,b,a"}).commandLine.check.rules, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(parse({"lsp", "--", "-DX", "--rules"}).commandLine.check.compilerFlags,
            (std::vector<std::string>{"-DX", "--rules"}));

  const std::vector<std::pair<std::vector<std::string>, std::string>> rejected = {
      {{"-p"}, "option '-p' needs a value"},
      {{"-p="}, "option '-p' needs a value"},
      {{"--cuda-path"}, "option '--cuda-path' needs a value"},
      {{"--rules", ""}, "option '--rules' needs a value"},
      {{"--rules", "a,,b"}, "empty rule id in 'a,,b'"},
      {{"--config="}, "option '--config' needs a value"},
      {{"--profile"}, "option '--profile' needs a value"}};
  for (const auto &[opts, message] : rejected) {
    std::vector<std::string> checkArgs = {"check", "k.cu"}, lspArgs = {"lsp"};
    checkArgs.insert(checkArgs.end(), opts.begin(), opts.end());
    lspArgs.insert(lspArgs.end(), opts.begin(), opts.end());
    ParseResult c = parse(checkArgs), l = parse(lspArgs);
    EXPECT_FALSE(c.ok) << opts[0];
    EXPECT_FALSE(l.ok) << opts[0];
    EXPECT_EQ(c.error, message) << opts[0];
    EXPECT_EQ(l.error, message) << opts[0];
    EXPECT_EQ(c.errorTopic, "check");
    EXPECT_EQ(l.errorTopic, "lsp");
  }
}
