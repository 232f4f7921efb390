#include "analyzer/model/ReachingShapes.h"
#include "analyzer/model/TemporaryWrappers.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/model/ExprTranslator.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

namespace warplint {

using namespace clang;

namespace {

constexpr size_t kMaxValues = 8;  // per component
constexpr size_t kMaxShapes = 16; // per launch
constexpr int kMaxCallDepth = 2;   // host calls followed up from a launch

// The values one component may hold; nullopt when one of them is not known.
using Values = std::optional<std::set<int64_t>>;

Values unite(const Values &a, const Values &b) {
  if (!a || !b)
    return std::nullopt;
  std::set<int64_t> u = *a;
  u.insert(b->begin(), b->end());
  if (u.size() > kMaxValues)
    return std::nullopt;
  return u;
}

// A local followed through the function, and one of its components (0 for
// an integer, x/y/z for a dim3).
using Slot = std::pair<const VarDecl *, int>;
using State = std::map<Slot, Values>;

// Two paths meet: each slot may hold what either left. A slot only one path
// knows was declared inside a branch and is out of scope.
State unite(const State &a, const State &b) {
  State out;
  for (auto &[slot, v] : a)
    if (auto it = b.find(slot); it != b.end())
      out[slot] = unite(v, it->second);
  return out;
}

bool isDim3(QualType t) {
  auto *rd = t->getAsRecordDecl();
  return rd && rd->getName() == "dim3";
}

using Write = HostWrite;

std::vector<Write> writesIn(const Stmt *s) { return hostWritesIn(s); }

// What makes the path walk below unsound: jumps it does not follow and
// lambdas that may write a captured local whenever they are called. The walk
// follows integer and dim3 locals only, and a lambda can write a local only
// through a reference capture; a [&] lambda captures just the locals its body
// names, so one that names no such local (a host check filling a vector)
// changes no shape.
class Unfollowable : public RecursiveASTVisitor<Unfollowable> {
public:
  bool found = false;
  bool VisitGotoStmt(GotoStmt *) { return !(found = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(found = true); }
  bool VisitLabelStmt(LabelStmt *) { return !(found = true); }
  bool VisitLambdaExpr(LambdaExpr *l) {
    for (const LambdaCapture &c : l->captures()) {
      if (!c.capturesVariable())
        continue;
      const auto *v = dyn_cast<VarDecl>(c.getCapturedVar());
      bool byReference = c.getCaptureKind() == LCK_ByRef || (v && v->isInitCapture());
      QualType t = c.getCapturedVar()->getType().getNonReferenceType();
      if (byReference && (t->isIntegralOrEnumerationType() || isDim3(t)))
        return !(found = true);
    }
    return true;
  }
};

// A declaration of the toolkit or a library: it writes no user global and
// calls no user function.
bool inSystemHeader(const Decl *d) {
  if (!d || isa<TranslationUnitDecl>(d) || d->getLocation().isInvalid())
    return false;
  const SourceManager &sm = d->getASTContext().getSourceManager();
  return sm.isInSystemHeader(sm.getExpansionLoc(d->getLocation()));
}

} // namespace

// Named (not anonymous) because the unit cache of the header holds them.
namespace reaching_walks {

// The calls of a host function in its unit; `complete` is false when the
// function is also named other than as a direct callee (its address taken:
// calls through the pointer are not seen) or when it may be called from
// another unit.
struct CallSites : public RecursiveASTVisitor<CallSites> {
  const FunctionDecl *fn;
  std::vector<const CallExpr *> calls;
  std::set<const DeclRefExpr *> callees;
  std::vector<const DeclRefExpr *> refs;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *d) { // toolkit and library headers call no user function
    return inSystemHeader(d) || RecursiveASTVisitor::TraverseDecl(d);
  }
  bool VisitCallExpr(CallExpr *c) {
    if (c->getDirectCallee() && c->getDirectCallee()->getCanonicalDecl() == fn->getCanonicalDecl()) {
      calls.push_back(c);
      if (auto *dre = dyn_cast<DeclRefExpr>(c->getCallee()->IgnoreParenImpCasts()))
        callees.insert(dre);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    if (auto *f = dyn_cast<FunctionDecl>(d->getDecl()); f && f->getCanonicalDecl() == fn->getCanonicalDecl())
      refs.push_back(d);
    return true;
  }
  bool complete() const {
    for (const DeclRefExpr *r : refs)
      if (!callees.count(r))
        return false;
    return true;
  }
};

} // namespace reaching_walks

using reaching_walks::CallSites;

struct ReachingShapesUnitCache::Data {
  std::map<const FunctionDecl *, std::shared_ptr<const CallSites>> callSites; // by canonical declaration
  std::shared_ptr<const LocalWrites> unitWrites;
};

namespace {

thread_local ReachingShapesUnitCache::Data *openUnitCache = nullptr;

// The calls of `fn` in the unit, from the open unit cache when there is one.
std::shared_ptr<const CallSites> callSitesOf(ASTContext &ctx, const FunctionDecl *fn) {
  ReachingShapesUnitCache::Data *cache = openUnitCache;
  if (cache)
    if (auto it = cache->callSites.find(fn->getCanonicalDecl()); it != cache->callSites.end())
      return it->second;
  auto sites = std::make_shared<CallSites>();
  sites->fn = fn;
  sites->TraverseDecl(ctx.getTranslationUnitDecl());
  if (cache)
    cache->callSites[fn->getCanonicalDecl()] = sites;
  return sites;
}

// Whether control never falls out of the end of `s`.
bool leaves(const Stmt *s) {
  if (!s)
    return false;
  if (auto *cs = dyn_cast<CompoundStmt>(s))
    return !cs->body_empty() && leaves(cs->body_back());
  if (isa<ReturnStmt>(s) || isa<BreakStmt>(s) || isa<ContinueStmt>(s) || isa<CXXThrowExpr>(s))
    return true;
  if (auto *call = dyn_cast<CallExpr>(s))
    if (auto *fd = call->getDirectCallee())
      return fd->isNoReturn(); // exit(1), abort()
  return false;
}

class PathWalker {
public:
  PathWalker(ASTContext &ctx, const FunctionDecl *fn, const Stmt *launch,
             const std::function<std::optional<int64_t>(const Expr *)> &integer,
             const std::vector<std::pair<const VarDecl *, int64_t>> &known, int callDepth,
             std::string *assumption, BodyParents *bodies = nullptr)
      : ctx_(ctx), fn_(fn), launch_(launch), integer_(integer), known_(known),
        writes_(LocalWrites::collect(fn->getBody())), callDepth_(callDepth), assumption_(assumption),
        bodies_(bodies) {}

