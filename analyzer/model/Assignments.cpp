#include "analyzer/model/Assignments.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace warplint {

using namespace clang;

namespace {

bool refersTo(const Expr *e, const VarDecl *v) {
  auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return dre && dre->getDecl() == v;
}

class AssignmentFinder : public RecursiveASTVisitor<AssignmentFinder> {
public:
  AssignmentFinder(const VarDecl *v, std::vector<Assignment> &out) : v_(v), out_(out) {}
  bool VisitDeclStmt(DeclStmt *ds) {
    for (const Decl *d : ds->decls())
      if (d == v_ && v_->getInit())
        out_.push_back({ds, v_->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp() && refersTo(b->getLHS(), v_))
      out_.push_back({b, b->getRHS()});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp() && refersTo(u->getSubExpr(), v_))
      out_.push_back({u, nullptr});
    return true;
  }

private:
  const VarDecl *v_;
  std::vector<Assignment> &out_;
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

} // namespace

std::vector<Assignment> assignmentsOf(const Stmt *body, const VarDecl *v) {
  std::vector<Assignment> out;
  if (body) {
    AssignmentFinder f(v, out);
    f.TraverseStmt(const_cast<Stmt *>(body));
  }
  return out;
}

std::vector<const Expr *> controllingConditions(ASTContext &ctx, const Stmt *node, const Stmt *body,
                                                bool &lanesMayLeave) {
  std::vector<const Expr *> conds;
  lanesMayLeave = false;
  DynTypedNode current = DynTypedNode::create(*node);
  for (int guard = 0; guard < 256; ++guard) {
    auto parents = ctx.getParents(current);
    if (parents.empty())
      break;
    const Stmt *p = parents[0].get<Stmt>();
    const Stmt *child = current.get<Stmt>();
    if (!p) { // a Decl (the DeclStmt's VarDecl, or the function itself)
      if (parents[0].get<FunctionDecl>())
        break;
      current = parents[0];
      continue;
    }
    auto controls = [&](const Stmt *part) { return child && part && contains(part, child); };
    if (auto *is = dyn_cast<IfStmt>(p)) {
      if (controls(is->getThen()) || controls(is->getElse()))
        conds.push_back(is->getCond());
    } else if (auto *fs = dyn_cast<ForStmt>(p)) {
      if (controls(fs->getBody()) || controls(fs->getInc()) || controls(fs->getCond())) {
        if (fs->getCond())
          conds.push_back(fs->getCond());
        lanesMayLeave = lanesMayLeave || hasEarlyExit(fs->getBody());
      }
    } else if (auto *ws = dyn_cast<WhileStmt>(p)) {
      if (controls(ws->getBody()) || controls(ws->getCond())) {
        conds.push_back(ws->getCond());
        lanesMayLeave = lanesMayLeave || hasEarlyExit(ws->getBody());
      }
    } else if (auto *ds = dyn_cast<DoStmt>(p)) {
      conds.push_back(ds->getCond());
      lanesMayLeave = lanesMayLeave || hasEarlyExit(ds->getBody());
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
    current = parents[0];
  }
  return conds;
}

} // namespace warplint
