#include "analyzer/model/UnrolledLoops.h"

#include "clang/AST/Expr.h"

namespace warplint {

using namespace clang;

namespace {

const VarDecl *localOf(const Expr *e) {
  auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
}

// A value that depends only on locals, parameters and built-ins, and writes nothing.
bool pureValue(const Expr *e) {
  LocalWrites w = LocalWrites::collect(e);
  return e && !readsMemoryOrCalls(e) && w.writes.empty() && w.escaped.empty();
}

class Stepper {
public:
  Stepper(ReachingValues &values, ExprTranslator &tr) : values_(values), tr_(tr) {}

  // Applies one run of `s` to the values; false when `s` is not supported.
  bool step(const Stmt *s) {
    if (!s || isa<NullStmt>(s))
      return true;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *c : cs->body())
        if (!step(c))
          return false;
      return true;
    }
    if (auto *is = dyn_cast<IfStmt>(s)) {
      if (is->getInit() || is->getConditionVariable() || !pureValue(is->getCond()))
        return false;
      ExprRef c = tr_.index(is->getCond());
      ExprTranslator::ValueMap before = values_.now();
      if (!step(is->getThen()))
        return false;
      ExprTranslator::ValueMap afterThen = values_.now();
      values_.restore(before);
      if (!step(is->getElse()))
        return false;
      values_.afterIf(c, afterThen, false, false);
      return true;
    }
    if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls()) {
        auto *v = dyn_cast<VarDecl>(d);
        if (!v || (v->getInit() && !pureValue(v->getInit())))
          return false;
        if (values_.tracked(v))
          values_.assign(v, v->getInit() ? tr_.index(v->getInit())
                                         : IndexExpr::unknown("'" + v->getNameAsString() + "' has no initializer"));
      }
      return true;
    }
    if (auto *e = dyn_cast<Expr>(s)) {
      e = e->IgnoreParens();
      if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->isAssignmentOp() && localOf(bo->getLHS())) {
        ReachingValues::PendingWrite w = values_.writeOf(bo);
        if (!w.var || !pureValue(bo->getRHS()))
          return false;
        values_.commit(w);
        return true;
      }
      if (auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->isIncrementDecrementOp() && localOf(uo->getSubExpr())) {
        ReachingValues::PendingWrite w = values_.writeOf(uo);
        if (!w.var)
          return false;
        values_.commit(w);
        return true;
      }
      // A store to memory, a barrier: no local changes.
      LocalWrites w = LocalWrites::collect(e);
      return w.writes.empty() && w.escaped.empty();
    }
    return false; // loops, switch, break, continue, return, goto, asm...
  }

private:
  ReachingValues &values_;
  ExprTranslator &tr_;
};

} // namespace

LocalValues unrolledValues(const ForStmt *loop, const VarDecl *counter, const LoopRecurrence &counterRec,
                           ReachingValues &values) {
  auto trips = constantTripCount(counterRec);
  if (!trips || *trips > kMaxUnrolledTrips || !counter)
    return {};
  ExprTranslator::ValueMap entry = values.now();
  Stepper stepper(values, values.translator());
  Binding none;
  bool stepped = true;
  for (int64_t k = 0; k < *trips && stepped; ++k) {
    auto at = loopValueAt(counterRec, none, k);
    if (!at) {
      stepped = false;
      break;
    }
    values.bindInduction(counter, IndexExpr::constant(*at));
    stepped = stepper.step(loop->getBody());
  }
  LocalValues out;
  if (stepped)
    for (auto &[v, n] : LocalWrites::collect(loop->getBody()).writes)
      if (v != counter && values.tracked(v))
        if (auto it = values.now().find(v); it != values.now().end())
          out.push_back({v, it->second});
  values.restore(std::move(entry));
  return out;
}

} // namespace warplint
