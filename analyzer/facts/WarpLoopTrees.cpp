// Per-warp trees written as a loop over a 32-lane tile
// (analyzer/facts/WarpHelperTails.h, WarpLoopTree): the loop, the guard on
// the lane's rank, the steps and the sync, in the functions of the unit's
// files (not system headers); what the rewrite cannot keep exactly is
// recorded as the refusal.
#include "analyzer/facts/WarpTailScanning.h"
#include "analyzer/facts/WarpHelperTails.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace warplint {

using namespace clang;
using namespace warp_tail_scanning;

namespace {

// The record of a cooperative_groups class (`thread_block_tile<32, ...>`,
// `thread_block`) that `e` has, or null.
const ClassTemplateSpecializationDecl *tileType(const Expr *e) {
  QualType t = e->getType().getNonReferenceType();
  auto *r = t->getAsCXXRecordDecl();
  auto *spec = r ? dyn_cast<ClassTemplateSpecializationDecl>(r) : nullptr;
  return spec && spec->getName() == "thread_block_tile" ? spec : nullptr;
}

// The width of the thread_block_tile `e` is, or 0.
int64_t tileWidth(const Expr *e) {
  auto *spec = tileType(e->IgnoreParenImpCasts());
  if (!spec || spec->getTemplateArgs().size() == 0 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 0;
  return spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
}

bool isThreadBlock(const Expr *e) {
  auto *r = e->IgnoreParenImpCasts()->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return r && r->getName() == "thread_block";
}

// `X.method()` with no arguments: X, or null.
// cooperative_groups declares many of these static (`tile.thread_rank()`
// is then a plain call through a member expression).
const Expr *memberCallOn(const Expr *e, llvm::StringRef method) {
  auto *c = dyn_cast<CallExpr>(e->IgnoreParenImpCasts());
  if (!c || c->getNumArgs() != 0)
    return nullptr;
  auto *m = dyn_cast<MemberExpr>(c->getCallee()->IgnoreParenImpCasts());
  if (!m || !m->getMemberDecl()->getDeclName().isIdentifier() || m->getMemberDecl()->getName() != method)
    return nullptr;
  return m->getBase()->IgnoreParenImpCasts();
}

// `L = R`, `L += R` or `L + R`, built in, or in a template pattern an
// operator call on dependent operands (`x += dx` with x a T: clang keeps it an
// unresolved operator call when some operator+= is declared, as
// cuda_fp16.hpp's is). The instances' types are checked apart.
struct Binary {
  BinaryOperatorKind op;
  const Expr *lhs, *rhs;
};
std::optional<Binary> binary(const Stmt *s) {
  if (auto *b = dyn_cast<BinaryOperator>(s))
    return Binary{b->getOpcode(), b->getLHS(), b->getRHS()};
  auto *c = dyn_cast<CXXOperatorCallExpr>(s);
  if (!c || c->getNumArgs() != 2 || !c->isTypeDependent())
    return std::nullopt;
  switch (c->getOperator()) {
  case OO_Equal:
    return Binary{BO_Assign, c->getArg(0), c->getArg(1)};
  case OO_PlusEqual:
    return Binary{BO_AddAssign, c->getArg(0), c->getArg(1)};
  case OO_Plus:
    return Binary{BO_Add, c->getArg(0), c->getArg(1)};
  default:
    return std::nullopt;
  }
}

class LoopTreeScan : public RecursiveASTVisitor<LoopTreeScan> {
public:
  explicit LoopTreeScan(ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  std::vector<WarpLoopTree> loops;

  bool TraverseDecl(Decl *d) { return inSystemHeader(sm_, d) || RecursiveASTVisitor::TraverseDecl(d); }
  bool TraverseFunctionDecl(FunctionDecl *fd) {
    if (!fd->doesThisDeclarationHaveABody())
      return true;
    const FunctionDecl *saved = fn_;
    fn_ = fd;
    bool r = RecursiveASTVisitor::TraverseFunctionDecl(fd);
    fn_ = saved;
    return r;
  }

  bool VisitForStmt(ForStmt *f) {
    if (!fn_ || f->getBeginLoc().isMacroID())
      return true;
    // for (int i = START; i > 0; i >>= 1 | i /= 2)
    auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit());
    auto *iv = ds && ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
    if (!iv || !iv->getInit() || !iv->getType()->isIntegerType())
      return true;
    auto *cond = dyn_cast_or_null<BinaryOperator>(f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
    Expr::EvalResult r;
    if (!cond || cond->getOpcode() != BO_GT || !refersTo(cond->getLHS(), iv) ||
        !cond->getRHS()->EvaluateAsInt(r, ctx_) || r.Val.getInt().getExtValue() != 0)
      return true;
    auto *inc = dyn_cast_or_null<CompoundAssignOperator>(f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr);
    if (!inc || !refersTo(inc->getLHS(), iv) || !inc->getRHS()->EvaluateAsInt(r, ctx_))
      return true;
    int64_t by = r.Val.getInt().getExtValue();
    if (!((inc->getOpcode() == BO_ShrAssign && by == 1) || (inc->getOpcode() == BO_DivAssign && by == 2)))
      return true;
    auto *body = dyn_cast<CompoundStmt>(f->getBody());
    if (!body)
      return true;
    std::vector<Stmt *> stmts;
    for (Stmt *st : body->body())
      if (!isa<NullStmt>(st))
        stmts.push_back(st);
    if (stmts.size() != 2)
      return true;
    auto *guard = dyn_cast<IfStmt>(stmts[0]);
    if (!guard || guard->getElse() || guard->getInit() || guard->getConditionVariable())
      return true;
    auto *gc = dyn_cast<BinaryOperator>(guard->getCond()->IgnoreParenImpCasts());
    if (!gc || gc->getOpcode() != BO_LT || !refersTo(gc->getRHS(), iv))
      return true;
    // The guard's body: one or more arrays, each in the register form
    // (`[temp = s[idx + i];] acc += temp | s[idx + i]; s[idx] = acc;`) or the
    // direct form (`s[idx] += s[idx + i];`), their statements interleaved.
    std::vector<Stmt *> then;
    if (auto *c = dyn_cast<CompoundStmt>(guard->getThen())) {
      for (Stmt *st : c->body())
        if (!isa<NullStmt>(st))
          then.push_back(st);
    } else
      then.push_back(guard->getThen());
    indexParams_.clear();
    WarpLoopTree t;
    struct Chain {
      const VarDecl *array = nullptr, *acc = nullptr, *temp = nullptr, *storeAcc = nullptr;
      int read = -1, add = -1, store = -1, direct = -1;
    };
    std::vector<Chain> chains;
    const Expr *own = nullptr;
    std::string ownText;
    auto chainOf = [&](const VarDecl *a) -> Chain & {
      for (Chain &c : chains)
        if (c.array == a)
          return c;
      chains.push_back(Chain{});
      chains.back().array = a;
      return chains.back();
    };
    auto other = [&](const Expr *e) -> const VarDecl * { // S[IDX + i]
      auto *a = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
      auto *add = a ? dyn_cast<BinaryOperator>(a->getIdx()->IgnoreParenImpCasts()) : nullptr;
      if (!add || add->getOpcode() != BO_Add || !refersTo(add->getRHS(), iv))
        return nullptr;
      const VarDecl *v = arrayOf(a->getBase());
      return v && isIndex(add->getLHS()) ? v : nullptr;
    };
    auto ownElement = [&](const Expr *e) -> const VarDecl * { // S[IDX], IDX spelled alike in every statement
      auto *a = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
      if (!a || !isIndex(a->getIdx()))
        return nullptr;
      const VarDecl *v = arrayOf(a->getBase());
      std::string idx = text(a->getIdx()->getSourceRange());
      if (!v || (own && idx != ownText))
        return nullptr;
      if (!own) {
        own = a->getIdx();
        ownText = idx;
      }
      return v;
    };
    auto local = [&](const Expr *e) -> const VarDecl * {
      auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      return v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && !v->getType()->isReferenceType() ? v : nullptr;
    };
    for (size_t n = 0; n < then.size(); ++n) {
      int at = static_cast<int>(n);
      std::optional<Binary> b = binary(then[n]);
      if (!b)
        return true;
      const VarDecl *a = nullptr, *l = nullptr;
      if (b->op == BO_AddAssign && (a = ownElement(b->lhs)) && other(b->rhs) == a) {
        Chain &c = chainOf(a); // S[IDX] += S[IDX + i];
        if (c.direct >= 0 || c.add >= 0)
          return true;
        c.direct = at;
      } else if (b->op == BO_Assign && (a = ownElement(b->lhs))) {
        std::optional<Binary> sum = binary(b->rhs->IgnoreParenImpCasts());
        if (sum && sum->op == BO_Add && text(sum->lhs->getSourceRange()) == text(b->lhs->getSourceRange()) &&
            other(sum->rhs) == a) {
          Chain &c = chainOf(a); // S[IDX] = S[IDX] + S[IDX + i];
          if (c.direct >= 0 || c.add >= 0)
            return true;
          c.direct = at;
        } else if ((l = local(b->rhs))) {
          Chain &c = chainOf(a); // S[IDX] = acc;
          if (c.store >= 0 || c.direct >= 0)
            return true;
          c.store = at;
          c.storeAcc = l;
        } else
          return true;
      } else if (b->op == BO_Assign && (l = local(b->lhs)) && (a = other(b->rhs))) {
        Chain &c = chainOf(a); // temp = S[IDX + i];
        if (c.read >= 0 || c.direct >= 0)
          return true;
        c.read = at;
        c.temp = l;
      } else if (b->op == BO_AddAssign && (l = local(b->lhs))) {
        Chain *c = nullptr; // acc += temp; or acc += S[IDX + i];
        if (const VarDecl *tv = local(b->rhs)) {
          for (Chain &x : chains)
            if (x.temp == tv && x.read >= 0)
              c = &x;
        } else if ((a = other(b->rhs)))
          c = &chainOf(a);
        if (!c || c->add >= 0 || c->direct >= 0)
          return true;
        c->add = at;
        c->acc = l;
      } else
        return true;
    }
    if (chains.empty() || !own)
      return true;
    bool direct = chains.front().direct >= 0;
    std::set<const VarDecl *> locals;
    size_t localCount = 0;
    for (const Chain &c : chains) {
      if ((c.direct >= 0) != direct)
        return true;
      if (direct)
        continue;
      // read < add < store, the store of the chain's own running value
      if (c.add < 0 || c.store < 0 || c.store < c.add || (c.temp && c.read > c.add) || c.storeAcc != c.acc)
        return true;
      locals.insert(c.acc);
      ++localCount;
      if (c.temp) {
        locals.insert(c.temp);
        ++localCount;
      }
    }
    if (locals.size() != localCount)
      return true; // one local serves two roles
    // Register form: the guard's non-store statements in source order.
    if (!direct)
      for (size_t n = 0; n < then.size(); ++n)
        for (size_t ci = 0; ci < chains.size(); ++ci) {
          if (chains[ci].read == static_cast<int>(n))
            t.order.push_back({static_cast<int>(ci), 'r'});
          if (chains[ci].add == static_cast<int>(n))
            t.order.push_back({static_cast<int>(ci), 'a'});
        }
    const VarDecl *array = chains.front().array;
    // The sync after the guard.
    std::string syncWhy;
    const Expr *sync = dyn_cast<Expr>(stmts[1]);
    if (!isWarpSync(sync, syncWhy) && syncWhy.empty())
      return true; // not this shape at all
    t.loc = toLocation(sm_, f->getForLoc());
    t.firstLine = sm_.getPresumedLineNumber(sm_.getExpansionLoc(f->getBeginLoc()));
    t.lastLine = sm_.getPresumedLineNumber(sm_.getExpansionLoc(f->getEndLoc()));
    t.span = fileSpan(ctx_, CharSourceRange::getTokenRange(f->getSourceRange()));
    t.function = fn_->getNameAsString();
    t.inHelper = !fn_->hasAttr<CUDAGlobalAttr>();
    auto elementOf = [](const VarDecl *v) {
      return v->getType()->isPointerType() ? v->getType()->getPointeeType()
                                           : QualType(v->getType()->getPointeeOrArrayElementType(), 0);
    };
    QualType elem = elementOf(array);
    t.elementType = elem.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    t.indexText = text(own->getSourceRange());
    t.rankText = text(gc->getLHS()->getSourceRange());
    t.loopVar = iv->getNameAsString();
    t.syncText = sync ? text(sync->getSourceRange()) : "";
    t.indent = lineIndent(f->getForLoc());
    t.innerIndent = lineIndent(stmts[0]->getBeginLoc());
    if (t.innerIndent.size() <= t.indent.size())
      t.innerIndent = t.indent + "  ";
    std::set<std::string> taken = functionFacts().names;
    auto fresh = [&](std::string base) {
      std::string n = base;
      for (int k = 2; taken.count(n); ++k)
        n = base + std::to_string(k);
      taken.insert(n);
      return n;
    };
    for (const Chain &c : chains) {
      WarpLoopChain wc;
      wc.array = c.array->getNameAsString();
      wc.elementType = elementOf(c.array).getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
      wc.accName = c.acc ? c.acc->getNameAsString() : "";
      wc.tempName = c.temp ? c.temp->getNameAsString() : "";
      wc.valueName = fresh("wl_other");
      wc.accValueName = fresh("wl_sum");
      t.chains.push_back(wc);
    }
    t.array = t.chains.front().array;
    t.accName = t.chains.front().accName;
    t.tempName = t.chains.front().tempName;
    t.valueName = t.chains.front().valueName;
    t.accValueName = t.chains.front().accValueName;
    // What the AST rules out.
    int64_t start = 0;
    if (iv->getInit()->EvaluateAsInt(r, ctx_))
      start = r.Val.getInt().getExtValue();
    else if (auto *div = dyn_cast<BinaryOperator>(iv->getInit()->IgnoreParenImpCasts());
             div && div->getOpcode() == BO_Div && div->getRHS()->EvaluateAsInt(r, ctx_)) {
      int64_t d = r.Val.getInt().getExtValue();
      if (const Expr *x = memberCallOn(div->getLHS(), "size"); x && tileWidth(x) && d)
        start = tileWidth(x) / d;
    }
    std::string rankWhy = rankProblem(gc->getLHS());
    if (t.inHelper)
      for (const Chain &c : chains)
        if (auto *p = dyn_cast<ParmVarDecl>(c.array))
          t.arrayParams.push_back(static_cast<int>(p->getFunctionScopeIndex()));
    t.indexParams.assign(indexParams_.begin(), indexParams_.end());
    if (!syncWhy.empty())
      t.refusal = syncWhy;
    else if (inKeptBranch(f))
      t.refusal = "the loop runs only in blocks that are not whole warps (the `else` of `if (blockDim.x % 32 == "
                  "0)`), where shuffles over the full warp would not be exact";
    else if (start != 16)
      t.refusal = "the loop starts at `" + text(iv->getInit()->getSourceRange()) + "`" +
                  (start ? " = " + std::to_string(start) : std::string(" (not a constant)")) +
                  ", not 16: the tree is not over 32 lanes";
    else if (!rankWhy.empty())
      t.refusal = rankWhy;
    else if (functionFacts().written.count(iv) > 0 && countWrites(f->getBody(), iv))
      t.refusal = "the loop variable '" + t.loopVar + "' is written in the loop's body";
    else if (t.inHelper && t.arrayParams.size() != chains.size() && chains.size() > 1)
      t.refusal = "the loop reduces " + std::to_string(chains.size()) +
                  " arrays and not all are the helper's parameters: the calls cannot show they are distinct";
    else {
      for (const Chain &c : chains) {
        QualType e = elementOf(c.array);
        std::string name = c.array->getNameAsString();
        if (e.getUnqualifiedType().getCanonicalType() != elem.getUnqualifiedType().getCanonicalType()) {
          t.refusal = "'" + name + "' holds '" + e.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy()) +
                      "' where '" + t.array + "' holds '" + t.elementType + "'";
          break;
        }
        if (c.acc && c.acc->getType().getUnqualifiedType().getCanonicalType() !=
                         e.getUnqualifiedType().getCanonicalType()) {
          t.refusal = "'" + c.acc->getNameAsString() + "' is '" + c.acc->getType().getAsString(ctx_.getPrintingPolicy()) +
                      "' where the array holds '" + t.elementType +
                      "': the array's copy of it is rounded, the register's is not";
          break;
        }
        if (c.temp && c.temp->getType().getUnqualifiedType().getCanonicalType() !=
                          e.getUnqualifiedType().getCanonicalType()) {
          t.refusal = "'" + c.temp->getNameAsString() + "' is '" +
                      c.temp->getType().getAsString(ctx_.getPrintingPolicy()) + "' where the array '" + name +
                      "' holds '" + t.elementType + "'";
          break;
        }
      }
      if (t.refusal.empty())
        t.refusal = elementTypeProblem(array, elem, t.elementType);
    }
    loops.push_back(std::move(t));
    functions.push_back(fn_->getCanonicalDecl());
    return true;
  }

private:
  bool refersTo(const Expr *e, const VarDecl *v) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == v;
  }
  // The loop is the `else` of `if (blockDim.x % 32 == 0)` (the fix keeps
  // the loop there for blocks that are not whole warps).
  bool inKeptBranch(const ForStmt *f) {
    const Stmt *child = f;
    for (int up = 0; up < 2; ++up) {
      auto parents = ctx_.getParents(*child);
      if (parents.size() != 1)
        return false;
      const Stmt *p = parents[0].get<Stmt>();
      if (auto *ifs = dyn_cast_or_null<IfStmt>(p))
        return ifs->getElse() == child && text(ifs->getCond()->getSourceRange()) == "blockDim.x % 32 == 0";
      auto *cs = dyn_cast_or_null<CompoundStmt>(p);
      if (!cs || cs->size() != 1)
        return false;
      child = cs;
    }
    return false;
  }
  int countWrites(const Stmt *s, const VarDecl *v) {
    BodyFacts b;
    b.TraverseStmt(const_cast<Stmt *>(s));
    return b.written.count(v);
  }
  // A shared array, or a pointer parameter of a helper (the caller's array).
  const VarDecl *arrayOf(const Expr *e) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v)
      return nullptr;
    if (v->hasAttr<CUDASharedAttr>() && v->getType()->isArrayType())
      return v;
    if (isa<ParmVarDecl>(v) && v->getType()->isPointerType() && !functionFacts().written.count(v))
      return v;
    return nullptr;
  }
  // threadIdx.x, the block's thread_rank(), or a local never written set from one.
  bool isIndex(const Expr *e, int depth = 0) {
    if (isThreadIdxX(e))
      return true;
    if (const Expr *x = memberCallOn(e, "thread_rank"); x && isThreadBlock(x))
      return true;
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    // In a __device__ helper, an integer parameter never written is taken as
    // the caller's index, so that the loop is recognized (and refused: its
    // calls are not checked).
    if (v && isa<ParmVarDecl>(v) && fn_ && !fn_->hasAttr<CUDAGlobalAttr>() && v->getType()->isIntegerType() &&
        !functionFacts().written.count(v)) {
      indexParams_.insert(static_cast<int>(cast<ParmVarDecl>(v)->getFunctionScopeIndex()));
      return true;
    }
    if (depth > 2 || !v || isa<ParmVarDecl>(v) || !v->hasLocalStorage() || !v->getInit() || functionFacts().written.count(v) ||
        !v->getType()->isIntegerType())
      return false;
    return isIndex(v->getInit(), depth + 1);
  }
  // Why `e` is not the lane in its warp: a tile's thread_rank() (32 wide), or
  // `IDX & 31` / `IDX % 32`, or a local never written set from one.
  std::string rankProblem(const Expr *e, int depth = 0) {
    std::string as = "`" + text(e->getSourceRange()) + "`";
    if (const Expr *x = memberCallOn(e, "thread_rank")) {
      int64_t w = tileWidth(x);
      if (w == 32)
        return "";
      if (w)
        return "the guard's " + as + " is the rank in a tile of " + std::to_string(w) +
               " threads, not 32: a shuffle over the warp would mix tiles";
      return "the guard's " + as + " is not the rank in a 32-thread tile";
    }
    Expr::EvalResult r;
    if (auto *b = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts())) {
      if ((b->getOpcode() == BO_And || b->getOpcode() == BO_Rem) && isIndex(b->getLHS()) &&
          b->getRHS()->EvaluateAsInt(r, ctx_)) {
        int64_t m = r.Val.getInt().getExtValue();
        if ((b->getOpcode() == BO_And && m == 31) || (b->getOpcode() == BO_Rem && m == 32))
          return "";
        return "the guard's " + as + " is the lane in a group of " +
               std::to_string(b->getOpcode() == BO_And ? m + 1 : m) + " threads, not 32";
      }
    }
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (depth < 2 && v && !isa<ParmVarDecl>(v) && v->hasLocalStorage() && v->getInit() && !functionFacts().written.count(v) &&
        v->getType()->isIntegerType())
      return rankProblem(v->getInit(), depth + 1);
    return "the guard's " + as + " is not the lane in a 32-thread tile (a tile's thread_rank(), or the thread index "
           "& 31 or % 32)";
  }
  // cg::sync(T), T.sync() or __syncwarp() over a 32-lane tile or the full
  // warp. False with `why` empty when it is no sync at all.
  bool isWarpSync(const Expr *e, std::string &why) {
    if (!e)
      return false;
    e = e->IgnoreParenImpCasts();
    std::string as = "`" + text(e->getSourceRange()) + "`";
    if (const Expr *x = memberCallOn(e, "sync")) {
      int64_t w = tileWidth(x);
      if (w == 32)
        return true;
      why = "the loop's " + as + " syncs " + (w ? "a tile of " + std::to_string(w) + " threads" : "not a tile") +
            ", not a full warp: a shuffle with mask 0xffffffff needs all 32 lanes";
      return false;
    }
    auto *c = dyn_cast<CallExpr>(e);
    const FunctionDecl *fd = c ? c->getDirectCallee() : nullptr;
    // Operators, constructors and conversions have no identifier (getName() asserts on them).
    if (!fd || !fd->getDeclName().isIdentifier())
      return false;
    if (fd->getName() == "__syncwarp") {
      Expr::EvalResult r;
      if (c->getNumArgs() == 0 || (c->getArg(0)->isDefaultArgument()))
        return true;
      if (c->getArg(0)->EvaluateAsInt(r, ctx_) && r.Val.getInt().getZExtValue() == 0xffffffffu)
        return true;
      why = "the loop's " + as + " has a mask that is not 0xffffffff (or not a constant): the shuffle needs all 32 "
            "lanes";
      return false;
    }
    if (fd->getName() == "sync" && c->getNumArgs() == 1) {
      int64_t w = tileWidth(c->getArg(0));
      if (w == 32)
        return true;
      why = "the loop's " + as + " syncs " + (w ? "a tile of " + std::to_string(w) + " threads" : "not a 32-lane tile") +
            ", not a full warp: a shuffle with mask 0xffffffff needs all 32 lanes";
      return false;
    }
    return false;
  }
  // Why the element type is not one the shuffle moves as it is, or "". A
  // template's dependent type is checked in every instance: the array is
  // then a parameter of the function template.
  std::string elementTypeProblem(const VarDecl *array, QualType elem, const std::string &spelled) {
    if (!elem->isDependentType())
      return shuffleType(elem.getUnqualifiedType())
                 ? ""
                 : "the element type '" + spelled + "' is not one __shfl_down_sync moves as it is";
    auto *p = dyn_cast<ParmVarDecl>(array);
    const FunctionTemplateDecl *tmpl = fn_ ? fn_->getDescribedFunctionTemplate() : nullptr;
    if (!p || !tmpl)
      return "the element type '" + spelled + "' depends on a template and the array is not a parameter of a "
             "function template, so its instances' types are not checked";
    int n = 0;
    for (const FunctionDecl *inst : tmpl->specializations()) {
      if (!inst->isTemplateInstantiation() || p->getFunctionScopeIndex() >= inst->getNumParams())
        continue;
      QualType t = inst->getParamDecl(p->getFunctionScopeIndex())->getType();
      if (!t->isPointerType())
        return "the instance " + instanceName(inst) + " does not take '" + array->getNameAsString() + "' as a pointer";
      QualType e = t->getPointeeType().getUnqualifiedType();
      if (!shuffleType(e))
        return "in the instance " + instanceName(inst) + " the element type '" +
               e.getAsString(ctx_.getPrintingPolicy()) + "' is not one __shfl_down_sync moves as it is";
      ++n;
    }
    return n ? "" : "the element type '" + spelled + "' depends on a template that has no instance here";
  }
  std::string instanceName(const FunctionDecl *fd) {
    std::string s;
    llvm::raw_string_ostream os(s);
    fd->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), /*Qualified=*/false);
    return os.str();
  }
  std::string text(SourceRange r) { return sourceText(ctx_, r); }
  std::string lineIndent(clang::SourceLocation loc) { return warp_tail_scanning::lineIndent(sm_, loc); }

  ASTContext &ctx_;
  SourceManager &sm_;
  const FunctionDecl *fn_ = nullptr;
  // The current function's writes and names, walked when one of its loops
  // first has the shape (most functions have none; a stencil's bodies are
  // long).
  std::map<const FunctionDecl *, BodyFacts> bodies_;
  BodyFacts &functionFacts() {
    auto it = bodies_.find(fn_);
    if (it == bodies_.end()) {
      BodyFacts b;
      b.TraverseStmt(fn_->getBody());
      it = bodies_.emplace(fn_, std::move(b)).first;
    }
    return it->second;
  }
  std::set<int> indexParams_; // helper parameters isIndex took as the caller's index, for the loop being read

