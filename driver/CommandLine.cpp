#include "driver/CommandLine.h"
#include "analyzer/native/NativeCompile.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace warplint {

namespace {

// Walks the arguments of one command; knows `--opt value` and `--opt=value`.
class ArgCursor {
public:
  ArgCursor(const std::vector<std::string> &args, size_t start) : args_(args), i_(start) {}

  bool done() const { return i_ >= args_.size(); }
  const std::string &peek() const { return args_[i_]; }
  const std::string &next() { return args_[i_++]; }
  std::vector<std::string> rest() {
    std::vector<std::string> r(args_.begin() + static_cast<long>(i_), args_.end());
    i_ = args_.size();
    return r;
  }

  // When the current argument is option `name` (any of `names`), consumes it
  // and its value. Sets `error` when the value is missing or empty.
  std::optional<std::string> value(std::initializer_list<const char *> names,
                                   std::string &error) {
    const std::string &arg = peek();
    for (const char *name : names) {
      std::string n = name;
      if (arg == n) {
        ++i_;
        if (done()) {
          error = "option '" + n + "' needs a value";
          return std::string();
        }
        return checked(n, next(), error);
      }
      if (arg.compare(0, n.size() + 1, n + "=") == 0) {
        ++i_;
        return checked(n, arg.substr(n.size() + 1), error);
      }
    }
    return std::nullopt;
  }

private:
  static std::string checked(const std::string &name, const std::string &v, std::string &error) {
    if (v.empty())
      error = "option '" + name + "' needs a value";
    return v;
  }

  const std::vector<std::string> &args_;
  size_t i_;
};

ParseResult fail(const std::string &message, const std::string &topic) {
  ParseResult r;
  r.error = message;
  r.errorTopic = topic;
  return r;
}

ParseResult help(const std::string &topic) {
  ParseResult r;
  r.ok = true;
  r.commandLine.command = Command::Help;
  r.commandLine.helpTopic = topic;
  return r;
}

bool isHelp(const std::string &arg) { return arg == "-h" || arg == "--help"; }

// A request for help anywhere among a command's own arguments wins over
// mistakes elsewhere on the line: whoever asks for help is still learning it.
bool wantsHelp(const std::vector<std::string> &args, size_t start) {
  for (size_t i = start; i < args.size() && args[i] != "--"; ++i)
    if (isHelp(args[i]))
      return true;
  return false;
}

std::string unknownOption(const std::string &arg) {
  return arg == "-" ? "reading source from stdin is not supported" : "unknown option '" + arg + "'";
}

// `what` names the option in messages; `choices` are the accepted values.
template <typename Enum>
bool pickChoice(const std::string &what, const std::string &value,
                std::initializer_list<std::pair<const char *, Enum>> choices, Enum &out,
                std::string &error) {
  std::string accepted;
  for (const auto &choice : choices) {
    if (value == choice.first) {
      out = choice.second;
      return true;
    }
    accepted += (accepted.empty() ? "" : ", ") + std::string(choice.first);
  }
  error = "invalid value '" + value + "' for " + what + " (expected " + accepted + ")";
  return false;
}

bool splitRuleIds(const std::string &list, std::vector<std::string> &out, std::string &error) {
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string id = list.substr(start, comma == std::string::npos ? std::string::npos
                                                                   : comma - start);
    if (id.empty()) {
      error = "empty rule id in '" + list + "'";
      return false;
    }
    if (std::find(out.begin(), out.end(), id) == out.end())
      out.push_back(id);
    if (comma == std::string::npos)
      return true;
    start = comma + 1;
  }
}

