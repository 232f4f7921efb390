#include "analyzer/frontend/PathText.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>

namespace warplint {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using llvm::StringRef;

std::string joinPath(StringRef a, StringRef b) {
  llvm::SmallString<256> s(a);
  path::append(s, b);
  return std::string(s.str());
}

std::string absolutize(const std::string &p, const std::string &dir) {
  if (p.empty() || path::is_absolute(p) || dir.empty())
    return p;
  llvm::SmallString<256> s(dir);
  path::append(s, p);
  path::remove_dots(s, /*remove_dot_dot=*/true);
  return std::string(s.str());
}

std::string normalizeAbsolute(const std::string &p, const std::string &dir) {
  llvm::SmallString<256> s(p);
  if (!path::is_absolute(s)) {
    llvm::SmallString<256> base(dir);
    if (base.empty())
      fs::current_path(base);
    path::append(base, s);
    s = base;
  }
  path::remove_dots(s, /*remove_dot_dot=*/true);
  return std::string(s.str());
}

std::string currentDir() {
  llvm::SmallString<256> cwd;
  fs::current_path(cwd);
  return std::string(cwd.str());
}

std::vector<std::string> tokenize(StringRef text) {
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *, 32> toks;
  llvm::cl::TokenizeGNUCommandLine(text, saver, toks);
  std::vector<std::string> out;
  for (const char *t : toks)
    if (t)
      out.emplace_back(t);
  return out;
}

bool hasExtension(StringRef file, std::initializer_list<StringRef> exts) {
  StringRef ext = path::extension(file);
  for (StringRef e : exts)
    if (ext.equals_insensitive(e))
      return true;
  return false;
}

bool looksLikeSource(StringRef arg) {
  return hasExtension(arg, {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".c++", ".cp", ".C",
                            ".h", ".hpp", ".hh", ".hxx", ".inl", ".inc"});
}

bool isCudaSourceName(StringRef file) { return hasExtension(file, {".cu", ".cuh"}); }

} // namespace warplint
