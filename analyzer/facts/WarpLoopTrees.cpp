// Per-warp trees written as a loop over a 32-lane tile
// (analyzer/facts/WarpHelperTails.h, WarpLoopTree): the loop, the guard on
// the lane's rank, the steps and the sync, in the functions of the unit's
// files (not system headers); what the rewrite cannot keep exactly is
// recorded as the refusal.
#include "analyzer/facts/WarpTailScanning.h"
#include "analyzer/facts/WarpHelperTails.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
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
  if (!m || m->getMemberDecl()->getName() != method)
    return nullptr;
  return m->getBase()->IgnoreParenImpCasts();
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
    BodyFacts body;
    body.TraverseStmt(fd->getBody());
    fn_ = fd;
    body_ = &body;
    bool r = RecursiveASTVisitor::TraverseFunctionDecl(fd);
    fn_ = saved;
    body_ = nullptr;
    return r;
  }

  bool VisitForStmt(ForStmt *f) {
    if (!fn_ || !body_ || f->getBeginLoc().isMacroID())
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
    // The guard's body: the register form or the direct form.
    std::vector<Stmt *> then;
    if (auto *c = dyn_cast<CompoundStmt>(guard->getThen())) {
      for (Stmt *st : c->body())
        if (!isa<NullStmt>(st))
          then.push_back(st);
    } else
      then.push_back(guard->getThen());
    WarpLoopTree t;
    const VarDecl *array = nullptr, *acc = nullptr, *temp = nullptr;
    const Expr *own = nullptr;
    auto other = [&](const Expr *e) { // S[IDX + i]
      auto *a = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
      auto *add = a ? dyn_cast<BinaryOperator>(a->getIdx()->IgnoreParenImpCasts()) : nullptr;
      if (!add || add->getOpcode() != BO_Add || !refersTo(add->getRHS(), iv))
        return false;
      const VarDecl *v = arrayOf(a->getBase());
      if (!v || (array && v != array) || !isIndex(add->getLHS()))
        return false;
      array = v;
      return true;
    };
    auto ownElement = [&](const Expr *e) { // S[IDX]
      auto *a = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
      if (!a || !isIndex(a->getIdx()))
        return false;
      const VarDecl *v = arrayOf(a->getBase());
      if (!v || (array && v != array))
        return false;
      array = v;
      own = a->getIdx();
      return true;
    };
    auto local = [&](const Expr *e) -> const VarDecl * {
      auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      return v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && !v->getType()->isReferenceType() ? v : nullptr;
    };
    bool matched = false;
    if (then.size() == 1) { // S[IDX] += S[IDX + i]; or S[IDX] = S[IDX] + S[IDX + i];
      auto *b = dyn_cast<BinaryOperator>(then[0]);
      if (b && b->getOpcode() == BO_AddAssign && ownElement(b->getLHS()) && other(b->getRHS()))
        matched = true;
      else if (b && b->getOpcode() == BO_Assign && ownElement(b->getLHS())) {
        auto *add = dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParenImpCasts());
        std::string lhs = text(b->getLHS()->getSourceRange());
        if (add && add->getOpcode() == BO_Add && text(add->getLHS()->getSourceRange()) == lhs && other(add->getRHS()))
          matched = true;
      }
    } else if (then.size() == 2 || then.size() == 3) {
      size_t k = 0;
      const Expr *read = nullptr;
      if (then.size() == 3) { // temp = S[IDX + i];
        auto *b = dyn_cast<BinaryOperator>(then[0]);
        if (!b || b->getOpcode() != BO_Assign || !(temp = local(b->getLHS())) || !other(b->getRHS()))
          return true;
        read = b->getRHS();
        k = 1;
      }
      auto *add = dyn_cast<CompoundAssignOperator>(then[k]);
      auto *store = dyn_cast<BinaryOperator>(then[k + 1]);
      if (add && add->getOpcode() == BO_AddAssign && (acc = local(add->getLHS())) &&
          (temp ? local(add->getRHS()) == temp : other(add->getRHS())) && store && store->getOpcode() == BO_Assign &&
          ownElement(store->getLHS()) && local(store->getRHS()) == acc && acc != temp)
        matched = true;
      (void)read;
    }
    if (!matched || !array || !own)
      return true;
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
    t.array = array->getNameAsString();
    QualType elem = array->getType()->isPointerType() ? array->getType()->getPointeeType()
                                                       : QualType(array->getType()->getPointeeOrArrayElementType(), 0);
    t.elementType = elem.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    t.indexText = text(own->getSourceRange());
    t.rankText = text(gc->getLHS()->getSourceRange());
    t.loopVar = iv->getNameAsString();
    t.accName = acc ? acc->getNameAsString() : "";
    t.tempName = temp ? temp->getNameAsString() : "";
    t.syncText = sync ? text(sync->getSourceRange()) : "";
    t.indent = lineIndent(f->getForLoc());
    t.innerIndent = lineIndent(stmts[0]->getBeginLoc());
    if (t.innerIndent.size() <= t.indent.size())
      t.innerIndent = t.indent + "  ";
    auto fresh = [&](std::string base) {
      std::string n = base;
      for (int k = 2; body_->names.count(n); ++k)
        n = base + std::to_string(k);
      return n;
    };
    t.valueName = fresh("wl_other");
    t.accValueName = fresh("wl_sum");
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
    if (!syncWhy.empty())
      t.refusal = syncWhy;
    else if (start != 16)
      t.refusal = "the loop starts at `" + text(iv->getInit()->getSourceRange()) + "`" +
                  (start ? " = " + std::to_string(start) : std::string(" (not a constant)")) +
                  ", not 16: the tree is not over 32 lanes";
    else if (!rankWhy.empty())
      t.refusal = rankWhy;
    else if (body_->written.count(iv) > 0 && countWrites(f->getBody(), iv))
      t.refusal = "the loop variable '" + t.loopVar + "' is written in the loop's body";
    else if (!shuffleType(elem.getUnqualifiedType()))
      t.refusal = "the element type '" + t.elementType + "' is not one __shfl_down_sync moves as it is";
    else if (acc && acc->getType().getUnqualifiedType().getCanonicalType() !=
                        elem.getUnqualifiedType().getCanonicalType())
      t.refusal = "'" + t.accName + "' is '" + acc->getType().getAsString(ctx_.getPrintingPolicy()) +
                  "' where the array holds '" + t.elementType +
                  "': the array's copy of it is rounded, the register's is not";
    loops.push_back(std::move(t));
    return true;
  }

private:
  bool refersTo(const Expr *e, const VarDecl *v) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == v;
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
    if (isa<ParmVarDecl>(v) && v->getType()->isPointerType() && !body_->written.count(v))
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
        !body_->written.count(v))
      return true;
    if (depth > 2 || !v || isa<ParmVarDecl>(v) || !v->hasLocalStorage() || !v->getInit() || body_->written.count(v) ||
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
    if (depth < 2 && v && !isa<ParmVarDecl>(v) && v->hasLocalStorage() && v->getInit() && !body_->written.count(v) &&
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
    if (!fd)
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
  std::string text(SourceRange r) { return sourceText(ctx_, r); }
  std::string lineIndent(clang::SourceLocation loc) { return warp_tail_scanning::lineIndent(sm_, loc); }

  ASTContext &ctx_;
  SourceManager &sm_;
  const FunctionDecl *fn_ = nullptr;
  BodyFacts *body_ = nullptr;
};

} // namespace

std::vector<WarpLoopTree> warp_tail_scanning::findWarpLoopTrees(ASTContext &ctx) {
  LoopTreeScan loops(ctx);
  loops.TraverseDecl(ctx.getTranslationUnitDecl());
  return std::move(loops.loops);
}

} // namespace warplint
