// Whether a parsed file is CUDA or C++ at all. A binary, or text that gives
// nothing but compile errors, must be an error for that file rather than a
// silent "no findings" (a CI would otherwise pass on a corrupted checkout).
#pragma once

#include "clang/AST/ASTContext.h"

#include <string>

namespace warplint {

struct SourceShape {
  bool binary = false;      // the main file holds NUL bytes
  size_t declarations = 0;  // valid top-level declarations written in the main file
};

SourceShape describeMainFile(clang::ASTContext &ctx);

// Why a unit with this shape is not CUDA or C++ source; "" when it may be.
// `hadErrors`: the parse reported errors; `fatal`: one of them stopped it
// (a missing include: the file is source, its errors say what is wrong).
std::string notSourceReason(const SourceShape &shape, size_t errors, bool fatal);

} // namespace warplint