  // The state where the launch runs; nullopt when it cannot be followed.
  std::optional<State> run() {
    Unfollowable u;
    u.TraverseStmt(fn_->getBody());
    if (u.found || !collectAncestors())
      return std::nullopt;
    State st;
    if (!walk(fn_->getBody(), st))
      return std::nullopt;
    return st;
  }

  // The values component `c` of `e` (an integer, or a dim3 with c in 0..2) may hold in `st`.
  Values valueOf(const Expr *e, int c, const State &st) const {
    for (int depth = 0; e && depth < 16; ++depth) {
      e = e->IgnoreParenImpCasts();
      if (const Expr *inner = peelTemporaryWrapper(e))
        e = inner;
      else if (auto *def = dyn_cast<CXXDefaultArgExpr>(e))
        e = def->getExpr();
      else
        break;
    }
    if (!e || e->isValueDependent() || e->isTypeDependent() || e->containsErrors())
      return std::nullopt;
    if (isDim3(e->getType())) {
      if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
        const CXXConstructorDecl *ctor = ce->getConstructor();
        if (ctor && ctor->isCopyOrMoveConstructor() && ce->getNumArgs() == 1)
          return valueOf(ce->getArg(0), c, st);
        if (ce->getNumArgs() > 3)
          return std::nullopt;
        if (static_cast<unsigned>(c) >= ce->getNumArgs())
          return std::set<int64_t>{1};
        const Expr *arg = ce->getArg(c);
        if (!arg->getType()->isIntegralOrEnumerationType())
          return std::nullopt; // dim3(uint3)
        return valueOf(arg, 0, st);
      }
      if (const VarDecl *v = varOf(e)) {
        if (auto *p = dyn_cast<ParmVarDecl>(v))
          return fromCallSites(p, c);
        return lookup(v, c, st);
      }
      return std::nullopt;
    }
    if (!e->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    if (c > 0)
      return std::set<int64_t>{1}; // an integer block size is x alone
    if (const VarDecl *v = varOf(e)) {
      for (auto &[var, value] : known_)
        if (var == v)
          return std::set<int64_t>{value};
      if (watched(v))
        return lookup(v, 0, st);
      if (auto *p = dyn_cast<ParmVarDecl>(v))
        return fromCallSites(p, 0);
      if (auto r = integer_(e))
        return std::set<int64_t>{*r};
      return unwrittenGlobal(v);
    }
    if (auto *co = dyn_cast<ConditionalOperator>(e))
      return unite(valueOf(co->getTrueExpr(), 0, st), valueOf(co->getFalseExpr(), 0, st));
    if (auto *bo = dyn_cast<BinaryOperator>(e); bo && !bo->isAssignmentOp() && !bo->isCommaOp()) {
      if (auto r = integer_(e))
        return std::set<int64_t>{*r};
      return combine(bo->getOpcode(), valueOf(bo->getLHS(), 0, st), valueOf(bo->getRHS(), 0, st));
    }
    if (auto *me = dyn_cast<MemberExpr>(e); me && !me->isArrow())
      if (const VarDecl *v = varOf(me->getBase()); v && watched(v) && isDim3(v->getType())) {
        StringRef n = me->getMemberDecl()->getName();
        int member = n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
        return member < 0 ? std::nullopt : lookup(v, member, st);
      }
    if (auto r = integer_(e))
      return std::set<int64_t>{*r};
    return std::nullopt;
  }

private:
  void assume(const char *why) const {
    if (assumption_ && assumption_->empty())
      *assumption_ = why;
  }

