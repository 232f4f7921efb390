// Source lines for snippets under diagnostics. Each file is read once, on
// first use, however many findings point into it.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace warplint {

class SourceLines {
public:
  // The text of 1-based `line` without its line terminator, or null when the
  // file cannot be read or is shorter.
  const std::string *line(const std::string &file, unsigned line);
  // Supplies a file's contents instead of reading it (tests, unsaved buffers).
  void setContents(const std::string &file, const std::string &contents);

private:
  struct File {
    bool readable = false;
    std::vector<std::string> lines;
  };
  const File &load(const std::string &file);
  std::map<std::string, File> files_;
};

} // namespace warplint