public:
  std::vector<const FunctionDecl *> functions; // parallel to `loops`: the function each is written in
};

// Every call of the __device__ helpers that hold a loop-form tree, template
// instances of one call counted once, each checked for what the rewrite
// needs of its arguments: threadIdx.x (or a local of the caller set once from
// it) for the index parameters, and distinct __shared__ arrays when the loop
// reduces several.
class LoopHelperCalls : public RecursiveASTVisitor<LoopHelperCalls> {
public:
  LoopHelperCalls(ASTContext &ctx, std::vector<WarpLoopTree> &loops, const std::vector<const FunctionDecl *> &fns)
      : ctx_(ctx), sm_(ctx.getSourceManager()), loops_(loops), fns_(fns) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *d) { return inSystemHeader(sm_, d) || RecursiveASTVisitor::TraverseDecl(d); }
  bool TraverseFunctionDecl(FunctionDecl *fd) {
    const FunctionDecl *saved = current_;
    current_ = fd;
    bool r = RecursiveASTVisitor::TraverseFunctionDecl(fd);
    current_ = saved;
    return r;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *md) {
    const FunctionDecl *saved = current_;
    current_ = md;
    bool r = RecursiveASTVisitor::TraverseCXXMethodDecl(md);
    current_ = saved;
    return r;
  }

  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return true;
    const FunctionDecl *p = callee->getTemplateInstantiationPattern();
    p = (p ? p : callee)->getCanonicalDecl();
    for (size_t i = 0; i < loops_.size(); ++i) {
      if (!loops_[i].inHelper || !fns_[i] || fns_[i]->getCanonicalDecl() != p)
        continue;
      HelperTailCall c;
      c.loc = toLocation(sm_, call->getBeginLoc());
      std::string key = std::to_string(i) + "@" + c.loc.file + ":" + std::to_string(c.loc.line) + ":" +
                        std::to_string(c.loc.column);
      if (!seen_.insert(key).second)
        continue; // another instance of the same call
      c.caller = current_ ? current_->getNameAsString() : "";
      c.problem = problem(call, loops_[i]);
      loops_[i].calls.push_back(c);
    }
    return true;
  }