  // `a op b` for every pair of values.
  static Values combine(BinaryOperatorKind op, const Values &a, const Values &b) {
    if (!a || !b || a->size() * b->size() > kMaxValues)
      return std::nullopt;
    std::set<int64_t> out;
    for (int64_t x : *a)
      for (int64_t y : *b) {
        switch (op) {
        case BO_Add: out.insert(x + y); break;
        case BO_Sub: out.insert(x - y); break;
        case BO_Mul: out.insert(x * y); break;
        case BO_Div: if (!y) return std::nullopt; out.insert(x / y); break;
        case BO_Rem: if (!y) return std::nullopt; out.insert(x % y); break;
        case BO_Shl: if (y < 0 || y > 30) return std::nullopt; out.insert(x << y); break;
        case BO_Shr: if (y < 0 || y > 62) return std::nullopt; out.insert(x >> y); break;
        default: return std::nullopt;
        }
      }
    return out;
  }

  // A variable at file or namespace scope that is not const but that no code
  // in the unit writes, takes the address of or binds to a reference: its
  // initializer (`unsigned threads = 256;` read by a launch). Another unit
  // could still write it, so the shape is an assumption.
  Values unwrittenGlobal(const VarDecl *v) const {
    const SourceManager &sm = ctx_.getSourceManager();
    v = v->getDefinition() ? v->getDefinition() : v;
    if (!v->hasGlobalStorage() || v->isStaticLocal() || v->getType().isVolatileQualified() || !v->getInit() ||
        v->isInvalidDecl() || sm.isInSystemHeader(sm.getExpansionLoc(v->getLocation())) || globalDepth_ > 4 ||
        v->getInit()->isValueDependent())
      return std::nullopt;
    if (!unitWrites_ && openUnitCache)
      unitWrites_ = openUnitCache->unitWrites;
    if (!unitWrites_) {
      auto collected = std::make_shared<LocalWrites>();
      struct Bodies : RecursiveASTVisitor<Bodies> {
        const SourceManager &sm;
        LocalWrites &all;
        Bodies(const SourceManager &s, LocalWrites &a) : sm(s), all(a) {}
        bool shouldVisitTemplateInstantiations() const { return true; }
        bool TraverseDecl(Decl *d) { return inSystemHeader(d) || RecursiveASTVisitor::TraverseDecl(d); }
        void add(const Stmt *s) {
          LocalWrites w = LocalWrites::collect(s);
          for (auto &[var, n] : w.writes)
            all.writes[var] += n;
          all.escaped.insert(w.escaped.begin(), w.escaped.end());
        }
        bool VisitFunctionDecl(FunctionDecl *fd) {
          if (fd->doesThisDeclarationHaveABody())
            add(fd->getBody());
          return true;
        }
        bool VisitVarDecl(VarDecl *var) {
          if (var->getInit() && !var->hasLocalStorage())
            add(var->getInit());
          if (var->getType()->isReferenceType() && var->getInit())
            if (auto *dre = dyn_cast<DeclRefExpr>(var->getInit()->IgnoreParenImpCasts()))
              if (auto *target = dyn_cast<VarDecl>(dre->getDecl()))
                all.escaped.insert(target);
          return true;
        }
      } bodies(sm, *collected);
      bodies.TraverseDecl(ctx_.getTranslationUnitDecl());
      unitWrites_ = collected;
      if (openUnitCache)
        openUnitCache->unitWrites = collected;
    }
    for (const VarDecl *r = v->getMostRecentDecl(); r; r = r->getPreviousDecl())
      if (unitWrites_->writes.lookup(r) || unitWrites_->escaped.count(r))
        return std::nullopt;
    ++globalDepth_;
    Values out = valueOf(v->getInit(), 0, State{});
    --globalDepth_;
    if (out)
      assume("unwritten global");
    return out;
  }

