#include "rewriter/UnifiedDiff.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace warplint {

namespace {

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

struct Edit {
  char kind; // ' ', '-', '+'
  std::string line;
};

// Line edits turning a into b: common prefix and suffix first (fixes are
// local), then a longest-common-subsequence table over what is left.
std::vector<Edit> lineEdits(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre])
    ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    ++suf;
  size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  std::vector<std::vector<unsigned>> lcs(n + 1, std::vector<unsigned>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<Edit> edits;
  for (size_t i = 0; i < pre; ++i)
    edits.push_back({' ', a[i]});
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[pre + i] == b[pre + j]) {
      edits.push_back({' ', a[pre + i]});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({'-', a[pre + i++]});
    } else {
      edits.push_back({'+', b[pre + j++]});
    }
  }
  for (size_t k = a.size() - suf; k < a.size(); ++k)
    edits.push_back({' ', a[k]});
  return edits;
}

} // namespace

std::string unifiedDiff(const std::string &path, const std::string &before, const std::string &after) {
  if (before == after)
    return "";
  const size_t context = 3;
  std::vector<Edit> edits = lineEdits(splitLines(before), splitLines(after));
  std::ostringstream out;
  out << "--- " << path << "\n+++ " << path << "\n";
  size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].kind == ' ') {
      ++k;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines
    // after the last change that is at most 2*context unchanged lines away.
    size_t start = k >= context ? k - context : 0, end = k;
    while (true) {
      size_t next = end;
      while (next < edits.size() && edits[next].kind != ' ')
        ++next;
      size_t gap = next;
      while (gap < edits.size() && edits[gap].kind == ' ')
        ++gap;
      if (gap < edits.size() && gap - next <= 2 * context) {
        end = gap;
        continue;
      }
      end = std::min(edits.size(), next + context);
      break;
    }
    size_t oldLine = 1, newLine = 1;
    for (size_t i = 0; i < start; ++i) {
      oldLine += edits[i].kind != '+';
      newLine += edits[i].kind != '-';
    }
    size_t oldCount = 0, newCount = 0;
    for (size_t i = start; i < end; ++i) {
      oldCount += edits[i].kind != '+';
      newCount += edits[i].kind != '-';
    }
    out << "@@ -" << (oldCount ? oldLine : oldLine - 1) << "," << oldCount << " +"
        << (newCount ? newLine : newLine - 1) << "," << newCount << " @@\n";
    for (size_t i = start; i < end; ++i)
      out << edits[i].kind << edits[i].line << "\n";
    k = end;
  }
  return out.str();
}

} // namespace warplint