// The options `check` and `lsp` share: how a file is parsed and judged.
// Consumes the current argument (and its value) when it is one of them and
// returns true; `--` takes the rest of the line as compiler flags. Sets
// `error` for a missing or invalid value.
bool parseAnalysisOption(ArgCursor &cur, CheckOptions &o, std::string &error) {
  const std::string &arg = cur.peek();
  if (arg == "--") {
    cur.next();
    o.hasCompilerFlags = true;
    o.compilerFlags = cur.rest();
  } else if (auto v = cur.value({"-p"}, error)) {
    o.buildDir = *v;
  } else if (auto v = cur.value({"--cuda-path"}, error)) {
    o.cudaPath = *v;
  } else if (auto v = cur.value({"--rules"}, error)) {
    if (error.empty())
      splitRuleIds(*v, o.rules, error);
  } else if (auto v = cur.value({"--config"}, error)) {
    o.configFile = *v;
  } else if (auto v = cur.value({"--profile"}, error)) {
    o.profile = *v;
  } else if (auto v = cur.value({"--time-limit"}, error)) {
    if (error.empty()) {
      char *end = nullptr;
      double seconds = std::strtod(v->c_str(), &end);
      if (v->empty() || *end != '\0' || !(seconds >= 0) || seconds > 1e6)
        error = "invalid value '" + *v + "' for --time-limit (expected seconds a file, 0 for no limit)";
      else
        o.timeLimit = seconds;
    }
  } else if (auto v = cur.value({"--ptxas"}, error)) {
    PtxasMode mode;
    if (error.empty() && (*v == "cache-only" || !parsePtxasMode(*v, mode)))
      error = "invalid value '" + *v + "' for --ptxas (expected off, auto or on)";
    else
      o.ptxas = *v;
  } else if (auto v = cur.value({"--cache-dir"}, error)) {
    o.cacheDir = *v;
  } else if (arg == "--no-cache") {
    o.noCache = true;
    cur.next();
  } else if (arg == "--no-cuda-toolkit" || arg == "--assume-no-alias") {
    (arg == "--no-cuda-toolkit" ? o.noCudaToolkit : o.assumeNoAlias) = true;
    cur.next();
  } else {
    return false;
  }
  return true;
}

