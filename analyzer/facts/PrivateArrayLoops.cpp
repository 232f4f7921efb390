// Private arrays: which loops the compiler unrolls fully. A recognized `for`
// loop's counter is a constant in each unrolled copy when its start, bound
// and step are and no `#pragma unroll N` keeps the loop (partly) rolled; a
// long loop without a pragma may stay rolled, and a `while` loop over
// run-time values always does.
#include "analyzer/facts/PrivateArrayAnalysis.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace warplint::private_arrays {

using namespace clang;

namespace {

// A constant-trip loop without `#pragma unroll`: nvcc 13.0 (sm_90, ptxas -v)
// unrolled one that fills and one that reads a float array fully up to 256
// iterations (no stack frame beyond spills) and kept both rolled at 384 and
// 512 (the whole array in the stack frame). A larger body unrolls less, so
// from 384 iterations the loop is rolled; between the two, no verdict.
constexpr int64_t kAutoUnrollTrips = 256;
constexpr int64_t kRolledTrips = 384;

} // namespace

const VarDecl *Analysis::inductionVar(const Frame &f, const ForStmt *fs) {
  const VarDecl *v = nullptr;
  int initWrites = 0;
  if (auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit())) {
    if (ds->isSingleDecl())
      v = dyn_cast<VarDecl>(ds->getSingleDecl());
  } else if (auto *bo = dyn_cast_or_null<BinaryOperator>(fs->getInit()); bo && bo->getOpcode() == BO_Assign) {
    v = varOf(bo->getLHS());
    initWrites = 1;
  }
  if (!v || !v->getType()->isIntegralOrEnumerationType() || f.writes.escaped.count(v) ||
      f.writes.writes.lookup(v) != initWrites + 1 || !fs->getInc())
    return nullptr;
  return v;
}

const VarDecl *Analysis::reusedCounter(const Frame &f, const ForStmt *fs) {
  auto key = std::make_pair(fs, &f);
  if (auto it = reusedCounters_.find(key); it != reusedCounters_.end())
    return it->second;
  const VarDecl *v = nullptr;
  auto *init = dyn_cast_or_null<BinaryOperator>(fs->getInit());
  const Expr *inc = fs->getInc() ? fs->getInc()->IgnoreParenImpCasts() : nullptr;
  if (init && init->getOpcode() == BO_Assign && inc)
    v = varOf(init->getLHS());
  if (v && (!v->getType()->isIntegralOrEnumerationType() || f.writes.escaped.count(v)))
    v = nullptr;
  if (v) {
    const Expr *stepped = nullptr;
    if (auto *uo = dyn_cast<UnaryOperator>(inc); uo && uo->isIncrementDecrementOp())
      stepped = uo->getSubExpr();
    else if (auto *ca = dyn_cast<CompoundAssignOperator>(inc))
      stepped = ca->getLHS();
    // The init and the step, and no other write anywhere in the loop.
    int writes = 0;
    for (const BinaryOperator *bo : collect<BinaryOperator>(fs))
      writes += bo->isAssignmentOp() && varOf(bo->getLHS()) == v;
    for (const UnaryOperator *uo : collect<UnaryOperator>(fs))
      writes += uo->isIncrementDecrementOp() && varOf(uo->getSubExpr()) == v;
    if (varOf(stepped) != v || writes != 2)
      v = nullptr;
  }
  return reusedCounters_[key] = v;
}

const VarDecl *Analysis::loopCounter(const Frame &f, const ForStmt *fs) {
  for (auto &[var, loop] : f.inductionLoops)
    if (loop == fs)
      return var;
  return reusedCounter(f, fs);
}

const ForStmt *Analysis::reusedCounterLoop(const Expr *use, const VarDecl *v, const Frame &f) {
  if (f.inductionLoops.count(v))
    return nullptr;
  for (const Stmt *child = use, *p = f.parents->getParent(use); p; child = p, p = f.parents->getParent(p))
    if (auto *fs = dyn_cast<ForStmt>(p); fs && child != fs->getInit() && reusedCounter(f, fs) == v)
      return fs;
  return nullptr;
}

bool Analysis::isLoop(const Stmt *s) {
  return isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<ForStmt>(s) || isa<CXXForRangeStmt>(s);
}

Verdict Analysis::loopTrips(const Stmt *s, const Frame &f) {
  if (auto *fs = dyn_cast<ForStmt>(s)) {
    if (const VarDecl *var = loopCounter(f, fs))
      return inductionVariable(var, fs, f);
    Verdict c = fs->getCond() ? classify(fs->getCond(), f) : Verdict::dynamic("while-loop", "");
    if (c.kind == Kind::Dynamic)
      return Verdict::dynamic("while-loop", "whose trip count is known only at run time");
    return Verdict::undetermined("a loop the analysis does not recognize");
  }
  const Expr *cond = nullptr;
  if (auto *ws = dyn_cast<WhileStmt>(s))
    cond = ws->getCond();
  else if (auto *ds = dyn_cast<DoStmt>(s))
    cond = ds->getCond();
  if (cond) {
    Expr::EvalResult r;
    if (cond->EvaluateAsInt(r, ctx_) && r.Val.getInt() == 0)
      return {}; // do { } while (0)
    Verdict c = classify(cond, f);
    if (c.kind == Kind::Constant)
      return Verdict::undetermined("a `while` loop over constants");
    return Verdict::dynamic("while-loop", "whose trip count is known only at run time");
  }
  return Verdict::undetermined("a range-based loop");
}

