#include "analyzer/model/LaunchSites.h"
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/model/ReachingShapes.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <array>

namespace warplint {

using namespace clang;

namespace {

// A statement's parent as the walks below read the unit's parent map: a
// statement, or none where that map gives a declaration (a variable's
// initializer, a lambda's body), several parents or none. From the
// enclosing function's body map when there is one: the unit's map covers
// every declaration of the translation unit, headers included, the first
// time it is asked (4.4% of HeCBench sw4ck; issue 19).
class StmtParents {
public:
  StmtParents(ASTContext &ctx, const ParentMap *body) : ctx_(ctx), body_(body) {}
  const Stmt *of(const Stmt *s) const {
    if (body_) {
      const Stmt *p = BodyParents::parentWithinFunction(*body_, s);
      return isa_and_nonnull<DeclStmt>(p) ? nullptr : p;
    }
    auto parents = ctx_.getParents(*s);
    return parents.size() == 1 ? parents[0].get<Stmt>() : nullptr;
  }

private:
  ASTContext &ctx_;
  const ParentMap *body_;
};

using PartialShape = std::array<std::optional<int64_t>, 3>;

using Assignment = HostWrite;

std::vector<HostWrite> assignmentsIn(const FunctionDecl *fn) {
  return hostWritesIn(fn ? fn->getBody() : nullptr);
}

const VarDecl *varOf(const Expr *e) {
  if (auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(dre->getDecl());
  return nullptr;
}

// `v.x` -> 0, `v.y` -> 1, `v.z` -> 2 when `e` is a member of `v`; -1 otherwise.
int memberOf(const Expr *e, const VarDecl *v) {
  auto *me = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!me || me->isArrow() || varOf(me->getBase()) != v)
    return -1;
  StringRef n = me->getMemberDecl()->getName();
  return n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
}

// A launch under `case N:` of `switch (v)` runs only when v == N: the
// `switch (threads) { case 512: k<512><<<g, threads>>>(...); ... }` idiom;
// so does one in the then-branch of `if (v == N)`. Returns the (variable,
// value) pairs of the enclosing switches whose case label is a single
// constant and of the enclosing such ifs.
std::vector<std::pair<const VarDecl *, int64_t>> knownByBranch(ASTContext &ctx, const StmtParents &parentOf,
                                                               const Stmt *s) {
  std::vector<std::pair<const VarDecl *, int64_t>> out;
  std::vector<const CaseStmt *> labels; // case labels of the innermost switch not yet matched
  auto caseValue = [&](const CaseStmt *c) -> std::optional<int64_t> {
    Expr::EvalResult r;
    if (c->caseStmtIsGNURange() || !c->getLHS() || c->getLHS()->isValueDependent() ||
        !c->getLHS()->EvaluateAsInt(r, ctx))
      return std::nullopt;
    return r.Val.getInt().getExtValue();
  };
  const Stmt *child = s;
  for (int depth = 0; depth < 64; ++depth) {
    const Stmt *p = parentOf.of(child);
    if (!p)
      break;
    if (auto *c = dyn_cast<CaseStmt>(p))
      labels.push_back(c);
    if (auto *body = dyn_cast<CompoundStmt>(p); body && labels.empty()) {
      // A statement after the first one of its case: the nearest label before it.
      if (isa_and_nonnull<SwitchStmt>(parentOf.of(body))) {
        const Stmt *label = nullptr;
        for (const Stmt *b : body->body()) {
          if (b == child)
            break;
          if (isa<SwitchCase>(b))
            label = b;
        }
        // A case label's sub-statement may itself be a label (`case 1: case 2:`).
        for (auto *c = dyn_cast_or_null<CaseStmt>(label); c; c = dyn_cast<CaseStmt>(c->getSubStmt()))
          labels.push_back(c);
        if (!label)
          labels.push_back(nullptr); // under no label, or a default: nothing known
      }
    }
    if (auto *branch = dyn_cast<IfStmt>(p); branch && branch->getThen() == child && branch->getCond()) {
      // `if (v == N) { ... }`
      auto *eq = dyn_cast<BinaryOperator>(branch->getCond()->IgnoreParenImpCasts());
      if (eq && eq->getOpcode() == BO_EQ)
        for (auto [side, other] : {std::pair{eq->getLHS(), eq->getRHS()}, std::pair{eq->getRHS(), eq->getLHS()}}) {
          Expr::EvalResult r;
          const VarDecl *v = varOf(side);
          if (v && v->getType()->isIntegralOrEnumerationType() && !other->isValueDependent() &&
              other->EvaluateAsInt(r, ctx))
            out.push_back({v, r.Val.getInt().getExtValue()});
        }
    }
    if (auto *sw = dyn_cast<SwitchStmt>(p)) {
      const VarDecl *v = sw->getCond() ? varOf(sw->getCond()) : nullptr;
      std::optional<int64_t> value = labels.size() == 1 && labels[0] ? caseValue(labels[0]) : std::nullopt;
      if (v && value && v->getType()->isIntegralOrEnumerationType())
        out.push_back({v, *value});
      labels.clear();
    }
    child = p;
  }
  return out;
}

class ShapeEvaluator {
public:
  // `at`: the launch, where dim3 variables are read.
  ShapeEvaluator(ASTContext &ctx, const FunctionDecl *fn, const Stmt *at, const StmtParents &parentOf)
      : ctx_(ctx), at_(at), parentOf_(parentOf), writes_(LocalWrites::collect(fn ? fn->getBody() : nullptr)),
        tr_(ctx, fn, writes_), assignments_(assignmentsIn(fn)) {}

