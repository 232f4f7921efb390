#include "analyzer/model/Assignments.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/model/LoopExitValues.h"
#include "analyzer/model/UnrolledLoops.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace warplint {

using namespace clang;

namespace {

// Every variable's writes in a body, in traversal order: its initializer,
// `v = e`, `v op= e`, `++v`.
class AssignmentFinder : public RecursiveASTVisitor<AssignmentFinder> {
public:
  explicit AssignmentFinder(llvm::DenseMap<const VarDecl *, std::vector<Assignment>> &all) : all_(all) {}
  bool VisitDeclStmt(DeclStmt *ds) {
    for (const Decl *d : ds->decls())
      if (auto *v = dyn_cast<VarDecl>(d); v && v->getInit())
        all_[v].push_back({ds, v->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      if (auto *v = assigned(b->getLHS()))
        all_[v].push_back({b, b->getRHS()});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp())
      if (auto *v = assigned(u->getSubExpr()))
        all_[v].push_back({u, nullptr});
    return true;
  }

private:
  static const VarDecl *assigned(const Expr *e) {
    auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
  }

  llvm::DenseMap<const VarDecl *, std::vector<Assignment>> &all_;
};

// Whether a loop body lets lanes leave an iteration or the loop early.
class EarlyExitFinder : public RecursiveASTVisitor<EarlyExitFinder> {
public:
  bool found = false;
  bool VisitBreakStmt(BreakStmt *) { return !(found = true); }
  bool VisitContinueStmt(ContinueStmt *) { return !(found = true); }
  bool VisitReturnStmt(ReturnStmt *) { return !(found = true); }
  bool VisitGotoStmt(GotoStmt *) { return !(found = true); }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
};

bool hasEarlyExit(const Stmt *s) {
  EarlyExitFinder f;
  f.TraverseStmt(const_cast<Stmt *>(s));
  return f.found;
}

bool contains(const Stmt *outer, const Stmt *inner) {
  if (!outer)
    return false;
  if (outer == inner)
    return true;
  for (const Stmt *c : outer->children())
    if (contains(c, inner))
      return true;
  return false;
}

const VarDecl *assignedVar(const Expr *lhs) {
  auto *dre = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
  return dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
}

constexpr int kMaxValueNodes = 160;
int exprSize(const IndexExpr &e, int acc) {
  if (acc > kMaxValueNodes)
    return acc;
  ++acc;
  if (e.op == ExprOp::LoopVar)
    return acc;
  for (auto &o : e.operands)
    acc = exprSize(*o, acc);
  return acc;
}

} // namespace

std::shared_ptr<AssignmentIndex> indexAssignments(const Stmt *body) {
  auto index = std::make_shared<AssignmentIndex>();
  index->body = body;
  if (body) {
    AssignmentFinder f(index->byVar);
    f.TraverseStmt(const_cast<Stmt *>(body));
  }
  return index;
}

const std::vector<Assignment> &AssignmentIndex::of(const VarDecl *v) const {
  static const std::vector<Assignment> none;
  auto it = byVar.find(v);
  return it == byVar.end() ? none : it->second;
}

std::vector<const Expr *> controllingConditions(ASTContext &ctx, const Stmt *node, const Stmt *body,
                                                bool &lanesMayLeave, AssignmentIndex *kept,
                                                const ParentMap *bodyParents) {
  auto earlyExit = [&](const Stmt *loopBody) {
    if (!kept)
      return hasEarlyExit(loopBody);
    auto [it, fresh] = kept->earlyExits.try_emplace(loopBody, false);
    if (fresh)
      it->second = hasEarlyExit(loopBody);
    return it->second;
  };
  std::vector<const Expr *> conds;
  lanesMayLeave = false;
  // The parent of `current` as the unit's map gives it: a statement; a
  // declaration to step through (a VarDecl between its DeclStmt and its
  // initializer: `child` is then null, as here when the parent is the
  // DeclStmt); or the end (the function; a lambda's body, whose parent is
  // its call operator).
  DynTypedNode current = DynTypedNode::create(*node);
  for (int guard = 0; guard < 256; ++guard) {
    const Stmt *p = nullptr, *child = current.get<Stmt>();
    DynTypedNode next;
    if (bodyParents) {
      p = child ? BodyParents::parentWithinFunction(*bodyParents, child) : nullptr;
      if (!p)
        break;
      if (isa<DeclStmt>(p))
        child = nullptr;
      next = DynTypedNode::create(*p);
    } else {
      auto parents = ctx.getParents(current);
      if (parents.empty())
        break;
      p = parents[0].get<Stmt>();
      if (!p) { // a Decl (the DeclStmt's VarDecl, or the function itself)
        if (parents[0].get<FunctionDecl>())
          break;
        current = parents[0];
        continue;
      }
      next = parents[0];
    }
    // A direct child of p lies in no other part of p (the AST is a tree):
    // the parts are compared, not walked (a walk of each sibling part per
    // level was most of this function's time on a long kernel; issue 19).
    bool direct = child && std::find(p->child_begin(), p->child_end(), child) != p->child_end();
    auto controls = [&](const Stmt *part) {
      return child && part && (part == child || (!direct && contains(part, child)));
    };
    if (auto *is = dyn_cast<IfStmt>(p)) {
      if (controls(is->getThen()) || controls(is->getElse()))
        conds.push_back(is->getCond());
    } else if (auto *fs = dyn_cast<ForStmt>(p)) {
      if (controls(fs->getBody()) || controls(fs->getInc()) || controls(fs->getCond())) {
        if (fs->getCond())
          conds.push_back(fs->getCond());
        lanesMayLeave = lanesMayLeave || earlyExit(fs->getBody());
      }
    } else if (auto *ws = dyn_cast<WhileStmt>(p)) {
      if (controls(ws->getBody()) || controls(ws->getCond())) {
        conds.push_back(ws->getCond());
        lanesMayLeave = lanesMayLeave || earlyExit(ws->getBody());
      }
    } else if (auto *ds = dyn_cast<DoStmt>(p)) {
      conds.push_back(ds->getCond());
      lanesMayLeave = lanesMayLeave || earlyExit(ds->getBody());
    } else if (auto *ss = dyn_cast<SwitchStmt>(p)) {
      if (controls(ss->getBody()))
        conds.push_back(ss->getCond());
    } else if (auto *co = dyn_cast<ConditionalOperator>(p)) {
      if (controls(co->getTrueExpr()) || controls(co->getFalseExpr()))
        conds.push_back(co->getCond());
    } else if (auto *bo = dyn_cast<BinaryOperator>(p); bo && bo->isLogicalOp()) {
      if (controls(bo->getRHS()))
        conds.push_back(bo->getLHS());
    } else if (isa<CXXForRangeStmt>(p) || isa<LabelStmt>(p)) {
      lanesMayLeave = true;
    }
    if (p == body)
      break;
    current = next;
  }
  return conds;
}

bool ReachingValues::tracked(const VarDecl *v) const {
  if (!v || !(v->hasLocalStorage() || isa<ParmVarDecl>(v)) || writes_.writes.lookup(v) == 0)
    return false;
  // Passed by reference to calls only: each call's effect is followed (OutParameters.h).
  if (writes_.escaped.count(v) && !writes_.onlyOutArgument(v))
    return false;
  if (v->getType()->isReferenceType()) // a parameter following the caller's local
    return tr_.followsReference(v);
  // A pointer moved by `p += e`, `p++`, `p = p + e` is followed as its offset,
  // in elements, from where it started (the parameter's entry value, the
  // local's initializer): `d_Src += baseY * pitch + baseX;` at a kernel's top.
  if (v->getType()->isPointerType())
    return !writes_.escaped.count(v);
  return v->getType()->isIntegralOrEnumerationType();
}

// The offset a pointer's write leaves it at: `p += e`, `p -= e`, `p = p + e`,
// `p = e + p`, `p = p - e`; anything else (`p = q`) is not followed.
static ExprRef pointerOffsetAfter(ExprTranslator &tr, const VarDecl *v, const BinaryOperator *bo) {
  ExprRef now = tr.boundValues().lookup(v);
  if (!now)
    return IndexExpr::unknown("pointer '" + v->getNameAsString() + "' has no followed start");
  auto isVar = [&](const Expr *e) {
    auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return dre && dre->getDecl() == v;
  };
  BinaryOperatorKind k = bo->getOpcode();
  const Expr *step = bo->getRHS();
  if (k == BO_Assign) {
    auto *rhs = dyn_cast<BinaryOperator>(bo->getRHS()->IgnoreParenImpCasts());
    if (!rhs || (rhs->getOpcode() != BO_Add && rhs->getOpcode() != BO_Sub))
      return IndexExpr::unknown("pointer '" + v->getNameAsString() + "' is assigned another pointer");
    k = rhs->getOpcode();
    if (isVar(rhs->getLHS()))
      step = rhs->getRHS();
    else if (k == BO_Add && isVar(rhs->getRHS()))
      step = rhs->getLHS();
    else
      return IndexExpr::unknown("pointer '" + v->getNameAsString() + "' is assigned another pointer");
  } else if (k == BO_AddAssign) {
    k = BO_Add;
  } else if (k == BO_SubAssign) {
    k = BO_Sub;
  } else {
    return IndexExpr::unknown("pointer '" + v->getNameAsString() + "' is updated by an unsupported operator");
  }
  if (!step->getType()->isIntegralOrEnumerationType())
    return IndexExpr::unknown("pointer '" + v->getNameAsString() + "' is moved by a non-integer");
  return IndexExpr::make(k == BO_Add ? ExprOp::Add : ExprOp::Sub, {now, tr.index(step)});
}

void ReachingValues::bindParameters(const FunctionDecl *fn) {
  for (const ParmVarDecl *p : fn->parameters())
    if (tracked(p))
      tr_.bindLoopVar(p, p->getType()->isPointerType() ? IndexExpr::constant(0) : tr_.entryValue(p));
}

void ReachingValues::assign(const VarDecl *v, ExprRef value) {
  if (conditionalDepth_ > 0 || exprSize(*value, 0) > kMaxValueNodes)
    value = tr_.opaqueLocal(v, "is assigned on some paths only");
  tr_.bindLoopVar(v, std::move(value));
}

ReachingValues::PendingWrite ReachingValues::writeOf(const BinaryOperator *bo) {
  const VarDecl *v = assignedVar(bo->getLHS());
  if (!tracked(v))
    return {};
  if (v->getType()->isPointerType())
    return {v, pointerOffsetAfter(tr_, v, bo)};
  if (bo->getOpcode() == BO_Assign)
    return {v, tr_.index(bo->getRHS())};
  if (auto op = ExprTranslator::compoundOp(bo->getOpcode()))
    return {v, IndexExpr::make(*op, {tr_.index(bo->getLHS()), tr_.index(bo->getRHS())})};
  return {v, IndexExpr::unknown("'" + v->getNameAsString() + "' is updated by an unsupported operator")};
}

ReachingValues::PendingWrite ReachingValues::writeOf(const UnaryOperator *uo) {
  const VarDecl *v = assignedVar(uo->getSubExpr());
  if (!tracked(v))
    return {};
  ExprRef now = v->getType()->isPointerType() ? tr_.boundValues().lookup(v) : tr_.index(uo->getSubExpr());
  if (!now)
    return {v, IndexExpr::unknown("pointer '" + v->getNameAsString() + "' has no followed start")};
  return {v, IndexExpr::make(uo->isIncrementOp() ? ExprOp::Add : ExprOp::Sub, {now, IndexExpr::constant(1)})};
}

void ReachingValues::afterIf(const ExprRef &cond, const ExprTranslator::ValueMap &afterThen, bool thenExits,
                             bool elseExits) {
  if (thenExits && !elseExits)
    return; // the else (or nothing) falls through: values as they are
  if (elseExits && !thenExits) {
    tr_.setBoundValues(afterThen);
    return;
  }
  join(cond, afterThen, tr_.boundValues());
}

void ReachingValues::join(const ExprRef &cond, const ExprTranslator::ValueMap &thenValues,
                          const ExprTranslator::ValueMap &elseValues) {
  ExprTranslator::ValueMap out;
  for (auto &[v, elseValue] : elseValues) {
    auto it = thenValues.find(v);
    if (it == thenValues.end())
      continue; // declared inside a branch
    if (it->second == elseValue) {
      out[v] = elseValue;
      continue;
    }
    ExprRef joined = IndexExpr::make(ExprOp::Select, {cond, it->second, elseValue});
    if (!joined->isKnown() || exprSize(*joined, 0) > kMaxValueNodes)
      joined = tr_.opaqueLocal(v, "is assigned differently on different paths");
    out[v] = joined;
  }
  tr_.setBoundValues(std::move(out));
}

void ReachingValues::forgetWrittenIn(const Stmt *s, const std::string &why) {
  LocalWrites w = LocalWrites::collect(s);
  for (auto &[v, n] : w.writes)
    if (tracked(v) && tr_.boundValues().count(v))
      tr_.bindLoopVar(v, tr_.opaqueLocal(v, why));
}

ExprRef ReachingValues::valueNow(const VarDecl *v) {
  auto it = tr_.boundValues().find(v);
  if (it != tr_.boundValues().end())
    return it->second;
  if (v->getInit() && writes_.isStable(v))
    return tr_.index(v->getInit());
  return nullptr;
}

std::vector<CarriedVariable> ReachingValues::enterLoopBody(const Stmt *loop, const Stmt *body, int loopId,
                                                           ExprRef cond, const VarDecl *induction) {
  LocalWrites loopWrites = LocalWrites::collect(loop);
  entryValues_[loop] = now();
  std::vector<CarriedVariable> carried = carriedVariables(body, loopId, cond, tr_, writes_, loopWrites,
                                                          [&](const VarDecl *v) -> ExprRef {
                                                            if (v == induction || !tracked(v))
                                                              return nullptr;
                                                            ExprRef now = valueNow(v);
                                                            return now && now->isKnown() ? now : nullptr;
                                                          });
  std::vector<const VarDecl *> others;
  for (auto &[v, n] : loopWrites.writes)
    if (v != induction && tracked(v) &&
        std::none_of(carried.begin(), carried.end(), [&](auto &cv) { return cv.var == v; }))
      others.push_back(v);
  auto changes = [&](const VarDecl *v) { return changesIn(loopWrites, v); };
  LocalValues &restored = restored_[loop];
  restored = restoredEachIteration(loop, others, tr_, [&](const VarDecl *v) { return valueNow(v); }, changes);
  for (auto &[v, n] : loopWrites.writes) {
    if (v == induction || !tracked(v))
      continue;
    auto c = std::find_if(carried.begin(), carried.end(), [&](auto &cv) { return cv.var == v; });
    auto r = std::find_if(restored.begin(), restored.end(), [&](auto &rv) { return rv.first == v; });
    tr_.bindLoopVar(v, c != carried.end()   ? c->before
                       : r != restored.end() ? r->second
                                             : tr_.opaqueLocal(v, "changes inside a loop"));
    if (c != carried.end())
      rebindAfter_[c->update] = {c->var, c->after};
  }
  return carried;
}

void ReachingValues::afterStatement(const Stmt *s) {
  if (auto it = rebindAfter_.find(s); it != rebindAfter_.end())
    tr_.bindLoopVar(it->second.first, it->second.second);
}

void ReachingValues::leaveLoop(const Stmt *loop, const std::vector<CarriedVariable> &carried, const VarDecl *counter,
                               const LoopRecurrence *counterRec) {
  for (auto &c : carried)
    rebindAfter_.erase(c.update);
  forgetWrittenIn(loop, "holds the value a loop left");
  LocalWrites loopWrites = LocalWrites::collect(loop);
  auto changes = [&](const VarDecl *v) { return changesIn(loopWrites, v); };
  LocalValues exits = valuesAfterLoop(loop, counter, counterRec, carried, changes);
  auto *fs = dyn_cast<ForStmt>(loop);
  if (fs && counter && counterRec) { // a few iterations stepped through from the entry's values
    ExprTranslator::ValueMap leaving = now();
    restore(entryValues_[loop]);
    LocalValues unrolled = unrolledValues(fs, counter, *counterRec, *this);
    restore(std::move(leaving));
    exits.insert(exits.end(), unrolled.begin(), unrolled.end());
  }
  // Lanes that leave only through the condition, at the start of an
  // iteration, hold there what the body set back.
  if (!leavesEarly(loopBody(loop)))
    exits.insert(exits.end(), restored_[loop].begin(), restored_[loop].end());
  restored_.erase(loop);
  entryValues_.erase(loop);
  // The first value found for a local wins: closed forms before stepped ones.
  llvm::DenseSet<const VarDecl *> bound;
  for (auto &[v, value] : exits)
    if (tracked(v) && bound.insert(v).second)
      assign(v, value);
}

} // namespace warplint