ParseResult parseCheck(const std::vector<std::string> &args, size_t start) {
  const std::string topic = "check";
  if (wantsHelp(args, start))
    return help(topic);
  ParseResult r;
  CheckOptions &o = r.commandLine.check;
  r.commandLine.command = Command::Check;
  ArgCursor cur(args, start);
  std::string error;
  while (!cur.done()) {
    const std::string &arg = cur.peek();
    if (parseAnalysisOption(cur, o, error)) {
      // shared with `lsp`
    } else if (auto v = cur.value({"--format"}, error)) {
      if (error.empty())
        pickChoice<OutputFormat>("--format", *v,
                                 {{"text", OutputFormat::Text},
                                  {"json", OutputFormat::Json},
                                  {"sarif", OutputFormat::Sarif}},
                                 o.format, error);
    } else if (auto v = cur.value({"--output", "-o"}, error)) {
      o.outputFile = *v;
    } else if (auto v = cur.value({"--baseline"}, error)) {
      o.baselineFile = *v;
    } else if (auto v = cur.value({"--warnings-as-errors"}, error)) {
      if (error.empty() && *v == "all")
        o.allWarningsAsErrors = true;
      else if (error.empty())
        splitRuleIds(*v, o.warningsAsErrors, error);
    } else if (auto v = cur.value({"--color"}, error)) {
      if (error.empty())
        pickChoice<ColorMode>("--color", *v,
                              {{"auto", ColorMode::Auto},
                               {"always", ColorMode::Always},
                               {"never", ColorMode::Never}},
                              o.color, error);
    } else if (auto v = arg.size() > 2 && arg.compare(0, 2, "-j") == 0 && arg[2] != '='
                            ? std::optional<std::string>(cur.next().substr(2)) // -j4
                            : cur.value({"-j", "--jobs"}, error)) {
      if (error.empty()) {
        char *end = nullptr;
        unsigned long n = std::strtoul(v->c_str(), &end, 10);
        if (v->empty() || *end != '\0' || n == 0 || n > 1024)
          error = "invalid value '" + *v + "' for -j (expected a number of files analyzed at once, 1 to 1024)";
        else
          o.jobs = static_cast<unsigned>(n);
      }
    } else if (arg == "--quiet" || arg == "-q") {
      cur.next();
      o.quiet = true;
    } else if (auto v = cur.value({"--fail-on"}, error)) {
      if (error.empty())
        pickChoice<Severity>("--fail-on", *v,
                             {{"note", Severity::Note}, {"warning", Severity::Warning}, {"error", Severity::Error}},
                             o.failOn, error);
    } else if (auto v = cur.value({"--min-gain", "--fail-min-gain"}, error)) {
      if (error.empty()) {
        char *end = nullptr;
        double pct = std::strtod(v->c_str(), &end);
        if (v->empty() || *end != '\0' || !(pct >= 0) || pct > 1000)
          error = "invalid value '" + *v + "' for " + arg.substr(0, arg.find('=')) +
                  " (expected a percentage of kernel time, 0 to 1000)";
        else
          (arg.rfind("--min-gain", 0) == 0 ? o.minGain : o.failMinGain) = pct;
      }
    } else if (auto v = cur.value({"--sort"}, error)) {
      if (error.empty()) {
        if (*v == "gain" || *v == "source")
          o.sortByGain = *v == "gain";
        else
          error = "invalid value '" + *v + "' for --sort (expected gain or source)";
      }
    } else if (auto v = cur.value({"--export-fixes"}, error)) {
      o.exportFixes = *v;
    } else if (arg == "--ptxas-confirm") {
      o.ptxas = "on";
      cur.next();
    } else if (arg == "--fix" || arg == "--fix-dry-run" || arg == "--fix-verify-nvcc" || arg == "--fix-launch") {
      bool &flag = arg == "--fix" ? o.fix : arg == "--fix-dry-run" ? o.fixDryRun
                                        : arg == "--fix-verify-nvcc" ? o.fixVerifyNvcc : o.fixLaunch;
      flag = true;
      cur.next();
    } else if (arg == "--no-cost-model") {
      cur.next();
      o.noCostModel = true;
    } else if (arg == "--show-suppressed") {
      cur.next();
      o.showSuppressed = true;
    } else if (arg == "--dump-model") {
      cur.next();
      o.dumpModel = true;
    } else if (arg == "--explain") {
      cur.next();
      o.explain = true;
    } else if (arg == "--print-clang-command") {
      cur.next();
      o.printClangCommand = true;
    } else if (!arg.empty() && arg[0] == '-') {
      // Anything else that looks like an option; checked before it could be
      // mistaken for a file. Compiler flags belong after `--`.
      std::string message = unknownOption(arg);
      if (arg.size() > 1 && arg[1] != '-')
        message += " (compiler flags go after `--`)";
      return fail(message, topic);
    } else {
      o.files.push_back(cur.next());
    }
    if (!error.empty())
      return fail(error, topic);
  }
  if (o.files.empty() && o.buildDir.empty())
    return fail("no input files (give FILE... or -p BUILD_DIR)", topic);
  bool fixing = o.fix || o.fixDryRun || !o.exportFixes.empty();
  if ((o.fixVerifyNvcc || o.fixLaunch) && !fixing)
    return fail(std::string(o.fixVerifyNvcc ? "--fix-verify-nvcc" : "--fix-launch") +
                    " needs --fix, --fix-dry-run or --export-fixes", topic);
  if (fixing && (o.dumpModel || o.printClangCommand))
    return fail("fixes cannot be combined with --dump-model or --print-clang-command", topic);
  // The JSON report and the model dump always carry the classification.
  if (o.explain && (o.format != OutputFormat::Text || o.dumpModel))
    return fail("--explain prints a text table; JSON reports and --dump-model already carry the classification",
                topic);
  r.ok = true;
  return r;
}

