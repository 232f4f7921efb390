#include "analyzer/model/LoopExitValues.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace warplint {

using namespace clang;

namespace {

bool mentionsLoop(const IndexExpr &e, int loopId) {
  if (e.op == ExprOp::LoopVar)
    return e.loop->loopId == loopId || mentionsLoop(*e.loop->init, loopId) || mentionsLoop(*e.loop->step, loopId);
  for (auto &o : e.operands)
    if (mentionsLoop(*o, loopId))
      return true;
  return false;
}

} // namespace

bool readsMemoryOrCalls(const Stmt *s) {
  if (!s)
    return false;
  if (auto *po = dyn_cast<PseudoObjectExpr>(s)) // threadIdx.x: a property, not a call
    return readsMemoryOrCalls(po->getSyntacticForm());
  if (isa<CallExpr>(s) || isa<ArraySubscriptExpr>(s) || isa<CXXConstructExpr>(s))
    return true;
  if (auto *uo = dyn_cast<UnaryOperator>(s); uo && uo->getOpcode() == UO_Deref)
    return true;
  if (auto *me = dyn_cast<MemberExpr>(s); me && me->isArrow())
    return true;
  if (auto *dre = dyn_cast<DeclRefExpr>(s))
    if (auto *v = dyn_cast<VarDecl>(dre->getDecl());
        v && !v->hasLocalStorage() && !isa<ParmVarDecl>(v) && !v->getType().isConstQualified())
      return true;
  for (const Stmt *c : s->children())
    if (readsMemoryOrCalls(c))
      return true;
  return false;
}

namespace {

// An expression whose value is the same in every iteration: it reads no
// local the loop changes (`changes`, `except` aside), no memory, calls nothing.
bool invariant(const Expr *e, const VarDecl *except, const std::function<bool(const VarDecl *)> &changes) {
  return e && !readsMemoryOrCalls(e) &&
         !readsChanging(e, [&](const VarDecl *v) { return v != except && changes(v); });
}

bool hasGotoOrLabel(const Stmt *s) {
  if (!s)
    return false;
  if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) || isa<LabelStmt>(s))
    return true;
  for (const Stmt *c : s->children())
    if (hasGotoOrLabel(c))
      return true;
  return false;
}

// A `break` that leaves the loop `s` is in (not a nested loop's or switch's).
bool breaksLoop(const Stmt *s) {
  if (!s || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) || isa<SwitchStmt>(s))
    return false;
  if (isa<BreakStmt>(s))
    return true;
  for (const Stmt *c : s->children())
    if (breaksLoop(c))
      return true;
  return false;
}

ExprOp mirrored(ExprOp op) {
  switch (op) {
  case ExprOp::Lt: return ExprOp::Gt;
  case ExprOp::Le: return ExprOp::Ge;
  case ExprOp::Gt: return ExprOp::Lt;
  case ExprOp::Ge: return ExprOp::Le;
  default: return op;
  }
}

void loopParts(const Stmt *loop, const Expr *&cond, const Stmt *&body, const Stmt *&inc) {
  cond = nullptr, body = nullptr, inc = nullptr;
  if (auto *fs = dyn_cast<ForStmt>(loop))
    cond = fs->getCond(), body = fs->getBody(), inc = fs->getInc();
  else if (auto *ws = dyn_cast<WhileStmt>(loop))
    cond = ws->getCond(), body = ws->getBody();
  else if (auto *ds = dyn_cast<DoStmt>(loop))
    cond = ds->getCond(), body = ds->getBody();
}

} // namespace

const Stmt *loopBody(const Stmt *loop) {
  const Expr *cond;
  const Stmt *body, *inc;
  loopParts(loop, cond, body, inc);
  return body;
}

bool leavesEarly(const Stmt *body) {
  if (!body || hasGotoOrLabel(body))
    return true;
  if (auto *cs = dyn_cast_or_null<CompoundStmt>(body)) {
    for (const Stmt *s : cs->body())
      if (breaksLoop(s))
        return true;
    return false;
  }
  return breaksLoop(body);
}

ExprRef tripCount(const LoopRecurrence &rec) {
  if (auto n = constantTripCount(rec))
    return IndexExpr::constant(*n);
  if (!rec.cond || !rec.init || !rec.step || !rec.init->isKnown() || rec.step->op != ExprOp::Const ||
      rec.step->value <= 0 || rec.cond->operands.size() != 2)
    return nullptr;
  auto isCounter = [&](const ExprRef &e) { return e->op == ExprOp::LoopVar && e->loop.get() == &rec; };
  ExprOp op = rec.cond->op;
  ExprRef bound;
  if (isCounter(rec.cond->operands[0]))
    bound = rec.cond->operands[1];
  else if (isCounter(rec.cond->operands[1]))
    bound = rec.cond->operands[0], op = mirrored(op); // `n > k` is `k < n`
  if (!bound || !bound->isKnown() || mentionsLoop(*bound, rec.loopId))
    return nullptr;
  // How far the counter may move before the condition fails.
  ExprRef distance;
  if (rec.stepOp == ExprOp::Add && (op == ExprOp::Lt || op == ExprOp::Le))
    distance = IndexExpr::make(ExprOp::Sub, {bound, rec.init});
  else if (rec.stepOp == ExprOp::Sub && (op == ExprOp::Gt || op == ExprOp::Ge))
    distance = IndexExpr::make(ExprOp::Sub, {rec.init, bound});
  else
    return nullptr;
  if (op == ExprOp::Le || op == ExprOp::Ge)
    distance = IndexExpr::add(distance, IndexExpr::constant(1));
  // ceil(distance / step), none when distance <= 0 (C division truncates
  // toward zero, so a negative distance gives at most 0 before the max).
  int64_t s = rec.step->value;
  ExprRef trips = IndexExpr::make(ExprOp::Div, {IndexExpr::add(distance, IndexExpr::constant(s - 1)), rec.step});
  return IndexExpr::make(ExprOp::Max, {IndexExpr::constant(0), trips});
}

