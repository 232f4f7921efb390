// Facts that rewrites need and that only the AST can tell: where a shared
// array's dimensions are written and whether its layout escapes the
// subscripts, whether a kernel's pointer parameters are only read, and which
// launch arguments are distinct allocations. Facts only; rules decide.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include <string>
#include <vector>

namespace warplint {

class BodyParents; // analyzer/facts/BodyParents.h

// The file range `range` covers as written, or an invalid span when it does
// not map to one contiguous range of a file (it is inside a macro body).
SourceSpan fileSpan(const clang::ASTContext &ctx, clang::CharSourceRange range);

// Fills dimSpans and layoutEscapes of the shared array `v` declared in `fn`.
void describeArrayLayout(clang::ASTContext &ctx, const clang::FunctionDecl *fn, const clang::VarDecl *v,
                         ArrayInfo &out);

// Fills onlyRead, readAtAll, notReadOnlyReason and the insertion points of
// every pointer parameter of `fn` (parallel to fn's parameters).
// `parents`: the bodies' parent maps to share (null: made here).
void describePointerParams(clang::ASTContext &ctx, const clang::FunctionDecl *fn,
                           std::vector<ParamInfo> &params, BodyParents *parents = nullptr);

// The empty span before the pointee type of pointer parameter `p`, where
// `const ` goes; invalid when the type is not written there (a macro, a typedef).
SourceSpan constInsertPoint(clang::ASTContext &ctx, const clang::ParmVarDecl *p);

// ParamInfo::redeclConstInsertAt and signatureFixBlocker of the parameters
// of `fn` that have a constInsertAt (Redeclarations.cpp).
void describeRedeclarations(clang::ASTContext &ctx, const clang::FunctionDecl *fn,
                            std::vector<ParamInfo> &params);

// KernelInfo::undefinedOverloads of `fn`.
std::vector<std::string> findUndefinedOverloads(clang::ASTContext &ctx, const clang::FunctionDecl *fn);

// KernelInfo::bytePackWindows of `fn`.
std::vector<BytePackWindow> findBytePackWindows(clang::ASTContext &ctx, const clang::FunctionDecl *fn);

// KernelInfo::byteLane of `fn`: nullopt when the body does not have that shape.
std::optional<ByteLaneKernel> findByteLaneKernel(clang::ASTContext &ctx, const clang::FunctionDecl *fn);

// LaunchSite::argAllocations for one launch inside `enclosing`.
std::vector<std::string> launchArgAllocations(clang::ASTContext &ctx, const clang::CUDAKernelCallExpr *call,
                                              const clang::FunctionDecl *enclosing);

} // namespace warplint
