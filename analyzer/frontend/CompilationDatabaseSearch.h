// Where a file's compile_commands.json is, found the way clangd looks: in the
// file's directory and each parent, and in their build/ sub-directories.
#pragma once

#include <string>

namespace warplint {

// The directory holding the compile_commands.json nearest `file` (an absolute
// path), or "" when there is none up to the root.
std::string findCompilationDatabase(const std::string &file);

} // namespace warplint
