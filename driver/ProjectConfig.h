// `.warplint.yaml`: a project's settings, found like `.clang-tidy` (the
// analyzed file's directory, then its parents; the nearest wins) or named
// with --config. Command-line flags override it.
//
//   enable: [shared-bank-conflict, global-uncoalesced]   # only these rules
//   disable: [global-narrow-access]                      # all but these
//   profile: h200                                        # bundled name or file (relative to this file)
//   exclude: ["third_party/**", "**/*_generated.cu"]     # globs, relative to this file's directory
//   warnings-as-errors: all                              # or a list of rule ids
//   min-gain: 5        # hide findings whose predicted kernel gain is below 5%
//   fail-min-gain: 5   # findings below 5% predicted gain do not fail the run
//   rules:
//     readonly-param:
//       assume-no-alias: true
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct ProjectConfig {
  std::string path; // the file it was read from; empty: no file (defaults)
  std::string dir;  // its directory: `exclude` and a relative `profile` are resolved against it
  std::optional<std::vector<std::string>> enable;
  std::vector<std::string> disable;
  std::string profile;
  std::vector<std::string> exclude;
  bool allWarningsAsErrors = false;
  std::vector<std::string> warningsAsErrors;
  std::optional<bool> assumeNoAlias; // rules: readonly-param: assume-no-alias
  std::optional<double> minGain;     // min-gain: percent
  std::optional<double> failMinGain; // fail-min-gain: percent

  // The rules to run: `enable` (or every known rule) less `disable`.
  std::vector<std::string> enabledRules(const std::vector<std::string> &known) const;
  // Whether `file` (absolute) matches an `exclude` glob.
  bool excludes(const std::string &file) const;
};

// Parses `text` (the contents of `path`). On error returns false with `error`
// as "PATH:LINE:COLUMN: message": unknown keys, unknown rule ids, values of
// the wrong kind.
bool parseProjectConfig(const std::string &path, const std::string &text,
                        const std::vector<std::string> &knownRules, ProjectConfig &out, std::string &error);

// Reads and parses `path`.
bool loadProjectConfig(const std::string &path, const std::vector<std::string> &knownRules, ProjectConfig &out,
                       std::string &error);

// The nearest `.warplint.yaml` at or above the directory of `file`; "" if none.
std::string findProjectConfig(const std::string &file);

// Glob match of a path relative to the config's directory: `**` spans
// directories, `*` and `?` stay within one; a pattern without `/` matches the
// file name in any directory (as in .gitignore).
bool globMatches(const std::string &pattern, const std::string &relativePath);

} // namespace warplint