ExprRef valueAfter(const LoopRecurrence &rec, const ExprRef &trips) {
  if (!trips || !rec.init->isKnown() || !rec.step->isKnown())
    return nullptr;
  if (rec.stepOp == ExprOp::Add || rec.stepOp == ExprOp::Sub)
    return IndexExpr::make(rec.stepOp, {rec.init, IndexExpr::mul(trips, rec.step)});
  constexpr int64_t kMaxUnrolled = 64;
  if (trips->op != ExprOp::Const || trips->value < 0 || trips->value > kMaxUnrolled)
    return nullptr;
  ExprRef v = rec.init;
  for (int64_t k = 0; k < trips->value; ++k)
    v = IndexExpr::make(rec.stepOp, {v, rec.step});
  return v;
}

bool sameValue(const IndexExpr &a, const IndexExpr &b) {
  if (&a == &b)
    return true;
  if (a.op != b.op || a.operands.size() != b.operands.size())
    return false;
  switch (a.op) {
  case ExprOp::Const: return a.value == b.value;
  case ExprOp::Sym: return a.sym == b.sym;
  case ExprOp::Unknown: return false;
  case ExprOp::LoopVar: return a.loop == b.loop;
  default: break;
  }
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!sameValue(*a.operands[i], *b.operands[i]))
      return false;
  return true;
}

LocalValues valuesAfterLoop(const Stmt *loop, const VarDecl *counter, const LoopRecurrence *counterRec,
                            const std::vector<CarriedVariable> &carried,
                            const std::function<bool(const VarDecl *)> &changes) {
  const Expr *cond;
  const Stmt *body, *inc;
  loopParts(loop, cond, body, inc);
  if (isa<DoStmt>(loop) || !cond || !body || leavesEarly(body))
    return {};
  ExprRef trips;
  if (counterRec) {
    trips = tripCount(*counterRec);
  } else { // a `while`: the carried local its condition compares
    for (const CarriedVariable &c : carried)
      if ((trips = tripCount(*c.beforeRec))) {
        counter = c.var;
        counterRec = c.beforeRec.get();
        break;
      }
  }
  if (!trips || !invariant(cond, counter, changes))
    return {};
  LocalValues out;
  if (counter && !std::any_of(carried.begin(), carried.end(), [&](auto &c) { return c.var == counter; }))
    if (ExprRef v = valueAfter(*counterRec, trips))
      out.push_back({counter, v});
  for (const CarriedVariable &c : carried)
    if (ExprRef v = valueAfter(*c.beforeRec, trips))
      out.push_back({c.var, v});
  return out;
}

LocalValues restoredEachIteration(const Stmt *loop, const std::vector<const VarDecl *> &candidates,
                                  ExprTranslator &tr, const std::function<ExprRef(const VarDecl *)> &valueBefore,
                                  const std::function<bool(const VarDecl *)> &changes) {
  const Expr *cond;
  const Stmt *body, *inc;
  loopParts(loop, cond, body, inc);
  auto *cs = dyn_cast_or_null<CompoundStmt>(body);
  if (!cs || hasGotoOrLabel(cs))
    return {};
  LocalWrites outside = LocalWrites::collect(cond);
  LocalWrites inInc = LocalWrites::collect(inc);
  LocalValues out;
  for (const VarDecl *v : candidates) {
    ExprRef before = valueBefore(v);
    if (!before || !before->isKnown() || outside.writes.lookup(v) || inInc.writes.lookup(v))
      continue;
    // The body's last statement that writes v, and whether a `continue`
    // before it may skip it.
    const Stmt *last = nullptr;
    bool skippable = false, continued = false;
    for (const Stmt *s : cs->body()) {
      LocalWrites w = LocalWrites::collect(s);
      if (w.writes.lookup(v) || w.escaped.count(v)) {
        last = s;
        skippable = continued;
      }
      continued = continued || continuesLoop(s);
    }
    auto *reset = dyn_cast_or_null<BinaryOperator>(last);
    if (!reset || skippable || reset->getOpcode() != BO_Assign)
      continue;
    auto *lhs = dyn_cast<DeclRefExpr>(reset->getLHS()->IgnoreParenImpCasts());
    if (!lhs || lhs->getDecl() != v || !invariant(reset->getRHS(), nullptr, changes))
      continue;
    if (sameValue(*tr.index(reset->getRHS()), *before))
      out.push_back({v, before});
  }
  return out;
}

} // namespace warplint