ParseResult parseListRules(const std::vector<std::string> &args, size_t start) {
  const std::string topic = "list-rules";
  if (wantsHelp(args, start))
    return help(topic);
  ParseResult r;
  r.commandLine.command = Command::ListRules;
  ArgCursor cur(args, start);
  std::string error;
  while (!cur.done()) {
    const std::string &arg = cur.peek();
    if (auto v = cur.value({"--format"}, error)) {
      if (error.empty())
        pickChoice<ListFormat>("--format", *v,
                               {{"text", ListFormat::Text},
                                {"markdown", ListFormat::Markdown},
                                {"json", ListFormat::Json}},
                               r.commandLine.listRules.format, error);
    } else if (!arg.empty() && arg[0] == '-') {
      return fail(unknownOption(arg), topic);
    } else {
      return fail("unexpected argument '" + arg + "'", topic);
    }
    if (!error.empty())
      return fail(error, topic);
  }
  r.ok = true;
  return r;
}

ParseResult parseDocs(const std::vector<std::string> &args, size_t start) {
  const std::string topic = "docs";
  if (wantsHelp(args, start))
    return help(topic);
  ParseResult r;
  r.commandLine.command = Command::Docs;
  ArgCursor cur(args, start);
  std::string error;
  while (!cur.done()) {
    const std::string &arg = cur.peek();
    if (auto v = cur.value({"--out"}, error)) {
      r.commandLine.docs.outDir = *v;
    } else if (!arg.empty() && arg[0] == '-') {
      return fail(unknownOption(arg), topic);
    } else {
      return fail("unexpected argument '" + arg + "'", topic);
    }
    if (!error.empty())
      return fail(error, topic);
  }
  if (r.commandLine.docs.outDir.empty())
    return fail("missing --out DIR", topic);
  r.ok = true;
  return r;
}

// `warplint lsp`: the options of `check` that say how a file is parsed and
// judged; the files come from the editor.
ParseResult parseLsp(const std::vector<std::string> &args, size_t start) {
  const std::string topic = "lsp";
  if (wantsHelp(args, start))
    return help(topic);
  ParseResult r;
  CheckOptions &o = r.commandLine.check;
  r.commandLine.command = Command::Lsp;
  ArgCursor cur(args, start);
  std::string error;
  while (!cur.done()) {
    const std::string &arg = cur.peek();
    if (parseAnalysisOption(cur, o, error)) {
      // shared with `check`
    } else if (arg == "--stdio") {
      cur.next(); // what VS Code's clients pass; stdio is the only transport
    } else if (!arg.empty() && arg[0] == '-') {
      return fail(unknownOption(arg), topic);
    } else {
      return fail("unexpected argument '" + arg + "' (the editor names the files)", topic);
    }
    if (!error.empty())
      return fail(error, topic);
  }
  r.ok = true;
  return r;
}

} // namespace

ParseResult parseCommandLine(const std::vector<std::string> &args) {
  if (args.empty())
    return fail("no command given", "");
  const std::string &first = args[0];
  if (isHelp(first) || first == "help") {
    std::string topic = args.size() > 1 && first == "help" ? args[1] : "";
    if (!topic.empty() && topic != "check" && topic != "list-rules" && topic != "docs" && topic != "lsp")
      return fail("no help for unknown command '" + topic + "'", "");
    return help(topic);
  }
  if (first == "--version") {
    if (args.size() > 1)
      return fail("unexpected argument '" + args[1] + "' after --version", "");
    ParseResult r;
    r.ok = true;
    r.commandLine.command = Command::Version;
    return r;
  }
  if (first == "check")
    return parseCheck(args, 1);
  if (first == "list-rules")
    return parseListRules(args, 1);
  if (first == "docs")
    return parseDocs(args, 1);
  if (first == "lsp")
    return parseLsp(args, 1);
  if (!first.empty() && first[0] == '-')
    return fail(unknownOption(first), "");
  return fail("unknown command '" + first + "' (to analyze a file: warplint check " + first + ")",
              "");
}

std::vector<std::string> unknownRuleIds(const std::vector<std::string> &requested,
                                        const std::vector<std::string> &known) {
  std::vector<std::string> unknown;
  for (const std::string &id : requested)
    if (std::find(known.begin(), known.end(), id) == known.end())
      unknown.push_back(id);
  return unknown;
}

} // namespace warplint
