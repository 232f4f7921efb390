// Small path and command-line text helpers shared by the front end.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <initializer_list>
#include <string>
#include <vector>

namespace warplint {

std::string joinPath(llvm::StringRef a, llvm::StringRef b);
// `p` made absolute against `dir` (unchanged when already absolute or `dir` is empty).
std::string absolutize(const std::string &p, const std::string &dir);
// `p` made absolute against `dir`, or the current directory when `dir` is empty.
std::string normalizeAbsolute(const std::string &p, const std::string &dir);
std::string currentDir();
// A shell-quoted command string split as a GNU shell would.
std::vector<std::string> tokenize(llvm::StringRef text);
bool hasExtension(llvm::StringRef file, std::initializer_list<llvm::StringRef> exts);
bool isCudaSourceName(llvm::StringRef file);

} // namespace warplint
