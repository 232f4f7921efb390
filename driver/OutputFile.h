// Writing reports and docs so that a reader never sees half a file: the text
// goes to a temporary file next to the target, which is then renamed over it.
#pragma once

#include <string>

namespace warplint {

// Returns false and sets `error` (one line, naming the path) on failure; the
// target is then untouched and no temporary file is left behind.
bool writeFileAtomically(const std::string &path, const std::string &contents,
                         std::string &error);

} // namespace warplint
