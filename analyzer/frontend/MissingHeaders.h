// Headers the build does not find (omp.h, mpi.h, a project header the compile
// command does not point at) are skipped as if empty, so that a header only
// host code needs does not cost the file's kernels. The preprocessor asks
// before it reports "file not found", so this happens within the one parse;
// re-parsing the file once per missing header (the earlier way) cost a whole
// parse each: a HeCBench HIP port with eight absent headers parsed nine times.
#pragma once

#include "clang/Lex/PPCallbacks.h"

#include <string>
#include <vector>

namespace warplint {

struct SkippedHeader {
  std::string name;        // as written in the #include
  clang::SourceLocation at; // the file name in the directive
};

class MissingHeaderSkipper : public clang::PPCallbacks {
public:
  // At most `limit` headers are skipped; the next missing one is the fatal
  // error clang reports.
  MissingHeaderSkipper(std::vector<SkippedHeader> &skipped, size_t limit) : skipped_(skipped), limit_(limit) {}
  bool FileNotFound(llvm::StringRef name) override;
  void InclusionDirective(clang::SourceLocation hash, const clang::Token &includeTok, llvm::StringRef name,
                          bool angled, clang::CharSourceRange nameRange, clang::OptionalFileEntryRef file,
                          llvm::StringRef searchPath, llvm::StringRef relativePath, const clang::Module *module,
                          bool moduleImported, clang::SrcMgr::CharacteristicKind kind) override;

private:
  std::vector<SkippedHeader> &skipped_;
  size_t limit_;
};

} // namespace warplint