  void bind(const VarDecl *v, int64_t value) { tr_.bindLoopVar(v, IndexExpr::constant(value)); }
  // Whether a member assignment set a known component since the last reset.
  bool usedMemberAssignment() const { return usedMembers_; }
  void resetMemberAssignment() { usedMembers_ = false; }

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

  // What is known of a dim3 (or integer) value; nullopt when nothing is.
  std::optional<PartialShape> dim3(const Expr *e, int depth = 0) {
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
      PartialShape v{1, 1, 1};
      if (ce->getNumArgs() > 3)
        return std::nullopt;
      for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
        const Expr *arg = ce->getArg(i);
        if (auto *def = dyn_cast<CXXDefaultArgExpr>(arg))
          arg = def->getExpr();
        if (!arg->getType()->isIntegralOrEnumerationType())
          return std::nullopt; // dim3(uint3) and friends
        v[i] = integer(arg);
      }
      return v;
    }
    if (auto *var = varOf(e); var && !var->getType()->isIntegralOrEnumerationType() && !var->isInvalidDecl())
      return dim3Variable(var, depth);
    if (e->getType()->isIntegralOrEnumerationType())
      return PartialShape{integer(e), 1, 1};
    return std::nullopt;
  }

private:
  struct Write {
    const Expr *rhs; // null: an unknown value (+=, ++)
    int component;   // -1: all three (the declaration, a whole assignment)
    bool dominates;  // runs whenever the launch does
  };