private:
  std::string problem(const CallExpr *call, const WarpLoopTree &t) {
    if (call->getBeginLoc().isMacroID())
      return "the call is written through a macro";
    for (int k : t.indexParams) {
      if (static_cast<unsigned>(k) >= call->getNumArgs() || !current_)
        return "the call passes no argument for the index parameter " + std::to_string(k + 1);
      const Expr *arg = call->getArg(k);
      if (!threadIndexArgs_.isThreadIndex(arg, current_))
        return "it passes `" + sourceText(ctx_, arg->getSourceRange()) + "` as the helper's parameter " +
               std::to_string(k + 1) + ", which the loop uses as the thread index, not threadIdx.x (or a local set "
               "once from it), so nothing shows that the lane the loop computes from it is the lane in the warp";
    }
    if (t.arrayParams.size() > 1) {
      std::set<const VarDecl *> arrays;
      for (int k : t.arrayParams) {
        if (static_cast<unsigned>(k) >= call->getNumArgs())
          return "the call passes no argument for the array parameter " + std::to_string(k + 1);
        const Expr *arg = call->getArg(k)->IgnoreParenImpCasts();
        auto *d = dyn_cast<DeclRefExpr>(arg);
        auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
        if (!v || !v->hasAttr<CUDASharedAttr>() || !v->getType()->isArrayType())
          return "it passes `" + sourceText(ctx_, arg->getSourceRange()) +
                 "`, not a __shared__ array by name, for one of the " + std::to_string(t.arrayParams.size()) +
                 " arrays the loop reduces: they may be the same memory";
        if (!arrays.insert(v).second)
          return "it passes '" + v->getNameAsString() + "' for two of the arrays the loop reduces";
      }
    }
    return "";
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  std::vector<WarpLoopTree> &loops_;
  const std::vector<const FunctionDecl *> &fns_;
  const FunctionDecl *current_ = nullptr;
  std::set<std::string> seen_;
  ThreadIndexArguments threadIndexArgs_;
};

} // namespace

std::vector<WarpLoopTree> warp_tail_scanning::findWarpLoopTrees(ASTContext &ctx) {
  LoopTreeScan loops(ctx);
  loops.TraverseDecl(ctx.getTranslationUnitDecl());
  if (std::any_of(loops.loops.begin(), loops.loops.end(), [](const WarpLoopTree &t) { return t.inHelper; })) {
    LoopHelperCalls calls(ctx, loops.loops, loops.functions);
    calls.TraverseDecl(ctx.getTranslationUnitDecl());
  }
  return std::move(loops.loops);
}

} // namespace warplint
