// Inline suppressions in clang-tidy's syntax, applied between the rules and
// the printers:
//   code;  // NOLINT(rule-id[,rule-id]) reason      this line
//   // NOLINTNEXTLINE(rule-id) reason                 the next line
//   // NOLINTBEGIN(rule-id) ... // NOLINTEND(rule-id) the lines between
// A bare NOLINT (no parentheses) silences every rule; ids may be globs
// (`shared-*`, `*`) and may carry a `warplint-` prefix (`warplint-*`), so
// one comment can serve clang-tidy and warplint. A comment naming another
// rule silences nothing here. Text after the closing parenthesis is the
// reason and is kept with the finding.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct NolintComment {
  enum class Kind { SameLine, NextLine, Begin, End };
  Kind kind = Kind::SameLine;
  unsigned line = 0, column = 0;  // 1-based, of the word NOLINT...
  bool hasList = false;           // parentheses were written
  std::vector<std::string> rules; // the ids or globs inside them
  std::string justification;
  // Whether it names `rule` (a bare NOLINT names every rule).
  bool names(const std::string &rule) const;
  const char *keyword() const;
};

// Every NOLINT comment of a source text, in order.
std::vector<NolintComment> findNolintComments(const std::string &text);

class Suppressions {
public:
  // Supplies a file's text instead of reading it (tests).
  void setContents(const std::string &file, const std::string &text);
  // The comment that silences `rule` at `line` of `file`, if any.
  std::optional<Suppression> find(const std::string &file, unsigned line, const std::string &rule);
  // Sets Finding::suppression on each finding a comment silences; returns
  // how many.
  size_t apply(std::vector<Finding> &findings);
  // NOLINTBEGIN without NOLINTEND (and the reverse) in the files read so far:
  // they silence nothing, and say so.
  std::vector<FrontendMessage> problems() const;

private:
  struct Region {
    NolintComment begin;
    unsigned endLine = 0;
  };
  struct File {
    std::vector<NolintComment> comments; // SameLine and NextLine
    std::vector<Region> regions;          // matched BEGIN/END pairs
    std::vector<FrontendMessage> problems;
  };
  File &load(const std::string &file);
  void index(const std::string &file, const std::string &text);
  std::map<std::string, File> files_;
};

} // namespace warplint
