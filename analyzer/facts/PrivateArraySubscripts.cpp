// Private arrays: is a subscript a compile-time constant once the loops with
// constant trip counts are fully unrolled? Classified Constant, Dynamic (with
// the reason a compiler cannot resolve it: a thread index, run-time data, a
// parameter, a local changed in a rolled loop or under a data-dependent
// condition) or Undetermined (the analysis does not know).
#include "analyzer/facts/PrivateArrayAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace warplint::private_arrays {

using namespace clang;

namespace {

// threadIdx.x and friends (a property of clang's CUDA built-in structs).
std::string builtinName(const Expr *e) {
  auto *pseudo = dyn_cast<PseudoObjectExpr>(e);
  if (!pseudo)
    return "";
  auto *prop = dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens());
  if (!prop)
    return "";
  const Expr *base = prop->getBaseExpr()->IgnoreParenImpCasts();
  if (auto *ove = dyn_cast<OpaqueValueExpr>(base); ove && ove->getSourceExpr())
    base = ove->getSourceExpr()->IgnoreParenImpCasts();
  auto *dre = dyn_cast<DeclRefExpr>(base);
  if (!dre)
    return "";
  return dre->getDecl()->getNameAsString() + "." + prop->getPropertyDecl()->getNameAsString();
}

} // namespace

Verdict Analysis::classify(const Expr *e, const Frame &f) {
  if (!e)
    return Verdict::undetermined("a missing expression");
  e = e->IgnoreParens();
  if (e->isValueDependent() || e->isTypeDependent() || e->containsErrors())
    return Verdict::undetermined("a value that depends on a template parameter");
  if (e->isEvaluatable(ctx_))
    return {};
  std::string builtin = builtinName(e);
  if (!builtin.empty())
    return Verdict::dynamic("thread", "'" + builtin + "' is known only at run time");
  if (auto *cast = dyn_cast<CastExpr>(e))
    return classify(cast->getSubExpr(), f);
  if (auto *ewc = dyn_cast<ExprWithCleanups>(e))
    return classify(ewc->getSubExpr(), f);
  if (auto *mte = dyn_cast<MaterializeTemporaryExpr>(e))
    return classify(mte->getSubExpr(), f);
  if (auto *dre = dyn_cast<DeclRefExpr>(e))
    return variable(dre, f);
  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    return join(classify(bo->getLHS(), f), classify(bo->getRHS(), f));
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_Deref)
      return load(e, f);
    if (uo->getOpcode() == UO_AddrOf)
      return Verdict::undetermined("an address");
    return classify(uo->getSubExpr(), f);
  }
  if (auto *co = dyn_cast<AbstractConditionalOperator>(e)) {
    Verdict arms = join(classify(co->getTrueExpr(), f), classify(co->getFalseExpr(), f));
    Verdict cond = classify(co->getCond(), f);
    if (arms.kind == Kind::Constant && cond.kind == Kind::Dynamic) // a select between constant elements
      return Verdict::undetermined("a choice between constant subscripts");
    return join(cond, arms);
  }
  if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e))
    return load(e, f);
  if (auto *call = dyn_cast<CallExpr>(e))
    return callResult(call, f);
  return Verdict::undetermined(std::string("an expression of kind ") + e->getStmtClassName());
}

Verdict Analysis::callResult(const CallExpr *call, const Frame &f) {
  const FunctionDecl *fd = call->getDirectCallee();
  std::string name = fd ? fd->getNameAsString() : "";
  static const std::set<std::string> pure{"min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax",
                                          "abs", "__mul24", "__umul24"};
  auto starts = [&](const char *p) { return name.rfind(p, 0) == 0; };
  if (starts("__ldg") || starts("__ldc") || starts("__ldl") || starts("__shfl") || starts("__ballot") ||
      starts("atomic") || starts("__any") || starts("__all") || starts("__match") || starts("__reduce") ||
      starts("clock") || name == "__activemask")
    return Verdict::dynamic("data", "'" + shortText(ctx_, call) + "' is known only at run time");
  Verdict v;
  for (const Expr *arg : call->arguments())
    if (!arg->getType()->isPointerType())
      v = join(v, classify(arg, f));
  if (v.kind == Kind::Constant && !pure.count(name))
    return Verdict::undetermined("the result of a call to '" + name + "'");
  return v;
}

