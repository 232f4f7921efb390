#include "analyzer/frontend/MissingHeaders.h"

namespace warplint {

bool MissingHeaderSkipper::FileNotFound(llvm::StringRef name) {
  // Only a plain relative name could have been provided on an include path;
  // an absolute or `..` path stays the error the build would give.
  if (skipped_.size() >= limit_ || name.empty() || name.starts_with("/") || name.contains(".."))
    return false;
  skipped_.push_back({name.str(), clang::SourceLocation()});
  return true;
}

void MissingHeaderSkipper::InclusionDirective(clang::SourceLocation, const clang::Token &, llvm::StringRef name, bool,
                                              clang::CharSourceRange nameRange, clang::OptionalFileEntryRef file,
                                              llvm::StringRef, llvm::StringRef, const clang::Module *, bool,
                                              clang::SrcMgr::CharacteristicKind) {
  // Called right after FileNotFound for the same directive, without a file.
  if (!file && !skipped_.empty() && skipped_.back().at.isInvalid() && skipped_.back().name == name)
    skipped_.back().at = nameRange.getBegin();
}

} // namespace warplint