  // A parameter of the launching host function that it never writes: the
  // values its callers in this unit pass (`launch(256)`), followed one more
  // call up at most. Nullopt when a caller's value is not known or when
  // callers may be out of sight (the function's address is taken).
  Values fromCallSites(const ParmVarDecl *p, int c) const {
    if (callDepth_ >= kMaxCallDepth || !fn_ || !writes_.isStable(p) || p->getType()->isReferenceType() ||
        fn_->hasAttr<CUDAGlobalAttr>() || fn_->hasAttr<CUDADeviceAttr>())
      return std::nullopt;
    unsigned index = p->getFunctionScopeIndex();
    std::shared_ptr<const CallSites> found = callSitesOf(ctx_, fn_);
    const CallSites &sites = *found;
    if (sites.calls.empty() || !sites.complete())
      return std::nullopt;
    Values out = std::set<int64_t>{};
    for (const CallExpr *call : sites.calls) {
      if (index >= call->getNumArgs())
        return std::nullopt;
      const FunctionDecl *caller = enclosingFunction(call);
      if (!caller || !caller->getBody())
        return std::nullopt;
      auto constant = [this](const Expr *e) -> std::optional<int64_t> {
        Expr::EvalResult r;
        if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx_))
          return std::nullopt;
        return r.Val.getInt().getExtValue();
      };
      std::vector<std::pair<const VarDecl *, int64_t>> none;
      PathWalker up(ctx_, caller, call, constant, none, callDepth_ + 1, nullptr);
      std::optional<State> st = up.run();
      if (!st)
        return std::nullopt;
      out = unite(out, up.valueOf(call->getArg(index), c, *st));
      if (!out)
        return std::nullopt;
    }
    assume("caller arguments");
    return out;
  }

  const FunctionDecl *enclosingFunction(const Stmt *s) const {
    DynTypedNode node = DynTypedNode::create(*s);
    for (int guard = 0; guard < 512; ++guard) {
      auto parents = ctx_.getParents(node);
      if (parents.size() != 1)
        return nullptr;
      if (auto *fd = parents[0].get<FunctionDecl>())
        return fd;
      if (parents[0].get<LambdaExpr>())
        return nullptr;
      node = parents[0];
    }
    return nullptr;
  }