Verdict Analysis::load(const Expr *e, const Frame &f) {
  const Expr *base = e;
  Verdict idx;
  for (;;) {
    base = base->IgnoreParenImpCasts();
    if (auto *ase = dyn_cast<ArraySubscriptExpr>(base)) {
      idx = join(idx, classify(ase->getIdx(), f));
      base = ase->getBase();
    } else if (auto *me = dyn_cast<MemberExpr>(base); me && !me->isArrow()) {
      base = me->getBase();
    } else {
      break;
    }
  }
  const VarDecl *root = varOf(base);
  std::string text = shortText(ctx_, e);
  if (root && root->hasLocalStorage() && !root->getType()->isPointerType()) {
    if (idx.kind == Kind::Dynamic)
      return idx;
    if (!root->getType()->isArrayType()) // a member of a local struct: what the struct holds
      return variable(root, f);
    if (arrayHoldsData(root, f))
      return Verdict::dynamic("data", "'" + text + "' holds run-time data");
    return Verdict::undetermined("a value read from the private array '" + root->getNameAsString() + "'");
  }
  return Verdict::dynamic("data", "'" + text + "' is loaded from memory");
}

bool Analysis::arrayHoldsData(const VarDecl *v, const Frame &f) {
  auto key = std::make_pair(v, &f);
  if (auto it = holdsData_.find(key); it != holdsData_.end())
    return it->second;
  holdsData_[key] = false; // while deciding: a cycle adds nothing
  bool data = false;
  for (const BinaryOperator *bo : collect<BinaryOperator>(f.fn->getBody())) {
    if (!bo->isAssignmentOp() || data)
      continue;
    const Expr *lhs = bo->getLHS()->IgnoreParenImpCasts();
    while (auto *ase = dyn_cast<ArraySubscriptExpr>(lhs))
      lhs = ase->getBase()->IgnoreParenImpCasts();
    if (varOf(lhs) == v)
      data = classify(bo->getRHS(), f).kind == Kind::Dynamic;
  }
  return holdsData_[key] = data;
}

Verdict Analysis::variable(const DeclRefExpr *dre, const Frame &f) {
  auto *v = dyn_cast<VarDecl>(dre->getDecl());
  if (!v)
    return Verdict::undetermined("'" + dre->getDecl()->getNameAsString() + "' is not a variable");
  // Inside a loop that reuses the variable as its counter, the loop decides
  // its value, whatever other loops or code do with it elsewhere.
  if (v->hasLocalStorage())
    if (const ForStmt *fs = reusedCounterLoop(dre, v, f)) {
      if (inProgress_.count(std::make_pair(v, &f)))
        return {}; // the loop's own bound and step
      return inductionVariable(v, fs, f);
    }
  return variable(v, f);
}

Verdict Analysis::variable(const VarDecl *v, const Frame &f) {
  std::string name = v->getNameAsString();
  if (name == "warpSize")
    return {};
  if (!v->hasLocalStorage()) {
    if (v->getType().isConstQualified() && v->getInit() && v->getInit()->isEvaluatable(ctx_))
      return {};
    return Verdict::dynamic("data", "'" + name + "' is loaded from memory");
  }
  auto key = std::make_pair(v, &f);
  if (inProgress_.count(key))
    return {}; // its own update: the other writes decide
  if (auto it = memo_.find(key); it != memo_.end())
    return it->second;
  inProgress_.insert(key);
  Verdict r = decideVariable(v, f);
  inProgress_.erase(key);
  return memo_[key] = r;
}

