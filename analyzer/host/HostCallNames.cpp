#include "analyzer/host/HostCallNames.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <cstring>

namespace warplint {

using namespace clang;

namespace {

const CopyApi kCopies[] = {
    {"cudaMemcpy", 0, 1, 2, -1, 3, -1, CopyDirection::Unknown, false, false},
    {"cudaMemcpyAsync", 0, 1, 2, -1, 3, 4, CopyDirection::Unknown, false, false},
    {"cudaMemcpy2D", 0, 2, 4, 5, 6, -1, CopyDirection::Unknown, false, false},
    {"cudaMemcpy2DAsync", 0, 2, 4, 5, 6, 7, CopyDirection::Unknown, false, false},
    {"cudaMemcpyToSymbol", 0, 1, 2, -1, 4, -1, CopyDirection::Unknown, true, false},
    {"cudaMemcpyToSymbolAsync", 0, 1, 2, -1, 4, 5, CopyDirection::Unknown, true, false},
    {"cudaMemcpyFromSymbol", 0, 1, 2, -1, 4, -1, CopyDirection::Unknown, false, true},
    {"cudaMemcpyFromSymbolAsync", 0, 1, 2, -1, 4, 5, CopyDirection::Unknown, false, true},
    {"cudaMemcpyToArray", 0, 3, 4, -1, 5, -1, CopyDirection::Unknown, true, false},
    {"cudaMemcpyFromArray", 0, 1, 4, -1, 5, -1, CopyDirection::Unknown, false, true},
    {"cudaMemcpy2DToArray", 0, 3, 5, 6, 7, -1, CopyDirection::Unknown, true, false},
    {"cudaMemcpy2DToArrayAsync", 0, 3, 5, 6, 7, 8, CopyDirection::Unknown, true, false},
    {"cudaMemcpy2DFromArray", 0, 2, 5, 6, 7, -1, CopyDirection::Unknown, false, true},
    {"cudaMemcpy2DFromArrayAsync", 0, 2, 5, 6, 7, 8, CopyDirection::Unknown, false, true},
    {"cuMemcpyHtoD", 0, 1, 2, -1, -1, -1, CopyDirection::HostToDevice, false, false},
    {"cuMemcpyHtoD_v2", 0, 1, 2, -1, -1, -1, CopyDirection::HostToDevice, false, false},
    {"cuMemcpyHtoDAsync", 0, 1, 2, -1, -1, 3, CopyDirection::HostToDevice, false, false},
    {"cuMemcpyHtoDAsync_v2", 0, 1, 2, -1, -1, 3, CopyDirection::HostToDevice, false, false},
    {"cuMemcpyDtoH", 0, 1, 2, -1, -1, -1, CopyDirection::DeviceToHost, false, false},
    {"cuMemcpyDtoH_v2", 0, 1, 2, -1, -1, -1, CopyDirection::DeviceToHost, false, false},
    {"cuMemcpyDtoHAsync", 0, 1, 2, -1, -1, 3, CopyDirection::DeviceToHost, false, false},
    {"cuMemcpyDtoHAsync_v2", 0, 1, 2, -1, -1, 3, CopyDirection::DeviceToHost, false, false},
    {"cuMemcpyDtoD", 0, 1, 2, -1, -1, -1, CopyDirection::DeviceToDevice, false, false},
    {"cuMemcpyDtoD_v2", 0, 1, 2, -1, -1, -1, CopyDirection::DeviceToDevice, false, false},
    {"cudaMemcpy3D", -1, -1, -1, -1, -1, -1, CopyDirection::Unknown, false, false},
    {"cudaMemcpy3DAsync", -1, -1, -1, -1, -1, 1, CopyDirection::Unknown, false, false},
};

std::string calleeNameOfRaw(const CallExpr *call) {
  if (const FunctionDecl *fd = call->getDirectCallee())
    if (fd->getDeclName().isIdentifier())
      return fd->getName().str();
  const Expr *c = call->getCallee() ? call->getCallee()->IgnoreParenImpCasts() : nullptr;
  if (auto *u = dyn_cast_or_null<UnresolvedLookupExpr>(c))
    return u->getName().getAsString();
  if (auto *d = dyn_cast_or_null<DeclRefExpr>(c))
    return d->getNameInfo().getAsString();
  return "";
}

} // namespace

const CopyApi *findCopyApi(const std::string &name) {
  for (const CopyApi &api : kCopies)
    if (name == api.name)
      return &api;
  return nullptr;
}

std::string plainName(std::string n) {
  for (const char *suffix : {"_ptsz", "_ptds"})
    if (n.size() > 5 && n.compare(n.size() - 5, 5, suffix) == 0)
      return n.substr(0, n.size() - 5);
  return n;
}

std::string calleeNameOf(const CallExpr *call) {
  return plainName(calleeNameOfRaw(call));
}

bool isHostFunction(const FunctionDecl *fd) {
  if (fd->hasAttr<CUDAGlobalAttr>())
    return false;
  if (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>())
    return false;
  return true;
}

std::string writtenText(const ASTContext &ctx, const Expr *e) {
  if (!e)
    return "";
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()), sm, ctx.getLangOpts());
  if (r.isValid())
    return Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
  return sourceText(ctx, e->getSourceRange());
}