  // A dim3 variable at the launch: the last write before it that runs
  // whenever the launch does (the declaration, `b = dim3(...)` or `b.x = 16`
  // as a statement of a block enclosing the launch) gives each component,
  // and writes after that one which run only on some paths must agree with
  // it. Writes after the launch count only inside a loop around it.
  std::optional<PartialShape> dim3Variable(const VarDecl *var, int depth) {
    if (!var->hasLocalStorage())
      return var->getType().isConstQualified() && var->getInit() ? dim3(var->getInit(), depth + 1) : std::nullopt;
    if (writes_.escaped.count(var) || !at_)
      return std::nullopt; // a callee or an alias may set it
    std::vector<Write> before;
    if (var->getInit())
      before.push_back({var->getInit(), -1, true});
    else
      before.push_back({nullptr, -1, true});
    const SourceManager &sm = ctx_.getSourceManager();
    for (const Assignment &a : assignments_) {
      int component = varOf(a.lhs) == var ? -1 : memberOf(a.lhs, var);
      if (component == -1 && varOf(a.lhs) != var)
        continue;
      const Expr *rhs = a.compound ? nullptr : a.rhs;
      if (sm.isBeforeInTranslationUnit(a.lhs->getBeginLoc(), at_->getBeginLoc()))
        before.push_back({rhs, component, dominatesLaunch(a.lhs)});
      else if (inLoopAroundLaunch(a.lhs))
        before.push_back({rhs, component, false});
    }
    PartialShape out;
    for (int c = 0; c < 3; ++c) {
      size_t last = 0;
      for (size_t i = 0; i < before.size(); ++i)
        if ((before[i].component == -1 || before[i].component == c) && before[i].dominates)
          last = i;
      std::optional<int64_t> value = componentOf(before[last], c, depth);
      for (size_t i = last + 1; i < before.size() && value; ++i)
        if (before[i].component == -1 || before[i].component == c)
          if (componentOf(before[i], c, depth) != value)
            value = std::nullopt;
      out[c] = value;
      usedMembers_ = usedMembers_ || (value && before[last].component == c);
    }
    return out;
  }

  std::optional<int64_t> componentOf(const Write &write, int c, int depth) {
    if (!write.rhs)
      return std::nullopt;
    if (write.component == c)
      return integer(write.rhs);
    auto v = dim3(write.rhs, depth + 1);
    return v ? (*v)[c] : std::nullopt;
  }

  // Whether the statement around `e` is one of a block that encloses the launch.
  bool dominatesLaunch(const Expr *e) {
    const Stmt *s = e;
    for (int depth = 0; depth < 64; ++depth) {
      const Stmt *p = parentOf_.of(s);
      if (!p)
        return false;
      if (auto *cs = dyn_cast<CompoundStmt>(p))
        return encloses(cs, at_);
      const Expr *pe = dyn_cast<Expr>(p);
      if (!pe)
        return false; // an if, a loop, a case: it may not run
      s = pe;
    }
    return false;
  }

  bool encloses(const Stmt *outer, const Stmt *inner) {
    const Stmt *s = inner;
    for (int depth = 0; depth < 256 && s; ++depth) {
      if (s == outer)
        return true;
      s = parentOf_.of(s);
    }
    return false;
  }

  bool inLoopAroundLaunch(const Expr *e) {
    const Stmt *s = at_;
    for (int depth = 0; depth < 256 && s; ++depth) {
      if ((isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) && encloses(s, e))
        return true;
      s = parentOf_.of(s);
    }
    return false;
  }

  ASTContext &ctx_;
  const Stmt *at_;
  const StmtParents &parentOf_;
  LocalWrites writes_;
  ExprTranslator tr_;
  std::vector<Assignment> assignments_;
  bool usedMembers_ = false;
};

// Every __global__ function named in `e` (`c ? &a : b`, `{a, b, c}`).
void namedKernels(const Expr *e, std::vector<const FunctionDecl *> &out) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const FunctionDecl *> &out;
    explicit Finder(std::vector<const FunctionDecl *> &o) : out(o) {}
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      auto *fd = dyn_cast<FunctionDecl>(d->getDecl());
      if (fd && fd->hasAttr<CUDAGlobalAttr>() && std::find(out.begin(), out.end(), fd) == out.end())
        out.push_back(fd);
      return true;
    }
  } f(out);
  if (e)
    f.TraverseStmt(const_cast<Expr *>(e));
}

} // namespace

LaunchOperands launchOperands(const CUDAKernelCallExpr *call) {
  LaunchOperands op;
  op.launch = call;
  op.kernel = call->getCallee();
  op.kernelCall = call;
  if (const CallExpr *config = call->getConfig(); config && config->getNumArgs() >= 2) {
    op.grid = config->getArg(0);
    op.block = config->getArg(1);
    if (config->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(config->getArg(2)))
      op.sharedBytes = config->getArg(2);
  }
  return op;
}