Verdict Analysis::decideVariable(const VarDecl *v, const Frame &f) {
  std::string name = v->getNameAsString();
  if (f.writes.escaped.count(v))
    return Verdict::undetermined("'" + name + "' may change through a pointer or reference");
  if (auto *p = dyn_cast<ParmVarDecl>(v)) {
    auto bound = f.args.find(p);
    if (bound != f.args.end() && f.writes.isStable(v))
      return classify(bound->second.first, *bound->second.second);
    if (bound == f.args.end())
      return Verdict::dynamic("parameter", "'" + name + "' is a run-time argument of '" + f.fn->getNameAsString() + "'");
    return join(classify(bound->second.first, *bound->second.second), mutableVariable(v, f));
  }
  if (auto loop = f.inductionLoops.find(v); loop != f.inductionLoops.end())
    return inductionVariable(v, loop->second, f);
  if (v->getType()->isReferenceType())
    return v->getInit() && f.writes.isStable(v) ? classify(v->getInit(), f)
                                                 : Verdict::undetermined("the reference '" + name + "'");
  if (f.writes.isStable(v)) {
    if (!v->getInit())
      return Verdict::undetermined("'" + name + "' has no initializer");
    return classify(v->getInit(), f);
  }
  Verdict r = v->getInit() ? classify(v->getInit(), f) : Verdict{};
  return join(r, mutableVariable(v, f));
}

Verdict Analysis::mutableVariable(const VarDecl *v, const Frame &f) {
  std::string name = v->getNameAsString();
  Verdict r;
  auto writes = [&](const Expr *target) { return varOf(target) == v; };
  std::vector<std::pair<const Expr *, const Expr *>> found; // (write, value or null for ++/--/compound)
  for (const BinaryOperator *bo : collect<BinaryOperator>(f.fn->getBody()))
    if (bo->isAssignmentOp()) {
      const Expr *lhs = bo->getLHS()->IgnoreParenImpCasts();
      if (auto *me = dyn_cast<MemberExpr>(lhs); me && !me->isArrow())
        lhs = me->getBase();
      if (writes(lhs))
        found.push_back({bo, bo->getRHS()});
    }
  for (const UnaryOperator *uo : collect<UnaryOperator>(f.fn->getBody()))
    if (uo->isIncrementDecrementOp() && writes(uo->getSubExpr()))
      found.push_back({uo, nullptr});
  for (auto [write, value] : found) {
    bool accumulates = !value || cast<Expr>(write)->getStmtClass() == Stmt::CompoundAssignOperatorClass;
    Verdict valueVerdict = value ? classify(value, f) : Verdict{};
    if (valueVerdict.kind == Kind::Dynamic)
      return valueVerdict;
    r = join(r, valueVerdict);
    for (const Stmt *child = write, *p = f.parents->getParent(write); p; child = p, p = f.parents->getParent(p)) {
      unsigned line = ctx_.getSourceManager().getExpansionLineNumber(p->getBeginLoc());
      std::string at = " at line " + std::to_string(line);
      if (isLoop(p)) {
        Verdict trips = loopTrips(p, f);
        if (trips.kind == Kind::Dynamic && (accumulates || valueVerdict.kind != Kind::Constant)) {
          std::string kind = isa<WhileStmt>(p) ? "`while` loop" : isa<DoStmt>(p) ? "`do` loop" : "loop";
          Verdict d = Verdict::dynamic(trips.cause == "unroll-pragma" || trips.cause == "long-loop" ? trips.cause
                                                                                                : "while-loop",
                                       "'" + name + "' changes in the " + kind + at + ", " + trips.why, p->getBeginLoc());
          d.rolling = trips.rolling;
          d.otherDynamic = trips.otherDynamic;
          return d;
        }
        if (trips.kind == Kind::Undetermined)
          r = join(r, Verdict::undetermined("'" + name + "' changes in the loop" + at));
        r.loopVars.insert(trips.loopVars.begin(), trips.loopVars.end());
      }
      const Expr *cond = nullptr;
      if (auto *is = dyn_cast<IfStmt>(p); is && child != is->getCond())
        cond = is->getCond();
      else if (auto *co = dyn_cast<ConditionalOperator>(p); co && child != co->getCond())
        cond = co->getCond();
      else if (auto *bo = dyn_cast<BinaryOperator>(p); bo && bo->isLogicalOp() && child == bo->getRHS())
        cond = bo->getLHS();
      else if (auto *ss = dyn_cast<SwitchStmt>(p); ss && child != ss->getCond())
        cond = ss->getCond();
      if (cond) {
        Verdict c = classify(cond, f);
        if (c.kind == Kind::Dynamic)
          return Verdict::dynamic("data-condition", "'" + name + "' is assigned under the condition" + at +
                                                        ", which depends on run-time values (" + c.why + ")",
                                  p->getBeginLoc());
        r = join(r, c);
      }
    }
  }
  return r;
}

} // namespace warplint::private_arrays