bool isPrefetchOrAdvise(const std::string &name) {
  return name == "cudaMemPrefetchAsync" || name == "cudaMemAdvise" || name == "cudaMemPrefetchAsync_v2" ||
         name == "cudaMemAdvise_v2" || name == "cuMemPrefetchAsync" || name == "cuMemAdvise";
}

bool prefetchesOrAdvises(const Stmt *s) {
  if (!s)
    return false;
  if (auto *c = dyn_cast<CallExpr>(s); c && isPrefetchOrAdvise(calleeNameOf(c)))
    return true;
  if (auto *r = dyn_cast<RecoveryExpr>(s); r && !r->subExpressions().empty() && r->subExpressions()[0]) {
    const Expr *callee = r->subExpressions()[0]->IgnoreParenImpCasts();
    if (auto *u = dyn_cast<UnresolvedLookupExpr>(callee); u && isPrefetchOrAdvise(plainName(u->getName().getAsString())))
      return true;
    if (auto *d = dyn_cast<DeclRefExpr>(callee); d && isPrefetchOrAdvise(plainName(d->getNameInfo().getAsString())))
      return true;
  }
  for (const Stmt *c : s->children())
    if (prefetchesOrAdvises(c))
      return true;
  return false;
}

bool isLibraryName(const std::string &n) {
  for (const char *p : {"cublas", "cufft", "cusparse", "cusolver", "curand", "cudnn", "npp", "nvjpeg"})
    if (n.rfind(p, 0) == 0)
      return true;
  return false;
}

bool isLaunchApi(const std::string &n) {
  static const char *exact[] = {"cudaLaunchKernel", "cudaLaunchKernelEx", "cudaLaunchCooperativeKernel",
                                "cudaLaunchCooperativeKernelMultiDevice", "cudaGraphLaunch", "cuLaunchKernel",
                                "cuLaunchKernelEx", "cuLaunchCooperativeKernel", "cuGraphLaunch",
                                "cudaLaunchKernelExC"};
  for (const char *e : exact)
    if (n == e)
      return true;
  // Libraries whose calls run kernels on the device (cuBLAS, cuFFT, cuSPARSE, cuSOLVER, cuRAND's
  // generators, cuDNN, NPP, nvJPEG).
  static const char *prefixes[] = {"cublas", "cufftExec", "cusparse", "cusolver", "curandGenerate", "cudnn",
                                   "npp", "nvjpegDecode", "nvjpegEncode"};
  for (const char *p : prefixes)
    if (n.rfind(p, 0) == 0) {
      // Handles, descriptors and settings are host calls (cublasCreate, cusparseSetStream, cudnnGetVersion).
      std::string rest = n.substr(strlen(p));
      if (rest.rfind("_v2", 0) == 0)
        rest = rest.substr(3);
      for (const char *host : {"Create", "Destroy", "Set", "Get"})
        if (rest.rfind(host, 0) == 0)
          return false;
      return true;
    }
  return false;
}

bool inLibraryNamespace(const FunctionDecl *fd) {
  for (const DeclContext *c = fd->getDeclContext(); c; c = c->getParent())
    if (auto *ns = dyn_cast<NamespaceDecl>(c))
      if (ns->getName() == "thrust" || ns->getName() == "cub")
        return true;
  return false;
}

} // namespace warplint
