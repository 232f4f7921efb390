// A unified diff (3 lines of context, `diff -u` hunk format) of one file's
// contents before and after its fixes, for --fix-dry-run.
#pragma once

#include <string>

namespace warplint {

std::string unifiedDiff(const std::string &path, const std::string &before, const std::string &after);

} // namespace warplint