std::optional<LaunchOperands> runtimeLaunchOperands(const CallExpr *call) {
  const FunctionDecl *fd = call->getDirectCallee();
  if (!fd || !fd->getIdentifier() || !fd->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  llvm::StringRef name = fd->getName();
  // (func, gridDim, blockDim, args, sharedMem, stream), the template overloads
  // of cuda_runtime.h included.
  if ((name != "cudaLaunchKernel" && name != "cudaLaunchCooperativeKernel") || call->getNumArgs() < 3)
    return std::nullopt;
  LaunchOperands op;
  op.launch = call;
  const Expr *kernel = call->getArg(0)->IgnoreParenImpCasts();
  while (auto *cast = dyn_cast<ExplicitCastExpr>(kernel)) // (void *)k, reinterpret_cast<const void *>(&k)
    kernel = cast->getSubExpr()->IgnoreParenImpCasts();
  if (auto *u = dyn_cast<UnaryOperator>(kernel); u && u->getOpcode() == UO_AddrOf)
    kernel = u->getSubExpr()->IgnoreParenImpCasts();
  op.kernel = kernel;
  op.grid = call->getArg(1);
  op.block = call->getArg(2);
  if (call->getNumArgs() > 4 && !isa<CXXDefaultArgExpr>(call->getArg(4)))
    op.sharedBytes = call->getArg(4);
  return op;
}

std::vector<const FunctionDecl *> launchedKernels(const LaunchOperands &launch, const FunctionDecl *enclosing,
                                                  bool &viaPointer) {
  viaPointer = false;
  std::vector<const FunctionDecl *> out;
  const Expr *callee = launch.kernel->IgnoreParenImpCasts();
  if (auto *ref = dyn_cast<DeclRefExpr>(callee))
    if (auto *fd = dyn_cast<FunctionDecl>(ref->getDecl())) {
      out.push_back(fd);
      return out;
    }
  if (launch.kernelCall)
    if (auto *fd = launch.kernelCall->getDirectCallee()) {
      out.push_back(fd);
      return out;
    }
  // A launch inside a template that is never instantiated (`k<T><<<g, 192>>>`
  // in a class template's member): the name is not resolved; every __global__
  // template it may name that has no instantiation of its own (whose pattern
  // is what gets analyzed) is launched with this shape. Kernels that are
  // instantiated take their shapes from the instantiated launches, whose
  // arguments are known.
  if (auto *lookup = dyn_cast<UnresolvedLookupExpr>(callee)) {
    for (const NamedDecl *d : lookup->decls()) {
      const FunctionDecl *fd = dyn_cast<FunctionDecl>(d->getUnderlyingDecl());
      if (auto *tmpl = dyn_cast<FunctionTemplateDecl>(d->getUnderlyingDecl()))
        fd = tmpl->specializations().empty() ? tmpl->getTemplatedDecl() : nullptr;
      if (fd && fd->hasAttr<CUDAGlobalAttr>() && std::find(out.begin(), out.end(), fd) == out.end())
        out.push_back(fd);
    }
    return out;
  }
  for (int i = 0; i < 4; ++i) { // (*k), table[i], (*table[i])
    if (auto *u = dyn_cast<UnaryOperator>(callee); u && u->getOpcode() == UO_Deref)
      callee = u->getSubExpr()->IgnoreParenImpCasts();
    else if (auto *sub = dyn_cast<ArraySubscriptExpr>(callee))
      callee = sub->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  viaPointer = true;
  if (isa<ConditionalOperator>(callee)) {
    namedKernels(callee, out);
    return out;
  }
  const VarDecl *var = varOf(callee);
  if (!var || isa<ParmVarDecl>(var) || var->isInvalidDecl())
    return out;
  namedKernels(var->getInit(), out);
  // Assignments `k = a;` and `table[i] = a;` in the launching function.
  for (const Assignment &a : assignmentsIn(enclosing)) {
    const Expr *lhs = a.lhs->IgnoreParenImpCasts();
    while (auto *sub = dyn_cast<ArraySubscriptExpr>(lhs))
      lhs = sub->getBase()->IgnoreParenImpCasts();
    if (varOf(lhs) == var)
      namedKernels(a.rhs, out);
  }
  return out;
}

std::string kernelKey(const FunctionDecl *fd) {
  std::string key;
  llvm::raw_string_ostream os(key);
  PrintingPolicy policy(fd->getASTContext().getLangOpts());
  policy.SuppressTagKeyword = true;
  fd->getNameForDiagnostic(os, policy, /*Qualified=*/true);
  os << "(";
  for (unsigned i = 0; i < fd->getNumParams(); ++i)
    os << (i ? ", " : "") << fd->getParamDecl(i)->getType().getCanonicalType().getAsString(policy);
  os << ")";
  return os.str();
}

LaunchSite modelLaunch(ASTContext &ctx, const LaunchOperands &launch, const FunctionDecl *enclosing,
                       const std::vector<const FunctionDecl *> &kernels, bool viaPointer, BodyParents *bodies) {
  const Expr *call = launch.launch;
  LaunchSite site;
  site.loc = toLocation(ctx.getSourceManager(), call->getBeginLoc());
  if (!viaPointer && kernels.size() == 1)
    site.kernel = kernels.front()->getNameAsString();
  else
    site.kernel = sourceText(ctx, launch.kernel->getSourceRange());
  site.viaPointer = viaPointer;
  site.viaRuntimeCall = !launch.kernelCall;
  for (const FunctionDecl *k : kernels)
    if (!k->isDefined() && k->isExternallyVisible())
      site.externalKernelKeys.push_back(kernelKey(k));
  if (launch.kernelCall)
    site.argAllocations = launchArgAllocations(ctx, launch.kernelCall, enclosing);
  if (!launch.grid || !launch.block)
    return site;
  StmtParents parentOf(ctx, bodies ? bodies->holding(enclosing, call) : nullptr);
  ShapeEvaluator eval(ctx, enclosing, call, parentOf);
  auto known = knownByBranch(ctx, parentOf, call);
  for (auto [var, value] : known)
    eval.bind(var, value);
  site.gridText = sourceText(ctx, launch.grid->getSourceRange());
  {
    const Expr *grid = launch.grid->IgnoreImplicit();
    if (auto *ce = dyn_cast<CXXConstructExpr>(grid); ce && ce->getNumArgs() >= 1 && !isa<CXXTemporaryObjectExpr>(ce))
      grid = ce->getArg(0)->IgnoreImplicit(); // the implicit dim3(unsigned) around an integer
    site.gridIsInteger = grid->getType()->isIntegralOrEnumerationType();
    site.gridSpan = fileSpan(ctx, CharSourceRange::getTokenRange(grid->getSourceRange()));
  }
  site.blockText = sourceText(ctx, launch.block->getSourceRange());
  auto whole = [](const std::optional<PartialShape> &p) -> std::optional<BlockShape> {
    if (!p || !(*p)[0] || !(*p)[1] || !(*p)[2])
      return std::nullopt;
    return BlockShape{*(*p)[0], *(*p)[1], *(*p)[2]};
  };
  site.grid = whole(eval.dim3(launch.grid));
  eval.resetMemberAssignment();
  auto block = eval.dim3(launch.block);
  if (block)
    site.blockDims = *block;
  site.block = whole(block);
  site.blockByMemberAssignment = eval.usedMemberAssignment();
  if (!site.block) {
    auto integer = [&](const Expr *e) { return eval.integer(e); };
    if (auto reaching = reachingBlockShapes(ctx, enclosing, call, launch.block, integer, known, bodies)) {
      if (reaching->shapes.size() == 1 && reaching->assumption.empty()) { // every path gives the same shape
        site.block = reaching->shapes.front();
        site.blockDims = {site.block->x, site.block->y, site.block->z};
      } else {
        site.blockChoices = std::move(reaching->shapes);
        site.blockChoicesAssumption = std::move(reaching->assumption);
      }
    }
  }
  if (launch.sharedBytes)
    site.sharedBytesText = sourceText(ctx, launch.sharedBytes->getSourceRange());
  return site;
}

} // namespace warplint