  static const VarDecl *varOf(const Expr *e) {
    if (auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(dre->getDecl());
    return nullptr;
  }

  // Locals whose every write is visible here: an integer or a dim3 that no
  // pointer, reference or callee can reach.
  bool watched(const VarDecl *v) const {
    return v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && !v->getType()->isReferenceType() &&
           (v->getType()->isIntegralOrEnumerationType() || isDim3(v->getType())) && !writes_.escaped.count(v);
  }
  static int components(const VarDecl *v) { return isDim3(v->getType()) ? 3 : 1; }

  static Values lookup(const VarDecl *v, int c, const State &st) {
    auto it = st.find({v, c});
    return it == st.end() ? std::nullopt : it->second;
  }

  bool collectAncestors() {
    // From the body's parent map when given one that holds the launch (the
    // unit's map covers the whole translation unit; issue 19); a lambda's
    // body ends the walk there as its call operator ends it below.
    if (const ParentMap *pm = bodies_ ? bodies_->holding(fn_, launch_) : nullptr) {
      const Stmt *s = launch_;
      for (int guard = 0; guard < 512 && s; ++guard) {
        ancestors_.insert(s);
        if (s == fn_->getBody())
          return true;
        s = BodyParents::parentWithinFunction(*pm, s);
      }
      return false;
    }
    DynTypedNode node = DynTypedNode::create(*launch_);
    for (int guard = 0; guard < 512; ++guard) {
      if (const Stmt *s = node.get<Stmt>()) {
        ancestors_.insert(s);
        if (s == fn_->getBody())
          return true;
      }
      auto parents = ctx_.getParents(node);
      if (parents.size() != 1 || parents[0].get<FunctionDecl>())
        return false;
      node = parents[0];
    }
    return false;
  }
  bool holds(const Stmt *s) const { return s && ancestors_.count(s); }

  // Applies one write that runs; returns the slots it wrote.
  std::vector<Slot> apply(const Write &w, State &st) const {
    const Expr *lhs = w.lhs->IgnoreParenImpCasts();
    const VarDecl *v = varOf(lhs);
    int only = -1; // a single dim3 member
    if (!v)
      if (auto *me = dyn_cast<MemberExpr>(lhs); me && !me->isArrow()) {
        v = varOf(me->getBase());
        StringRef n = me->getMemberDecl()->getName();
        only = n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
        if (only < 0 || !v || !isDim3(v->getType()))
          return {};
      }
    if (!v || !watched(v) || !st.count({v, 0}))
      return {};
    State before = st;
    std::vector<Slot> wrote;
    for (int c = 0; c < components(v); ++c) {
      if (only >= 0 && c != only)
        continue;
      wrote.push_back({v, c});
      if (w.compound || !w.rhs)
        st[{v, c}] = std::nullopt;
      else
        st[{v, c}] = valueOf(w.rhs, only >= 0 ? 0 : c, before);
    }
    return wrote;
  }

  void declare(const VarDecl *v, State &st) const {
    if (!watched(v))
      return;
    for (int c = 0; c < components(v); ++c)
      st[{v, c}] = v->getInit() ? valueOf(v->getInit(), c, st) : std::nullopt;
  }

  // Every write in an expression or a declaration runs, in order.
  void straight(const Stmt *s, State &st) const {
    if (!s)
      return;
    if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d)) {
          if (v->getInit())
            straight(v->getInit(), st);
          declare(v, st);
        }
      return;
    }
    for (const Write &w : writesIn(s))
      apply(w, st);
  }

  // Writes in `s` that may or may not run, any number of times: each slot
  // they write keeps its value or takes one of theirs. Their right-hand
  // sides are read with every slot `s` writes unknown.
  void mayWrite(const Stmt *s, State &st) const {
    std::vector<Write> writes = writesIn(s);
    State inputs = st;
    for (const Write &w : writes) {
      State t = inputs;
      for (const Slot &slot : apply(w, t))
        inputs[slot] = std::nullopt;
    }
    for (const Write &w : writes) {
      State t = inputs;
      for (const Slot &slot : apply(w, t))
        st[slot] = unite(st[slot], t[slot]);
    }
  }

  // `s` does not hold the launch: the state after it.
  void pass(const Stmt *s, State &st) const {
    if (!s)
      return;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *child : cs->body())
        pass(child, st);
      return;
    }
    if (isa<DeclStmt>(s) || isa<Expr>(s)) {
      straight(s, st);
      return;
    }
    if (auto *rs = dyn_cast<ReturnStmt>(s)) {
      straight(rs->getRetValue(), st);
      return;
    }
    if (auto *is = dyn_cast<IfStmt>(s)) {
      pass(is->getInit(), st);
      straight(is->getConditionVariableDeclStmt(), st);
      straight(is->getCond(), st);
      State then = st, otherwise = st;
      pass(is->getThen(), then);
      pass(is->getElse(), otherwise);
      bool thenLeaves = leaves(is->getThen()), elseLeaves = is->getElse() && leaves(is->getElse());
      if (thenLeaves && !elseLeaves)
        st = std::move(otherwise);
      else if (elseLeaves && !thenLeaves)
        st = std::move(then);
      else
        st = unite(then, otherwise);
      return;
    }
    mayWrite(s, st); // loops, switch, try: some writes may run, some not
  }

  // `s` is the launch or holds it: the state where it runs. False when the
  // walk lost the launch.
  bool walk(const Stmt *s, State &st) const {
    if (!holds(s)) {
      pass(s, st);
      return false;
    }
    if (s == launch_)
      return true;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *child : cs->body())
        if (walk(child, st))
          return true;
      return false;
    }
    if (auto *is = dyn_cast<IfStmt>(s)) {
      pass(is->getInit(), st);
      straight(is->getConditionVariableDeclStmt(), st);
      if (holds(is->getCond()))
        return true;
      straight(is->getCond(), st);
      return holds(is->getThen()) ? walk(is->getThen(), st) : walk(is->getElse(), st);
    }
    if (auto *fs = dyn_cast<ForStmt>(s)) {
      if (holds(fs->getInit()))
        return true;
      pass(fs->getInit(), st);
      mayWrite(fs, st); // earlier iterations
      if (!holds(fs->getBody()))
        return true; // in the condition or the increment
      return walk(fs->getBody(), st);
    }
    const Stmt *body = nullptr;
    if (auto *ws = dyn_cast<WhileStmt>(s))
      body = ws->getBody();
    else if (auto *ds = dyn_cast<DoStmt>(s))
      body = ds->getBody();
    else if (auto *rs = dyn_cast<CXXForRangeStmt>(s))
      body = rs->getBody();
    if (body) {
      mayWrite(s, st);
      return holds(body) ? walk(body, st) : true;
    }
    if (isa<SwitchStmt>(s) || isa<CXXTryStmt>(s)) {
      mayWrite(s, st); // which case (or handler) ran before is not followed
      return true;
    }
    // An expression or declaration holding the launch, a case label, an
    // attributed statement: what runs before it in the same statement is
    // not followed.
    for (const Stmt *child : s->children())
      if (holds(child) && !isa<Expr>(s) && !isa<DeclStmt>(s))
        return walk(child, st);
    return true;
  }

  ASTContext &ctx_;
  const FunctionDecl *fn_;
  const Stmt *launch_;
  std::function<std::optional<int64_t>(const Expr *)> integer_;
  const std::vector<std::pair<const VarDecl *, int64_t>> &known_;
  LocalWrites writes_;
  int callDepth_;
  std::string *assumption_; // ReachingShapes::assumption
  BodyParents *bodies_;     // null: the unit's ASTContext parent map
  mutable std::shared_ptr<const LocalWrites> unitWrites_;
  mutable int globalDepth_ = 0;
  std::set<const Stmt *> ancestors_;
};

} // namespace

