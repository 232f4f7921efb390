// The names of the CUDA runtime and driver calls the host walker
// (HostFacts.cpp) recognizes: copies and their operand positions, prefetch
// and advice, launch APIs and the CUDA libraries whose calls run kernels.
#pragma once

#include "analyzer/host/HostFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>

namespace warplint {

// Operand positions of one copy function; -1 where it has none.
struct CopyApi {
  const char *name;
  int dst, src, size, height, kind, stream;
  CopyDirection fixed; // for functions whose direction is their name (cuMemcpyHtoD)
  bool dstIsSymbolOrArray, srcIsSymbolOrArray;
};

// The copy function called `name` (plain, see plainName), or null.
const CopyApi *findCopyApi(const std::string &name);

// The runtime's per-thread-stream variants (`cudaMemcpyAsync_ptsz`) under their plain names.
std::string plainName(std::string n);
// The callee's name as written (plain), "" for a call through a pointer, lambda or functor.
std::string calleeNameOf(const clang::CallExpr *call);
bool isHostFunction(const clang::FunctionDecl *fd);
// The text of `e` as written: inside a macro argument (CHECK_CUDA(cudaMemcpy(...)))
// the argument's own text, not the whole macro.
std::string writtenText(const clang::ASTContext &ctx, const clang::Expr *e);

bool isPrefetchOrAdvise(const std::string &name);
// Whether a body calls cudaMemPrefetchAsync or cudaMemAdvise (in either toolkit's spelling).
bool prefetchesOrAdvises(const clang::Stmt *s);
// CUDA libraries whose calls run kernels (cuBLAS, cuFFT, cuSPARSE, cuSOLVER, cuRAND, cuDNN, NPP, nvJPEG).
bool isLibraryName(const std::string &n);
// Kernel launch APIs and the library calls that run kernels (not their handles and settings).
bool isLaunchApi(const std::string &n);
// Declared in namespace thrust or cub.
bool inLibraryNamespace(const clang::FunctionDecl *fd);

} // namespace warplint
