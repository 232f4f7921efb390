#include "analyzer/model/LaunchSites.h"
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/ExprCXX.h"

namespace warplint {

using namespace clang;

namespace {

class ShapeEvaluator {
public:
  ShapeEvaluator(ASTContext &ctx, const FunctionDecl *fn)
      : writes_(LocalWrites::collect(fn ? fn->getBody() : nullptr)), tr_(ctx, fn, writes_) {}

  // An integer that needs no assumption: constant, or computed from locals
  // that are constant.
  std::optional<int64_t> integer(const Expr *e) {
    ExprRef x = tr_.index(e);
    std::vector<Symbol> syms;
    x->collectSymbols(syms);
    if (!x->isKnown() || !syms.empty())
      return std::nullopt;
    return evaluate(*x, Binding{});
  }

  std::optional<BlockShape> dim3(const Expr *e, int depth = 0) {
    if (!e || depth > 16 || e->containsErrors() || e->isValueDependent() || e->isTypeDependent())
      return std::nullopt;
    e = e->IgnoreParenImpCasts();
    if (auto *ewc = dyn_cast<ExprWithCleanups>(e))
      return dim3(ewc->getSubExpr(), depth + 1);
    if (auto *mte = dyn_cast<MaterializeTemporaryExpr>(e))
      return dim3(mte->getSubExpr(), depth + 1);
    if (auto *bte = dyn_cast<CXXBindTemporaryExpr>(e))
      return dim3(bte->getSubExpr(), depth + 1);
    if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(e))
      return dim3(fc->getSubExpr(), depth + 1);
    if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
      if (ce->getConstructor() && ce->getConstructor()->isCopyOrMoveConstructor() && ce->getNumArgs() == 1)
        return dim3(ce->getArg(0), depth + 1);
      int64_t v[3] = {1, 1, 1};
      if (ce->getNumArgs() > 3)
        return std::nullopt;
      for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
        const Expr *arg = ce->getArg(i);
        if (auto *def = dyn_cast<CXXDefaultArgExpr>(arg))
          arg = def->getExpr();
        if (!arg->getType()->isIntegralOrEnumerationType())
          return std::nullopt; // dim3(uint3) and friends
        auto x = integer(arg);
        if (!x)
          return std::nullopt;
        v[i] = *x;
      }
      return BlockShape{v[0], v[1], v[2]};
    }
    if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
      auto *var = dyn_cast<VarDecl>(dre->getDecl());
      if (var && !var->isInvalidDecl() && var->getInit() && !var->getType()->isIntegralOrEnumerationType() &&
          (writes_.isStable(var) || var->getType().isConstQualified()))
        return dim3(var->getInit(), depth + 1);
    }
    if (e->getType()->isIntegralOrEnumerationType())
      if (auto x = integer(e))
        return BlockShape{*x, 1, 1};
    return std::nullopt;
  }

private:
  LocalWrites writes_;
  ExprTranslator tr_;
};

} // namespace

LaunchSite modelLaunch(ASTContext &ctx, const CUDAKernelCallExpr *call, const FunctionDecl *enclosing) {
  LaunchSite site;
  site.loc = toLocation(ctx.getSourceManager(), call->getBeginLoc());
  if (auto *callee = call->getDirectCallee())
    site.kernel = callee->getNameAsString();
  site.argAllocations = launchArgAllocations(ctx, call, enclosing);
  const CallExpr *config = call->getConfig();
  if (!config || config->getNumArgs() < 2)
    return site;
  ShapeEvaluator eval(ctx, enclosing);
  site.gridText = sourceText(ctx, config->getArg(0)->getSourceRange());
  {
    const Expr *grid = config->getArg(0)->IgnoreImplicit();
    if (auto *ce = dyn_cast<CXXConstructExpr>(grid); ce && ce->getNumArgs() >= 1 && !isa<CXXTemporaryObjectExpr>(ce))
      grid = ce->getArg(0)->IgnoreImplicit(); // the implicit dim3(unsigned) around an integer
    site.gridIsInteger = grid->getType()->isIntegralOrEnumerationType();
    site.gridSpan = fileSpan(ctx, CharSourceRange::getTokenRange(grid->getSourceRange()));
  }
  site.blockText = sourceText(ctx, config->getArg(1)->getSourceRange());
  site.grid = eval.dim3(config->getArg(0));
  site.block = eval.dim3(config->getArg(1));
  if (config->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(config->getArg(2)))
    site.sharedBytesText = sourceText(ctx, config->getArg(2)->getSourceRange());
  return site;
}

} // namespace warplint
