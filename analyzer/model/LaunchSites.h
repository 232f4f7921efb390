// Launch sites `k<<<grid, block, smem, stream>>>` and the constant shapes
// they use: dim3 constructors, integer constants, constexpr values and
// locals that are initialized once and never written again.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace warplint {

LaunchSite modelLaunch(clang::ASTContext &ctx, const clang::CUDAKernelCallExpr *call,
                       const clang::FunctionDecl *enclosing);

} // namespace warplint