namespace {
class HostWriteCollector : public RecursiveASTVisitor<HostWriteCollector> {
public:
  std::vector<HostWrite> found;
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      found.push_back({b->getLHS(), b->getRHS(), b->isCompoundAssignmentOp()});
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
    if (c->isAssignmentOp() && c->getNumArgs() == 2)
      found.push_back({c->getArg(0), c->getArg(1), c->getOperator() != OO_Equal});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp())
      found.push_back({u->getSubExpr(), nullptr, true});
    return true;
  }
};
} // namespace

std::vector<HostWrite> hostWritesIn(const Stmt *s) {
  HostWriteCollector c;
  if (s)
    c.TraverseStmt(const_cast<Stmt *>(s));
  return std::move(c.found);
}

ReachingShapesUnitCache::ReachingShapesUnitCache() : data_(std::make_unique<Data>()), outer_(openUnitCache) {
  openUnitCache = data_.get();
}

ReachingShapesUnitCache::~ReachingShapesUnitCache() { openUnitCache = outer_; }

std::optional<ReachingShapes>
reachingBlockShapes(ASTContext &ctx, const FunctionDecl *fn, const Stmt *launch, const Expr *blockArg,
                    const std::function<std::optional<int64_t>(const Expr *)> &integer,
                    const std::vector<std::pair<const VarDecl *, int64_t>> &known, BodyParents *bodies) {
  if (!fn || !fn->getBody() || !launch || !blockArg)
    return std::nullopt;
  ReachingShapes out;
  PathWalker walker(ctx, fn, launch, integer, known, 0, &out.assumption, bodies);
  std::optional<State> st = walker.run();
  if (!st)
    return std::nullopt;
  std::set<int64_t> dims[3];
  for (int c = 0; c < 3; ++c) {
    Values v = walker.valueOf(blockArg, c, *st);
    if (!v || v->empty())
      return std::nullopt;
    dims[c] = *v;
  }
  if (dims[0].size() * dims[1].size() * dims[2].size() > kMaxShapes)
    return std::nullopt;
  for (int64_t x : dims[0])
    for (int64_t y : dims[1])
      for (int64_t z : dims[2])
        out.shapes.push_back(BlockShape{x, y, z});
  return out;
}

} // namespace warplint
