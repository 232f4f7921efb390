// Unrolled warp tails of shared-memory tree reductions as the AST spells
// them (analyzer/results/WarpExchange.h, WarpTail), for the rewrite of
// warp-shuffle-candidate: found while the AST lives, judged by the rule
// against the warp model after evaluation.
#pragma once

#include "analyzer/model/KernelWalker.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace warplint {

// Sets k.info.warpExchanges to facts holding the tails of `fn`'s body
// (describeWarpExchanges keeps them).
void describeWarpTails(clang::ASTContext &ctx, const clang::FunctionDecl *fn, ModeledKernel &k);

} // namespace warplint