Verdict Analysis::inductionVariable(const VarDecl *v, const ForStmt *fs, const Frame &f) {
  auto key = std::make_pair(v, &f);
  bool mine = inProgress_.insert(key).second;
  const Expr *init = nullptr;
  if (isa_and_nonnull<DeclStmt>(fs->getInit()))
    init = v->getInit();
  else if (auto *bo = dyn_cast_or_null<BinaryOperator>(fs->getInit()))
    init = bo->getRHS();
  Verdict shape = join(join(classify(init, f), classify(fs->getCond(), f)), classify(fs->getInc(), f));
  if (mine)
    inProgress_.erase(key);
  std::string name = v->getNameAsString();
  unsigned line = ctx_.getSourceManager().getExpansionLineNumber(fs->getForLoc());
  std::string loopAt = "the loop at line " + std::to_string(line);
  if (shape.kind == Kind::Dynamic) {
    if (shape.cause == "unroll-pragma")
      return shape;
    Verdict d = Verdict::dynamic("loop-bound", "'" + name + "' counts " + loopAt +
                                                   ", whose trip count is not a compile-time constant (" + shape.why + ")",
                                 fs->getForLoc());
    return d;
  }
  if (shape.kind == Kind::Undetermined)
    return shape;
  shape.loopVars.insert(v);
  std::optional<int64_t> trips = tripCount(v, init, fs);
  auto hint = f.hints.find(fs);
  if (hint != f.hints.end()) {
    const LoopHintAttr *h = hint->second;
    int64_t count = 0; // 0: full unrolling
    if (h->getOption() == LoopHintAttr::Unroll && h->getState() == LoopHintAttr::Disable)
      count = 1;
    if (h->getOption() == LoopHintAttr::UnrollCount && h->getValue()) {
      Expr::EvalResult r;
      if (!h->getValue()->EvaluateAsInt(r, ctx_))
        return Verdict::undetermined("an unroll count the analysis cannot evaluate");
      count = r.Val.getInt().getExtValue();
    }
    if (count == 0 || (trips && *trips <= count))
      return shape;
    if (count > 1 && !trips)
      return Verdict::undetermined("a partially unrolled loop of unknown trip count");
    Verdict d = Verdict::dynamic("unroll-pragma", "'" + name + "' counts " + loopAt + ", which `#pragma unroll " +
                                                      std::to_string(count) + "` keeps " +
                                                      (count == 1 ? "rolled" : "partly rolled"),
                                 fs->getForLoc());
    d.rolling.insert(h);
    d.loopVars = shape.loopVars;
    return d;
  }
  if (trips && *trips >= kRolledTrips) {
    Verdict d = Verdict::dynamic("long-loop", "'" + name + "' counts " + loopAt + ", whose " + std::to_string(*trips) +
                                                  " iterations nvcc does not unroll without `#pragma unroll`",
                                 fs->getForLoc());
    d.loopVars = shape.loopVars;
    return d;
  }
  if (trips && *trips > kAutoUnrollTrips)
    return Verdict::undetermined("a loop of " + std::to_string(*trips) + " iterations the compiler may not unroll");
  return shape;
}

std::optional<int64_t> Analysis::tripCount(const VarDecl *v, const Expr *init, const ForStmt *fs) {
  auto constant = [&](const Expr *e) -> std::optional<int64_t> {
    Expr::EvalResult r;
    if (e && !e->isValueDependent() && e->EvaluateAsInt(r, ctx_))
      return r.Val.getInt().getExtValue();
    return std::nullopt;
  };
  auto start = constant(init);
  auto *cond = dyn_cast_or_null<BinaryOperator>(fs->getCond() ? fs->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!start || !cond || !cond->isComparisonOp())
    return std::nullopt;
  bool varLeft = varOf(cond->getLHS()) == v;
  if (!varLeft && varOf(cond->getRHS()) != v)
    return std::nullopt;
  auto bound = constant(varLeft ? cond->getRHS() : cond->getLHS());
  if (!bound)
    return std::nullopt;
  BinaryOperatorKind op = cond->getOpcode();
  if (!varLeft)
    op = BinaryOperator::reverseComparisonOp(op);
  const Expr *inc = fs->getInc()->IgnoreParenImpCasts();
  char stepOp = 0;
  std::optional<int64_t> step;
  if (auto *uo = dyn_cast<UnaryOperator>(inc); uo && uo->isIncrementDecrementOp()) {
    stepOp = '+';
    step = uo->isIncrementOp() ? 1 : -1;
  } else if (auto *ca = dyn_cast<CompoundAssignOperator>(inc)) {
    step = constant(ca->getRHS());
    switch (ca->getOpcode()) {
    case BO_AddAssign: stepOp = '+'; break;
    case BO_SubAssign: stepOp = '+', step = step ? std::optional<int64_t>(-*step) : std::nullopt; break;
    case BO_MulAssign: stepOp = '*'; break;
    case BO_DivAssign: stepOp = '/'; break;
    case BO_ShlAssign: stepOp = '<'; break;
    case BO_ShrAssign: stepOp = '>'; break;
    default: return std::nullopt;
    }
  }
  if (!step || !stepOp)
    return std::nullopt;
  int64_t x = *start, n = 0;
  auto holds = [&](int64_t value) {
    switch (op) {
    case BO_LT: return value < *bound;
    case BO_LE: return value <= *bound;
    case BO_GT: return value > *bound;
    case BO_GE: return value >= *bound;
    case BO_NE: return value != *bound;
    default: return false;
    }
  };
  while (holds(x)) {
    if (++n > 100000)
      return std::nullopt;
    int64_t next = stepOp == '+' ? x + *step : stepOp == '*' ? x * *step : stepOp == '/' ? (*step ? x / *step : x)
                 : stepOp == '<' ? x << *step : x >> *step;
    if (next == x)
      return std::nullopt;
    x = next;
  }
  return n;
}

} // namespace warplint::private_arrays
