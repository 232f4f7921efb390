// The loads an index reads, for indexLoadLocations (PrivateArrays.h).
#include "analyzer/facts/PrivateArrays.h"
#include "analyzer/facts/PrivateArrayAnalysis.h"

#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;
using private_arrays::varOf;

namespace {

// Loads reached from an index through locals assigned once.
void gatherLoads(ASTContext &ctx, const Expr *e, std::vector<SourceLocation> &out, int depth) {
  if (!e || depth > 8)
    return;
  e = e->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(e) || (isa<UnaryOperator>(e) && cast<UnaryOperator>(e)->getOpcode() == UO_Deref) ||
      (isa<MemberExpr>(e) && cast<MemberExpr>(e)->isArrow())) {
    out.push_back(toLocation(ctx.getSourceManager(), e->getBeginLoc()));
    return;
  }
  if (auto *call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *fd = call->getDirectCallee();
    if (fd && fd->getNameAsString().rfind("__ldg", 0) == 0 && call->getNumArgs() == 1)
      if (auto *uo = dyn_cast<UnaryOperator>(call->getArg(0)->IgnoreParenImpCasts()); uo && uo->getOpcode() == UO_AddrOf)
        out.push_back(toLocation(ctx.getSourceManager(), uo->getSubExpr()->IgnoreParens()->getBeginLoc()));
  }
  if (auto *v = varOf(e); v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && v->getInit()) {
    gatherLoads(ctx, v->getInit(), out, depth + 1);
    return;
  }
  for (const Stmt *child : e->children())
    if (auto *ce = dyn_cast_or_null<Expr>(child))
      gatherLoads(ctx, ce, out, depth + 1);
}

} // namespace

std::vector<SourceLocation> indexLoadLocations(ASTContext &ctx, const Expr *access) {
  std::vector<SourceLocation> out;
  // The subscripts and pointer offsets of the access, not the access itself.
  for (const Expr *e = access; e;) {
    e = e->IgnoreParenImpCasts();
    if (auto *ase = dyn_cast<ArraySubscriptExpr>(e)) {
      gatherLoads(ctx, ase->getIdx(), out, 0);
      e = ase->getBase();
    } else if (auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) {
      e = uo->getSubExpr();
    } else if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->getType()->isPointerType()) {
      bool lhsPointer = bo->getLHS()->getType()->isPointerType();
      gatherLoads(ctx, lhsPointer ? bo->getRHS() : bo->getLHS(), out, 0);
      e = lhsPointer ? bo->getLHS() : bo->getRHS();
    } else if (auto *me = dyn_cast<MemberExpr>(e); me && !me->isArrow()) {
      e = me->getBase();
    } else {
      e = nullptr;
    }
  }
  return out;
}


} // namespace warplint
