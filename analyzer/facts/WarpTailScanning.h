// Small pieces the three warp-tail scanners share (internal to
// analyzer/facts): WarpTails.cpp (unrolled tails in a kernel, and the step
// parser that also reads a helper's body), WarpHelperTails.cpp (tails in
// __device__ helpers and every call of them) and WarpLoopTrees.cpp (per-warp
// trees written as a loop over a 32-lane tile).
#pragma once

#include "analyzer/facts/WarpHelperTails.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace warplint {
namespace warp_tail_scanning {

using namespace clang;

// The element types __shfl_down_sync carries as they are (int, unsigned,
// long long, unsigned long long, float, double): the rewrites keep them.
inline bool shuffleType(QualType t) {
  const auto *b = t->getAs<BuiltinType>();
  if (!b)
    return false;
  switch (b->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
  case BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

inline bool isThreadIdxX(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (auto *pseudo = dyn_cast<PseudoObjectExpr>(e)) {
    auto *prop = dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens());
    if (!prop)
      return false;
    const Expr *b = prop->getBaseExpr()->IgnoreParenImpCasts();
    if (auto *ove = dyn_cast<OpaqueValueExpr>(b); ove && ove->getSourceExpr())
      b = ove->getSourceExpr()->IgnoreParenImpCasts();
    auto *d = dyn_cast<DeclRefExpr>(b);
    return d && d->getDecl()->getName() == "threadIdx" && prop->getPropertyDecl()->getName() == "x";
  }
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    auto *d = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
    return d && d->getDecl()->getName() == "threadIdx" && m->getMemberDecl()->getName() == "x";
  }
  return false;
}

// Locals written after their declaration (assigned, incremented, address
// taken, bound to a reference), and every name the body declares.
class BodyFacts : public RecursiveASTVisitor<BodyFacts> {
public:
  std::set<const VarDecl *> written;
  std::set<std::string> names;

  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      mark(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf)
      mark(u->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    names.insert(v->getNameAsString());
    if (v->getType()->isReferenceType() && v->getInit())
      mark(v->getInit());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    names.insert(d->getDecl()->getNameAsString());
    return true;
  }

private:
  void mark(const Expr *e) {
    if (auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
        written.insert(v);
  }
};

// Whether a call's argument is threadIdx.x, or a local of the calling
// function set once from it and never written again; each caller's body is
// scanned once.
class ThreadIndexArguments {
public:
  bool isThreadIndex(const Expr *arg, const FunctionDecl *caller) {
    if (isThreadIdxX(arg))
      return true;
    auto *d = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || isa<ParmVarDecl>(v) || !v->hasLocalStorage() || !v->getInit() || !v->getType()->isIntegerType())
      return false;
    auto &facts = callerFacts_[caller];
    if (!facts) {
      facts = std::make_unique<BodyFacts>();
      if (caller->getBody())
        facts->TraverseStmt(caller->getBody());
    }
    return !facts->written.count(v) && isThreadIdxX(v->getInit());
  }

private:
  std::map<const FunctionDecl *, std::unique_ptr<BodyFacts>> callerFacts_;
};

inline bool isDeviceHelper(const FunctionDecl *fd) {
  return fd && fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAGlobalAttr>() && fd->getBody() &&
         !fd->isDependentContext();
}

// A declaration of a system header (the toolkit's, cub's): the scanners
// skip it whole, as they find only the user's code.
inline bool inSystemHeader(const SourceManager &sm, const Decl *d) {
  return d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
         sm.isInSystemHeader(sm.getExpansionLoc(d->getLocation()));
}

// The indentation of the line `loc` is on, as written.
inline std::string lineIndent(const SourceManager &sm, clang::SourceLocation loc) {
  loc = sm.getExpansionLoc(loc);
  auto [fid, off] = sm.getDecomposedLoc(loc);
  bool invalid = false;
  llvm::StringRef buf = sm.getBufferData(fid, &invalid);
  if (invalid || off > buf.size())
    return "";
  size_t start = buf.rfind('\n', off == 0 ? 0 : off - 1);
  start = start == llvm::StringRef::npos ? 0 : start + 1;
  size_t end = start;
  while (end < buf.size() && (buf[end] == ' ' || buf[end] == '\t'))
    ++end;
  return buf.substr(start, end - start).str();
}

// The body of __device__ helper `fd` read as a warp tail (the step parser of
// WarpTails.cpp): false when it holds no step; `h.tail.refusal` says why a
// tail cannot be rewritten.
bool parseHelperTail(ASTContext &ctx, const FunctionDecl *fd, HelperWarpTail &h);

// The per-warp trees written as a loop over a 32-lane tile in the unit's
// files (WarpLoopTrees.cpp).
std::vector<WarpLoopTree> findWarpLoopTrees(ASTContext &ctx);

} // namespace warp_tail_scanning
} // namespace warplint
