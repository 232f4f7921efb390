// KernelInfo::bytePackWindows from the AST and the kernel model together:
// the spelled windows of findBytePackWindows (RewriteFacts.h) and, where the
// index is spelled otherwise (a local `i` with `out[i]` .. `out[i + 3]`, a
// grid-stride loop variable), the windows whose bytes W*E+0..W-1 the model's
// byte offsets prove for every thread (analyzer/facts/BytePacking.cpp).
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <vector>

namespace warplint {

struct ModeledAccess;
class BodyParents;

// `model`: the accesses modelKernel recorded for `fn`; `parents`: the
// bodies' parent maps to share (null: made here).
std::vector<BytePackWindow> findBytePackWindows(clang::ASTContext &ctx, const clang::FunctionDecl *fn,
                                                const std::vector<ModeledAccess> &model,
                                                BodyParents *parents = nullptr);

} // namespace warplint
