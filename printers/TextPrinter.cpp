#include "printers/TextPrinter.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace warplint {

namespace {

constexpr unsigned kTabStop = 8;

// ANSI styles, used only when the caller asked for color.
const char *const kReset = "\033[0m";
const char *const kBold = "\033[1m";
const char *const kWarning = "\033[1;35m";
const char *const kError = "\033[1;31m";
const char *const kNote = "\033[1;36m";
const char *const kCaret = "\033[1;32m";

// UTF-8 continuation bytes take no column of their own.
bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

class Writer {
public:
  Writer(std::ostream &os, const TextOptions &opts, SourceLines &sources)
      : os_(os), opts_(opts), sources_(sources) {}

  std::string where(const std::string &file, unsigned line, unsigned column) const {
    std::string s = displayPath(file, opts_.baseDir);
    if (line != 0) {
      s += ":" + std::to_string(line);
      if (column != 0)
        s += ":" + std::to_string(column);
    }
    return s;
  }
  std::string where(const SourceLocation &loc) const { return where(loc.file, loc.line, loc.column); }

  void header(const std::string &location, const std::string &level, const std::string &message,
              const std::string &ruleId = "") {
    const char *levelStyle = level == "error" ? kError : level == "warning" ? kWarning : kNote;
    style(kBold);
    os_ << location << ": ";
    style(levelStyle);
    os_ << level << ": ";
    style(kReset);
    style(kBold);
    os_ << message;
    style(kReset);
    if (!ruleId.empty())
      os_ << " [" << ruleId << "]";
    os_ << "\n";
  }

  void snippet(const SourceLocation &loc) {
    if (!opts_.showSource || !loc.valid())
      return;
    const std::string *text = sources_.line(loc.file, loc.line);
    if (!text)
      return;
    // Gutter as wide as the line number, at least 4, like clang.
    std::string number = std::to_string(loc.line);
    size_t width = std::max<size_t>(number.size(), 4);
    os_ << std::string(width - number.size() + 1, ' ') << number << " | " << expandTabs(*text)
        << "\n";
    os_ << std::string(width + 2, ' ') << "| ";
    if (loc.column != 0) {
      os_ << std::string(displayColumn(*text, loc.column), ' ');
      style(kCaret);
      os_ << "^";
      style(kReset);
    }
    os_ << "\n";
  }

  void finding(const Finding &f) {
    header(where(f.loc), f.severity.empty() ? "warning" : f.severity, f.message, f.rule);
    snippet(f.loc);
    for (const FindingNote &n : f.notes) {
      // A note without a place of its own follows the finding at its place.
      const SourceLocation &loc = n.loc.valid() ? n.loc : f.loc;
      header(where(loc), "note", n.message);
      if (n.loc.valid() && (n.loc.file != f.loc.file || n.loc.line != f.loc.line))
        snippet(n.loc);
    }
    if (const auto &s = f.suppression)
      header(where(f.loc), "note",
             "suppressed by " + s->kind + " at " + where(s->loc.file, s->loc.line, 0) +
                 (s->justification.empty() ? "" : ": " + s->justification));
  }

  void unitStatus(const TranslationUnitResult &unit) {
    std::string file = where(unit.file, 0, 0);
    if (!unit.parsed) {
      header(file, "error",
             "could not analyze this file: " +
                 (unit.fatalError.empty() ? std::string("no AST was produced") : unit.fatalError));
      return;
    }
    for (const FrontendMessage &m : unit.frontendNotes)
      header(m.loc.valid() ? where(m.loc) : file, "note", m.message);
    size_t count = unit.compileErrors.size();
    if (count == 0)
      return;
    size_t listed = std::min(count, opts_.maxCompileErrorsListed);
    std::string summary = std::to_string(count) + " compile error" + (count == 1 ? "" : "s");
    if (listed < count)
      summary += " (" + std::to_string(listed) + " shown)";
    summary += "; kernels whose bodies parsed were still analyzed";
    header(file, "note", summary);
    for (size_t i = 0; i < listed; ++i) {
      const FrontendMessage &m = unit.compileErrors[i];
      header(m.loc.valid() ? where(m.loc) : file, "note", "compile error: " + m.message);
    }
  }

private:
  void style(const char *code) {
    if (opts_.color)
      os_ << code;
  }

