// Parsing warplint's command line into plain option structs. No I/O and no
// analysis: main() decides what to do with the result, tests call this directly.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warplint {

enum class Command { Help, Version, Check, ListRules, Docs, Lsp };
enum class OutputFormat { Text, Json, Sarif };
enum class ListFormat { Text, Markdown, Json };
enum class ColorMode { Auto, Always, Never };
// Finding severities in increasing order, for --fail-on.
enum class Severity { Note, Warning, Error };

// The default --time-limit: the slowest real file measured (Rodinia's
// heartwall, bench/README.md) takes about 3 CPU seconds; a file over two
// minutes is a pathology, not a large kernel.
constexpr double kDefaultTimeLimitSeconds = 120;

struct CheckOptions {
  std::vector<std::string> files;
  std::string buildDir;                   // -p DIR: use DIR/compile_commands.json
  bool hasCompilerFlags = false;          // `--` was given (possibly with no flags)
  std::vector<std::string> compilerFlags; // everything after `--`
  OutputFormat format = OutputFormat::Text;
  std::string outputFile;                 // --output; empty: stdout
  std::string cudaPath;                   // --cuda-path
  bool noCudaToolkit = false;             // --no-cuda-toolkit
  std::vector<std::string> rules;         // --rules a,b; empty: all
  std::string profile;                    // --profile FILE|NAME; empty: none
  ColorMode color = ColorMode::Auto;
  bool dumpModel = false;          // --dump-model: the analyzer's facts as JSON, no rules
  bool explain = false;            // --explain: each kernel's data objects, classes and guidelines (text)
  bool printClangCommand = false;  // --print-clang-command: the parse each file gets, then exit
  bool fix = false;                // --fix: apply the verified fixes in place
  bool fixDryRun = false;          // --fix-dry-run: print them as a unified diff
  std::string exportFixes;         // --export-fixes FILE.yaml (clang-apply-replacements format)
  bool fixVerifyNvcc = false;      // --fix-verify-nvcc: also compile the fixed files with nvcc
  bool fixLaunch = false;          // --fix-launch: also apply fixes that change launch sites
  bool assumeNoAlias = false;      // --assume-no-alias: pointer parameters never alias
  std::string baselineFile;        // --baseline FILE: report only findings not in this earlier report
  std::string configFile;          // --config FILE: instead of each file's nearest .warplint.yaml
  std::vector<std::string> warningsAsErrors; // --warnings-as-errors a,b
  bool allWarningsAsErrors = false;          // --warnings-as-errors all
  unsigned jobs = 0;               // -j N: files analyzed at once; 0: one per core
  bool quiet = false;              // --quiet: no progress line and no summary on stderr
  // --ptxas off|auto|on (--ptxas-confirm is on): when a file is compiled with
  // the toolkit's nvcc -Xptxas -v for its stack frames and registers; unset:
  // $WARPLINT_PTXAS, else auto (analyzer/native/NativeCompile.h).
  std::string ptxas;
  std::string cacheDir;            // --cache-dir DIR: those compiles' cache; "": $WARPLINT_CACHE_DIR, ~/.cache/warplint
  bool noCache = false;            // --no-cache: compile again every run, keep nothing
  bool showSuppressed = false;     // --show-suppressed: also print findings a NOLINT silenced
  Severity failOn = Severity::Note; // --fail-on: the least severe finding that makes the exit status 1
  // --min-gain PCT: findings whose predicted kernel gain is below PCT percent
  // are not shown (those without a prediction always are).
  std::optional<double> minGain;
  // --fail-min-gain PCT: findings predicted to gain less than PCT percent do
  // not make the exit status 1 (default kDefaultFailMinGain).
  std::optional<double> failMinGain;
  bool sortByGain = false;         // --sort gain: text findings by predicted gain, largest first
  bool noCostModel = false;        // --no-cost-model: no kernel cost model, no predicted gains
  // --time-limit SECONDS: a file whose analysis takes more CPU time is
  // stopped and reported as not analyzed (exit 2), never a hang; 0: no limit.
  double timeLimit = kDefaultTimeLimitSeconds;
  // Not a flag: the process ends as soon as runCheck returns (main sets it),
  // so the analysis results are not freed one node at a time (the system
  // takes the memory back at once; clang's -disable-free, which the parse
  // floor has too). A caller that goes on leaves it false.
  bool processEndsAfter = false;
};

// Below this predicted kernel gain (percent) a finding does not fail a run
// by default: it is under the run-to-run spread of kernel timings, and a
// quarter of the model's 15% error band (README "Predicted gains").
constexpr double kDefaultFailMinGain = 5.0;

struct ListRulesOptions {
  ListFormat format = ListFormat::Text;
};

struct DocsOptions {
  std::string outDir; // --out DIR
};

struct CommandLine {
  Command command = Command::Help;
  std::string helpTopic; // with Command::Help: "" (general) or "check", "list-rules", "docs", "lsp"
  CheckOptions check;    // also Command::Lsp's: how the files an editor opens are analyzed
  ListRulesOptions listRules;
  DocsOptions docs;
};

struct ParseResult {
  bool ok = false;
  std::string error; // one line, without "warplint: error: "; set when !ok
  std::string errorTopic; // the usage to show with the error ("" or a command)
  CommandLine commandLine;
};

// `args` excludes argv[0].
ParseResult parseCommandLine(const std::vector<std::string> &args);

// Usage text for a topic ("" for the general one), ending with a newline.
// Defined in Usage.cpp.
std::string usageText(const std::string &topic);

// Rule ids in `requested` that are not in `known`.
std::vector<std::string> unknownRuleIds(const std::vector<std::string> &requested,
                                        const std::vector<std::string> &known);

} // namespace warplint
