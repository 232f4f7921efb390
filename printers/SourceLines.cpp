#include "printers/SourceLines.h"

#include <fstream>
#include <sstream>

namespace warplint {

static std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string current;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      lines.push_back(current);
      current.clear();
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
        ++i; // CRLF is one terminator
    } else {
      current += c;
    }
  }
  if (!current.empty())
    lines.push_back(current);
  return lines;
}

void SourceLines::setContents(const std::string &file, const std::string &contents) {
  File &f = files_[file];
  f.readable = true;
  f.lines = splitLines(contents);
}

const SourceLines::File &SourceLines::load(const std::string &file) {
  auto it = files_.find(file);
  if (it != files_.end())
    return it->second;
  File &f = files_[file]; // remembered even when unreadable: tried once
  std::ifstream in(file, std::ios::binary);
  if (in) {
    std::ostringstream text;
    text << in.rdbuf();
    f.readable = true;
    f.lines = splitLines(text.str());
  }
  return f;
}

const std::string *SourceLines::line(const std::string &file, unsigned line) {
  const File &f = load(file);
  if (!f.readable || line == 0 || line > f.lines.size())
    return nullptr;
  return &f.lines[line - 1];
}

} // namespace warplint
