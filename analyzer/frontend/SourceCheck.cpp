#include "analyzer/frontend/SourceCheck.h"

#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;

SourceShape describeMainFile(ASTContext &ctx) {
  SourceShape shape;
  const SourceManager &sm = ctx.getSourceManager();
  if (auto buffer = sm.getBufferDataOrNone(sm.getMainFileID()))
    shape.binary = buffer->find('\0') != llvm::StringRef::npos;
  for (const Decl *d : ctx.getTranslationUnitDecl()->decls())
    if (!d->isImplicit() && !d->isInvalidDecl() && d->getLocation().isValid() &&
        sm.isWrittenInMainFile(sm.getExpansionLoc(d->getLocation())))
      ++shape.declarations;
  return shape;
}

std::string notSourceReason(const SourceShape &shape, size_t errors, bool fatal) {
  if (shape.binary)
    return "not a CUDA or C++ source file: it holds binary data (NUL bytes)";
  if (errors > 0 && !fatal && shape.declarations == 0)
    return "not a CUDA or C++ source file: " + std::to_string(errors) + " compile error" +
           (errors == 1 ? "" : "s") + " and not one declaration parsed";
  return "";
}

} // namespace warplint
