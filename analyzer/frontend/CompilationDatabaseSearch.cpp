#include "analyzer/frontend/CompilationDatabaseSearch.h"

#include <filesystem>

namespace warplint {

namespace fs = std::filesystem;

std::string findCompilationDatabase(const std::string &file) {
  std::error_code ec;
  for (fs::path dir = fs::path(file).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    for (const fs::path &candidate : {dir, dir / "build"})
      if (fs::is_regular_file(candidate / "compile_commands.json", ec))
        return candidate.string();
    if (dir == dir.parent_path())
      break;
  }
  return "";
}

} // namespace warplint