  std::ostream &os_;
  const TextOptions &opts_;
  SourceLines &sources_;
};

std::string plural(size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

std::string displayPath(const std::string &file, const std::string &baseDir) {
  if (baseDir.empty())
    return file;
  std::string prefix = baseDir.back() == '/' ? baseDir : baseDir + "/";
  if (file.size() > prefix.size() && file.compare(0, prefix.size(), prefix) == 0)
    return file.substr(prefix.size());
  return file;
}

std::string expandTabs(const std::string &line) {
  std::string out;
  size_t col = 0;
  for (char c : line) {
    if (c == '\t') {
      size_t spaces = kTabStop - col % kTabStop;
      out.append(spaces, ' ');
      col += spaces;
    } else {
      out += c;
      if (!isContinuationByte(c))
        ++col;
    }
  }
  return out;
}

size_t displayColumn(const std::string &line, unsigned column) {
  // Columns count bytes, as clang's do; the caret goes where they display.
  size_t bytes = std::min<size_t>(column == 0 ? 0 : column - 1, line.size());
  size_t col = 0;
  for (size_t i = 0; i < bytes; ++i) {
    if (line[i] == '\t')
      col += kTabStop - col % kTabStop;
    else if (!isContinuationByte(line[i]))
      ++col;
  }
  return col; // a column past the end points just after the last character
}

void printText(std::ostream &os, const AnalysisResults &results,
               const std::vector<Finding> &findings, const TextOptions &opts,
               SourceLines &sources) {
  Writer w(os, opts, sources);
  for (const Finding &f : findings)
    if (!f.suppression || opts.showSuppressed)
      w.finding(f);
  for (const TranslationUnitResult &unit : results.units)
    w.unitStatus(unit);
}

std::string topGainsLine(const std::vector<Finding> &findings, const std::string &baseDir, size_t count) {
  std::vector<std::pair<double, const Finding *>> ranked;
  for (const Finding &f : findings)
    if (!f.suppression)
      if (auto it = f.details.find("predicted_kernel_speedup"); it != f.details.end() && it->is_number() &&
                                                                 it->get<double>() >= 1.005)
        ranked.push_back({it->get<double>(), &f});
  std::stable_sort(ranked.begin(), ranked.end(), [](auto &a, auto &b) { return a.first > b.first; });
  std::string line;
  for (size_t i = 0; i < ranked.size() && i < count; ++i) {
    const Finding &f = *ranked[i].second;
    char speed[32];
    std::snprintf(speed, sizeof speed, "~%.2fx", ranked[i].first);
    line += std::string(i ? "; " : "top predicted gains: ") + speed + " " + displayPath(f.loc.file, baseDir) + ":" +
            std::to_string(f.loc.line) + " " + f.rule + " (" + f.kernel + ")";
  }
  return line;
}

std::string summaryLine(const AnalysisResults &results, const std::vector<Finding> &findings) {
  size_t warnings = 0, notes = 0, errors = 0, suppressed = 0;
  std::set<std::string> filesWithFindings;
  for (const Finding &f : findings) {
    if (f.suppression) {
      ++suppressed;
      continue;
    }
    (f.severity == "note" ? notes : f.severity == "error" ? errors : warnings)++;
    filesWithFindings.insert(f.loc.file);
  }
  size_t kernels = 0, failed = 0;
  for (const TranslationUnitResult &unit : results.units) {
    kernels += unit.kernels.size();
    failed += unit.parsed ? 0 : 1;
  }

  std::vector<std::string> counts;
  if (errors)
    counts.push_back(plural(errors, "error"));
  if (warnings)
    counts.push_back(plural(warnings, "warning"));
  if (notes)
    counts.push_back(plural(notes, "note"));
  std::string line;
  for (size_t i = 0; i < counts.size(); ++i)
    line += (i == 0 ? "" : i + 1 == counts.size() ? " and " : ", ") + counts[i];
  line = counts.empty() ? "no findings" : line + " in " + plural(filesWithFindings.size(), "file");
  line += " (" + plural(kernels, "kernel") + " analyzed in " +
          plural(results.units.size() - failed, "file") + ")";
  if (suppressed)
    line += "; " + plural(suppressed, "finding") + " suppressed";
  if (failed)
    line += "; " + plural(failed, "file") + " could not be analyzed";
  return line;
}

} // namespace warplint
