// Launch sites `k<<<grid, block, smem, stream>>>`: which kernels they start
// and the block shapes they use. A component of a shape is known when it is a
// constant, a constexpr value, an enumerator, a template argument or a local
// that is initialized once and never written again; a dim3 may also be built
// by member assignments (`b.x = 16;`), and a launch under `case N:` of
// `switch (v)` sees v == N. Components that stay unknown are left empty
// (LaunchSite::blockDims), so that the known ones can still be used.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <optional>
#include <vector>

namespace warplint {

class BodyParents; // analyzer/facts/BodyParents.h

// What a launch is made of, whichever way it is written: `k<<<grid, block,
// smem>>>(args)`, or the runtime's `cudaLaunchKernel((void *)k, grid, block,
// args, smem, stream)` and `cudaLaunchCooperativeKernel` (same operands).
struct LaunchOperands {
  const clang::Expr *launch = nullptr; // the whole expression
  const clang::Expr *kernel = nullptr; // the kernel as written (a cast to void * removed)
  const clang::Expr *grid = nullptr, *block = nullptr, *sharedBytes = nullptr;
  // The `<<<>>>` call, whose arguments are the kernel's; null for the
  // runtime calls (their arguments travel as a void * array).
  const clang::CUDAKernelCallExpr *kernelCall = nullptr;
};
LaunchOperands launchOperands(const clang::CUDAKernelCallExpr *call);
// Nullopt when `call` is not one of the runtime's launch functions.
std::optional<LaunchOperands> runtimeLaunchOperands(const clang::CallExpr *call);

// `kernels` are the functions the launch may start (launchedKernels);
// `bodies`: the unit's body parent maps to share (null: the unit's
// ASTContext parent map).
LaunchSite modelLaunch(clang::ASTContext &ctx, const LaunchOperands &launch, const clang::FunctionDecl *enclosing,
                       const std::vector<const clang::FunctionDecl *> &kernels, bool viaPointer,
                       BodyParents *bodies = nullptr);

// The kernels a launch may start: the kernel it names, or, for a launch
// through a function-pointer variable or a table of them (`k<<<g, b>>>(...)`,
// `table[i]<<<g, b>>>(...)`), every __global__ function named in that
// variable's initializer or in an assignment to it inside `enclosing`.
// `viaPointer` tells which. Empty when the pointer's values cannot be seen (a
// parameter, say).
std::vector<const clang::FunctionDecl *> launchedKernels(const LaunchOperands &launch,
                                                         const clang::FunctionDecl *enclosing, bool &viaPointer);

// A kernel's identity across translation units: qualified name, template
// arguments and parameter types ("ns::k(float *, int)").
std::string kernelKey(const clang::FunctionDecl *fd);

} // namespace warplint
