#include "analyzer/model/LoopRecurrences.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;

bool continuesLoop(const Stmt *s) {
  if (!s || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s))
    return false; // a nested loop's `continue` is its own
  if (isa<ContinueStmt>(s))
    return true;
  for (const Stmt *c : s->children())
    if (continuesLoop(c))
      return true;
  return false;
}

bool readsChanging(const Stmt *e, const std::function<bool(const VarDecl *)> &changes) {
  if (!e)
    return false;
  if (auto *dre = dyn_cast<DeclRefExpr>(e))
    if (auto *v = dyn_cast<VarDecl>(dre->getDecl()); v && changes(v))
      return true;
  for (const Stmt *c : e->children())
    if (readsChanging(c, changes))
      return true;
  return false;
}

bool parseLoopStep(const Expr *update, const VarDecl *var, ExprTranslator &tr, LoopRecurrence &rec,
                   const std::function<bool(const VarDecl *)> &changes) {
  if (!update)
    return false;
  update = update->IgnoreParens();
  auto isVar = [&](const Expr *e) {
    auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return dre && dre->getDecl() == var;
  };
  if (auto *uo = dyn_cast<UnaryOperator>(update)) {
    if (!uo->isIncrementDecrementOp() || !isVar(uo->getSubExpr()))
      return false;
    rec.stepOp = uo->isIncrementOp() ? ExprOp::Add : ExprOp::Sub;
    rec.step = IndexExpr::constant(1);
    return true;
  }
  auto *bo = dyn_cast<BinaryOperator>(update);
  if (!bo || !isVar(bo->getLHS()))
    return false;
  const Expr *stepExpr = bo->getRHS();
  BinaryOperatorKind k = bo->getOpcode();
  if (k == BO_Assign) { // v = v op step, or v = step op v for + and *
    auto *rhs = dyn_cast<BinaryOperator>(bo->getRHS()->IgnoreParenImpCasts());
    if (!rhs)
      return false;
    k = rhs->getOpcode();
    bool commutes = k == BO_Add || k == BO_Mul;
    if (isVar(rhs->getLHS()))
      stepExpr = rhs->getRHS();
    else if (commutes && isVar(rhs->getRHS()))
      stepExpr = rhs->getLHS();
    else
      return false;
  } else if (bo->isCompoundAssignmentOp()) {
    k = BinaryOperator::getOpForCompoundAssignment(k);
  } else {
    return false;
  }
  switch (k) {
  case BO_Add: rec.stepOp = ExprOp::Add; break;
  case BO_Sub: rec.stepOp = ExprOp::Sub; break;
  case BO_Mul: rec.stepOp = ExprOp::Mul; break;
  case BO_Div: rec.stepOp = ExprOp::Div; break;
  case BO_Shl: rec.stepOp = ExprOp::Shl; break;
  case BO_Shr: rec.stepOp = ExprOp::Shr; break;
  default: return false;
  }
  if (readsChanging(stepExpr, [&](const VarDecl *v) { return v == var || changes(v); }))
    return false;
  rec.step = tr.index(stepExpr);
  return true;
}

std::optional<int64_t> constantTripCount(const LoopRecurrence &rec) {
  std::vector<Symbol> syms;
  rec.init->collectSymbols(syms);
  rec.step->collectSymbols(syms);
  if (rec.cond)
    rec.cond->collectSymbols(syms);
  if (!syms.empty() || !rec.cond || !rec.init->isKnown())
    return std::nullopt;
  Binding b;
  for (int64_t k = 0; k <= 4096; ++k) {
    b.loopIter[rec.loopId] = k;
    auto c = evaluate(*rec.cond, b);
    if (!c)
      return std::nullopt;
    if (!*c)
      return k;
  }
  return std::nullopt;
}

std::vector<CarriedVariable> carriedVariables(const Stmt *loopBody, int loopId, ExprRef cond, ExprTranslator &tr,
                                              const LocalWrites &allWrites, const LocalWrites &loopWrites,
                                              const std::function<ExprRef(const VarDecl *)> &valueBefore) {
  std::vector<CarriedVariable> out;
  auto *body = dyn_cast_or_null<CompoundStmt>(loopBody);
  if (!body)
    return out;
  bool skippable = false; // a `continue` before the update skips it in some iterations
  for (const Stmt *s : body->body()) {
    auto *e = dyn_cast<Expr>(s);
    if (!e || skippable) {
      skippable = skippable || continuesLoop(s);
      continue;
    }
    const Expr *lhs = nullptr;
    if (auto *bo = dyn_cast<BinaryOperator>(e->IgnoreParens()); bo && bo->isAssignmentOp())
      lhs = bo->getLHS();
    else if (auto *uo = dyn_cast<UnaryOperator>(e->IgnoreParens()); uo && uo->isIncrementDecrementOp())
      lhs = uo->getSubExpr();
    auto *dre = lhs ? dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts()) : nullptr;
    auto *var = dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
    // A pointer walked by `p++` / `p += k` is carried as its offset (ReachingValues).
    if (!var || !var->hasLocalStorage() ||
        !(var->getType()->isIntegralOrEnumerationType() || var->getType()->isPointerType()) ||
        allWrites.escaped.count(var) || loopWrites.writes.lookup(var) != 1)
      continue;
    ExprRef init = valueBefore(var);
    if (!init)
      continue;
    LoopRecurrence rec;
    rec.loopId = loopId;
    rec.var = var->getNameAsString();
    rec.cond = cond; // the iterations are the loop's
    if (!parseLoopStep(e, var, tr, rec, [&](const VarDecl *w) { return loopWrites.writes.lookup(w) > 0; }))
      continue;
    rec.init = init;
    auto before = std::make_shared<LoopRecurrence>(rec);
    auto after = std::make_shared<LoopRecurrence>(rec);
    after->init = IndexExpr::make(rec.stepOp, {rec.init, rec.step});
    out.push_back({var, s, IndexExpr::loopVar(before), IndexExpr::loopVar(after), before, after});
  }
  return out;
}

} // namespace warplint
