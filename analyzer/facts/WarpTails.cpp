// Unrolled warp tails in the AST (analyzer/facts/WarpTails.h): an `if`
// whose condition is `tid < 32` (tid threadIdx.x, or a local initialized
// from it and never written) and whose braces hold steps
// `s[tid] OP= s[tid + k]`, `s[tid] = s[tid] OP s[tid + k]` or
// `s[tid] = f(s[tid], s[tid + k])` on one shared array (directly or through
// a local pointer set to it, usually volatile), with __syncwarp() between
// them or not. Anything else in the braces is recorded as the refusal, so the
// rule can say why it offers no rewrite.
// The step parser (TailFinder) also reads a __device__ helper's body for
// WarpHelperTails.cpp (parseHelperTail).
#include "analyzer/facts/WarpTails.h"
#include "analyzer/facts/WarpTailScanning.h"
#include "analyzer/facts/WarpHelperTails.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/results/WarpExchange.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>
#include <set>

namespace warplint {

using namespace clang;
using namespace warp_tail_scanning;

namespace {

class TailFinder : public RecursiveASTVisitor<TailFinder> {
public:
  TailFinder(ASTContext &ctx, const FunctionDecl *fn, const BodyFacts &body)
      : ctx_(ctx), sm_(ctx.getSourceManager()), fn_(fn), body_(body) {}

  std::vector<WarpTail> tails;

  bool VisitIfStmt(IfStmt *s) {
    if (s->getElse() || s->getInit() || s->getConditionVariable())
      return true;
    auto *cond = dyn_cast<BinaryOperator>(s->getCond()->IgnoreParenImpCasts());
    if (!cond || cond->getOpcode() != BO_LT || !isTid(cond->getLHS()))
      return true;
    Expr::EvalResult r;
    if (!cond->getRHS()->EvaluateAsInt(r, ctx_) || r.Val.getInt().getExtValue() != 32)
      return true;
    auto *then = dyn_cast<CompoundStmt>(s->getThen());
    if (!then)
      return true;
    WarpTail t;
    aliases_.clear();
    array_ = nullptr;
    t.loc = toLocation(sm_, s->getIfLoc());
    t.firstLine = sm_.getPresumedLineNumber(sm_.getExpansionLoc(then->getLBracLoc()));
    t.lastLine = sm_.getPresumedLineNumber(sm_.getExpansionLoc(then->getRBracLoc()));
    t.body = fileSpan(ctx_, CharSourceRange::getTokenRange(then->getSourceRange()));
    t.tidText = text(cond->getLHS()->getSourceRange());
    t.indent = lineIndent(s->getIfLoc());
    if (!then->body_empty())
      t.innerIndent = lineIndent((*then->body_begin())->getBeginLoc());
    if (t.innerIndent.size() <= t.indent.size())
      t.innerIndent = t.indent + "  ";
    for (Stmt *st : then->body()) {
      if (isa<NullStmt>(st))
        continue;
      std::string why;
      if (st->getBeginLoc().isMacroID() || st->getEndLoc().isMacroID())
        why = "the statement at line " + line(st) + " is written through a macro";
      else if (auto *ds = dyn_cast<DeclStmt>(st))
        why = alias(ds);
      else if (isSyncwarp(st))
        ++t.syncwarps;
      else if (auto *e = dyn_cast<Expr>(st)) {
        WarpTailStep step;
        why = parseStep(e, step);
        if (why.empty())
          t.steps.push_back(step);
      } else
        why = "the tail holds another statement at line " + line(st);
      if (!why.empty() && t.refusal.empty())
        t.refusal = why;
    }
    if (t.steps.empty())
      return true; // not a tail: a guard on warp 0 that does something else
    if (!array_) {
      if (t.refusal.empty())
        t.refusal = "the steps reach no shared array";
      tails.push_back(t);
      return true;
    }
    t.array = array_->getNameAsString();
    QualType elem = ctx_.getAsArrayType(array_->getType()) ? ctx_.getAsArrayType(array_->getType())->getElementType()
                                                           : QualType();
    if (!elem.isNull())
      t.elementType = elem.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    if (t.refusal.empty() && (elem.isNull() || !shuffleType(elem)))
      t.refusal = "the element type '" + t.elementType + "' of '" + t.array +
                  "' is not one __shfl_down_sync moves as it is (int, unsigned, long long, unsigned long long, "
                  "float, double)";
    for (const auto &[v, elemOfAlias] : aliases_)
      if (t.refusal.empty() && !ctx_.hasSameType(elemOfAlias, elem.getUnqualifiedType()))
        t.refusal = "the pointer '" + v->getNameAsString() + "' reads '" + t.array + "' as another type";
    if (t.refusal.empty() && !t.body.valid())
      t.refusal = "the tail's braces are not written in one place of a file";
    if (t.refusal.empty() && (fn_->isTemplateInstantiation() || fn_->isDependentContext() ||
                              fn_->getTemplateSpecializationKind() != TSK_Undeclared ||
                              (isa<CXXMethodDecl>(fn_) && cast<CXXMethodDecl>(fn_)->getParent()->getDescribedClassTemplate())))
      t.refusal = "the tail is in a template: the rewrite would change every instantiation, and each is checked "
                  "on its own";
    t.valueName = "v";
    for (int n = 0; body_.names.count(t.valueName) || t.valueName == t.array || t.valueName == t.tidText; ++n)
      t.valueName = "v" + std::to_string(n);
    tails.push_back(t);
    return true;
  }

  // The body of __device__ helper `fd` (an instance: types are known) as a
  // warp tail: steps on a pointer parameter at a tid parameter, each
  // unguarded or under `if (CONSTANT)`, __syncwarp() between them or not; or
  // the register form `T v = s[t]; v += s[t + k]; s[t] = v; ...`. False when
  // the body holds no step at all (not a tail); `h.tail.refusal` says why a
  // tail cannot be rewritten.
  bool parseHelper(const FunctionDecl *fd, HelperWarpTail &h) {
    auto *body = dyn_cast_or_null<CompoundStmt>(fd->getBody());
    if (!body)
      return false;
    helper_ = fd;
    tidParam_ = nullptr;
    array_ = nullptr;
    aliases_.clear();
    WarpTail &t = h.tail;
    t.loc = toLocation(sm_, body->getLBracLoc());
    t.firstLine = sm_.getPresumedLineNumber(sm_.getExpansionLoc(body->getLBracLoc()));
    t.lastLine = sm_.getPresumedLineNumber(sm_.getExpansionLoc(body->getRBracLoc()));
    t.body = fileSpan(ctx_, CharSourceRange::getTokenRange(body->getSourceRange()));
    t.indent = lineIndent(fd->getBeginLoc());
    if (!body->body_empty())
      t.innerIndent = lineIndent((*body->body_begin())->getBeginLoc());
    if (t.innerIndent.size() <= t.indent.size())
      t.innerIndent = t.indent + "  ";
    const VarDecl *acc = nullptr; // the register form's local
    bool stored = true;           // register form: the last step's value was stored back
    auto refuse = [&](const std::string &why) {
      if (t.refusal.empty())
        t.refusal = why;
    };
    for (Stmt *st : body->body()) {
      if (isa<NullStmt>(st))
        continue;
      if (st->getBeginLoc().isMacroID() || st->getEndLoc().isMacroID()) {
        refuse("the statement at line " + line(st) + " is written through a macro");
        continue;
      }
      if (isSyncwarp(st)) {
        ++t.syncwarps;
        continue;
      }
      std::string guard;
      const Stmt *inner = st;
      if (auto *ifs = dyn_cast<IfStmt>(st)) {
        const Stmt *then = ifs->getThen();
        if (auto *cs = dyn_cast<CompoundStmt>(then); cs && cs->size() == 1)
          then = cs->body_front();
        bool value = false;
        if (ifs->getElse() || ifs->getInit() || ifs->getConditionVariable() || !isa<Expr>(then)) {
          refuse("the statement at line " + line(st) + " is an `if` that holds more than one step");
          continue;
        }
        if (!ifs->getCond()->EvaluateAsBooleanCondition(value, ctx_)) {
          refuse("the condition `" + text(ifs->getCond()->getSourceRange()) + "` at line " + line(st) +
                 " is not a compile-time constant");
          continue;
        }
        guard = text(ifs->getCond()->getSourceRange());
        inner = then;
      }
      if (auto *ds = dyn_cast<DeclStmt>(inner)) {
        auto *v = ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
        if (!h.tail.steps.empty() || acc || !v || !v->getInit() || subscript(v->getInit()) != 0 || !guard.empty()) {
          refuse("the helper declares '" + (v ? v->getNameAsString() : std::string("several names")) + "' at line " +
                 line(ds) + ", not a register loaded from element tid before the steps");
          continue;
        }
        acc = v;
        h.registerForm = true;
        continue;
      }
      auto *e = dyn_cast<Expr>(inner);
      if (!e) {
        refuse("the helper holds another statement at line " + line(st));
        continue;
      }
      if (acc) {
        // Register form: `v += s[t + k];` then `s[t] = v;`.
        e = e->IgnoreParens();
        std::string at = " at line " + line(e);
        if (auto *c = dyn_cast<CompoundAssignOperator>(e); c && refersTo(c->getLHS(), acc)) {
          WarpTailStep step;
          step.line = sm_.getPresumedLineNumber(sm_.getExpansionLoc(e->getBeginLoc()));
          step.offset = c->getOpcode() == BO_AddAssign ? subscript(c->getRHS(), &step.indexText) : -1;
          if (step.offset <= 0 || !guard.empty()) {
            refuse("the step" + at + " does not add element tid + a constant to '" + acc->getNameAsString() + "'");
            continue;
          }
          if (!stored)
            refuse("the step" + at + " reads before the previous step's value was stored back");
          step.form = WarpTailStep::Form::Compound;
          step.combine = "+";
          step.opKey = "+";
          t.steps.push_back(step);
          h.guards.push_back("");
          h.otherReads.push_back(toLocation(sm_, c->getRHS()->getBeginLoc()));
          stored = false;
          continue;
        }
        auto *assign = dyn_cast<BinaryOperator>(e);
        if (assign && assign->getOpcode() == BO_Assign && subscript(assign->getLHS()) == 0 &&
            refersTo(assign->getRHS(), acc) && guard.empty()) {
          stored = true;
          continue;
        }
        refuse("the helper holds another statement" + at);
        continue;
      }
      WarpTailStep step;
      otherRead_ = nullptr;
      std::string why = parseStep(e, step);
      if (!why.empty()) {
        refuse(why);
        continue;
      }
      t.steps.push_back(step);
      h.guards.push_back(guard);
      h.otherReads.push_back(otherRead_ ? toLocation(sm_, otherRead_->getBeginLoc()) : SourceLocation{});
    }
    helper_ = nullptr;
    if (t.steps.empty() || !array_)
      return false;
    if (acc && !stored)
      refuse("the last step's value is not stored back to element tid");
    t.array = array_->getNameAsString();
    t.tidText = tidParam_ ? tidParam_->getNameAsString() : "threadIdx.x";
    QualType elem = array_->getType()->getPointeeType();
    if (acc && !ctx_.hasSameType(acc->getType().getUnqualifiedType(), elem.getUnqualifiedType()))
      refuse("the register '" + acc->getNameAsString() + "' has another type than the array's elements");
    if (!shuffleType(elem.getUnqualifiedType()))
      refuse("the element type '" + elem.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy()) +
             "' is not one __shfl_down_sync moves as it is (int, unsigned, long long, unsigned long long, float, "
             "double)");
    // The type as the helper's source spells it (`T`, `data`): the same text
    // serves every instance.
    const FunctionDecl *pattern = fd->getTemplateInstantiationPattern() ? fd->getTemplateInstantiationPattern() : fd;
    const ParmVarDecl *p = cast<ParmVarDecl>(array_);
    if (p->getFunctionScopeIndex() < pattern->getNumParams())
      t.elementType = pattern->getParamDecl(p->getFunctionScopeIndex())
                          ->getType()
                          ->getPointeeType()
                          .getUnqualifiedType()
                          .getAsString(ctx_.getPrintingPolicy());
    if (t.refusal.empty() && !t.body.valid())
      t.refusal = "the helper's body is not written in one place of a file";
    t.valueName = "v";
    for (int n = 0; (body_.names.count(t.valueName) && (!acc || t.valueName != acc->getNameAsString())) ||
                    t.valueName == t.array || t.valueName == t.tidText || t.valueName == t.elementType;
         ++n)
      t.valueName = "v" + std::to_string(n);
    h.helper = fd->getNameAsString();
    h.loc = toLocation(sm_, fd->getLocation());
    return true;
  }

private:
  std::string text(SourceRange r) { return sourceText(ctx_, r); }
  std::string line(const Stmt *s) { return std::to_string(sm_.getPresumedLineNumber(sm_.getExpansionLoc(s->getBeginLoc()))); }

  std::string lineIndent(clang::SourceLocation loc) { return warp_tail_scanning::lineIndent(sm_, loc); }


  bool isTid(const Expr *e) {
    if (isThreadIdxX(e))
      return !helper_ || !tidParam_; // a helper uses one spelling of tid
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    // In a helper: one integer parameter, never written, is the caller's tid
    // (each call is checked to pass threadIdx.x).
    if (helper_ && v && isa<ParmVarDecl>(v) && v->getDeclContext() == helper_ && v->getType()->isIntegerType() &&
        !body_.written.count(v)) {
      if (!tidParam_)
        tidParam_ = cast<ParmVarDecl>(v);
      return v == tidParam_;
    }
    if (!v || isa<ParmVarDecl>(v) || !v->hasLocalStorage() || !v->getInit() || body_.written.count(v) ||
        !v->getType()->isIntegerType())
      return false;
    // Unsigned or at least 32 bits: threadIdx.x < 1024 fits either way.
    return isThreadIdxX(v->getInit());
  }

  static bool refersTo(const Expr *e, const VarDecl *v) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == v;
  }

  static bool isSyncwarp(const Stmt *st) {
    auto *c = dyn_cast<CallExpr>(st);
    if (!c)
      return false;
    auto *fd = c->getDirectCallee();
    // An operator, constructor or conversion has no identifier (getName() asserts on it).
    return fd && fd->getDeclName().isIdentifier() && fd->getName() == "__syncwarp";
  }

  // `volatile T *s = sdata;`: s becomes an alias of the array.
  std::string alias(const DeclStmt *ds) {
    if (!ds->isSingleDecl())
      return "the tail declares several names at line " + line(ds);
    auto *v = dyn_cast<VarDecl>(ds->getSingleDecl());
    if (!v || !v->getType()->isPointerType() || !v->getInit())
      return "the tail declares something other than a pointer to its array at line " + line(ds);
    const Expr *init = v->getInit()->IgnoreParenCasts();
    const VarDecl *a = sharedArray(init);
    if (!a)
      return "the pointer '" + v->getNameAsString() + "' is not set to a shared array";
    if (body_.written.count(v))
      return "the pointer '" + v->getNameAsString() + "' is changed after it is set";
    if (array_ && array_ != a)
      return "the tail reaches two arrays";
    array_ = a;
    aliases_[v] = v->getType()->getPointeeType().getUnqualifiedType();
    return "";
  }

  const VarDecl *sharedArray(const Expr *e) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (v && v->hasAttr<CUDASharedAttr>() && v->getType()->isArrayType())
      return v;
    // In a helper: a pointer parameter of it stands for the caller's array.
    if (v && helper_ && isa<ParmVarDecl>(v) && v->getDeclContext() == helper_ && v->getType()->isPointerType())
      return v;
    return nullptr;
  }

  // `B[tid + k]` (k >= 0) on the array or an alias: k, or -1.
  int subscript(const Expr *e, std::string *indexText = nullptr) {
    auto *s = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
    if (!s)
      return -1;
    const Expr *base = s->getBase()->IgnoreParenImpCasts();
    auto *d = dyn_cast<DeclRefExpr>(base);
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v)
      return -1;
    const VarDecl *a = aliases_.count(v) ? array_ : sharedArray(base);
    if (!a || (array_ && a != array_))
      return -1;
    array_ = a;
    const Expr *idx = s->getIdx()->IgnoreParenImpCasts();
    if (indexText)
      *indexText = text(s->getIdx()->getSourceRange());
    if (isTid(idx))
      return 0;
    auto *add = dyn_cast<BinaryOperator>(idx);
    if (!add || add->getOpcode() != BO_Add)
      return -1;
    const Expr *k = nullptr;
    if (isTid(add->getLHS()))
      k = add->getRHS();
    else if (isTid(add->getRHS()))
      k = add->getLHS();
    Expr::EvalResult r;
    if (!k || !k->EvaluateAsInt(r, ctx_))
      return -1;
    int64_t value = r.Val.getInt().getExtValue();
    return value > 0 && value < 1024 ? static_cast<int>(value) : -1;
  }

  std::string parseStep(const Expr *e, WarpTailStep &step) {
    std::string at = " at line " + std::to_string(sm_.getPresumedLineNumber(sm_.getExpansionLoc(e->getBeginLoc())));
    step.line = sm_.getPresumedLineNumber(sm_.getExpansionLoc(e->getBeginLoc()));
    e = e->IgnoreParens();
    if (auto *c = dyn_cast<CompoundAssignOperator>(e)) {
      if (c->getOpcode() != BO_AddAssign)
        return "the step" + at + " is not an addition, max or min";
      if (subscript(c->getLHS()) != 0)
        return "the step" + at + " does not store to element tid of the array";
      step.offset = subscript(c->getRHS(), &step.indexText);
      otherRead_ = c->getRHS();
      if (step.offset <= 0)
        return "the step" + at + " does not read element tid + a constant";
      if (!ctx_.hasSameType(c->getComputationResultType().getUnqualifiedType(),
                            c->getLHS()->getType().getUnqualifiedType()))
        return "the step" + at + " computes in another type";
      step.form = WarpTailStep::Form::Compound;
      step.combine = "+";
      step.opKey = "+";
      return "";
    }
    auto *assign = dyn_cast<BinaryOperator>(e);
    if (!assign || assign->getOpcode() != BO_Assign)
      return "the tail holds another statement" + at;
    if (subscript(assign->getLHS()) != 0)
      return "the step" + at + " does not store to element tid of the array";
    const Expr *rhs = assign->getRHS()->IgnoreParenImpCasts();
    const Expr *a = nullptr, *b = nullptr;
    if (auto *bin = dyn_cast<BinaryOperator>(rhs)) {
      if (bin->getOpcode() != BO_Add)
        return "the step" + at + " is not an addition, max or min";
      a = bin->getLHS();
      b = bin->getRHS();
      step.form = WarpTailStep::Form::Binary;
      step.combine = "+";
      step.opKey = "+";
      if (!ctx_.hasSameType(bin->getType().getUnqualifiedType(), assign->getLHS()->getType().getUnqualifiedType()))
        return "the step" + at + " computes in another type";
    } else if (auto *call = dyn_cast<CallExpr>(rhs)) {
      const FunctionDecl *fd = call->getDirectCallee();
      static const std::set<std::string> names = {"max", "min", "fmaxf", "fminf", "fmax", "fmin"};
      if (!fd || !names.count(fd->getNameAsString()) || call->getNumArgs() != 2)
        return "the step" + at + " is not an addition, max or min";
      if (call->getCallee()->getBeginLoc().isMacroID())
        return "the step" + at + " calls through a macro";
      a = call->getArg(0);
      b = call->getArg(1);
      step.form = WarpTailStep::Form::Call;
      step.combine = text(call->getCallee()->getSourceRange());
      step.opKey = fd->getQualifiedNameAsString();
      if (!ctx_.hasSameType(call->getType().getUnqualifiedType(), assign->getLHS()->getType().getUnqualifiedType()))
        return "the step" + at + " computes in another type";
      for (const Expr *arg : {a, b})
        if (!ctx_.hasSameType(arg->getType().getUnqualifiedType(), assign->getLHS()->getType().getUnqualifiedType()))
          return "the step" + at + " converts its operands";
    } else {
      return "the step" + at + " is not an addition, max or min";
    }
    std::string ta, tb;
    int ka = subscript(a, &ta), kb = subscript(b, &tb);
    if (ka == 0 && kb > 0) {
      step.offset = kb;
      step.indexText = tb;
      otherRead_ = b;
    } else if (kb == 0 && ka > 0) {
      step.offset = ka;
      step.indexText = ta;
      otherRead_ = a;
      step.otherFirst = true;
    } else {
      return "the step" + at + " does not combine element tid with element tid + a constant";
    }
    return "";
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  const FunctionDecl *fn_;
  const BodyFacts &body_;
  const FunctionDecl *helper_ = nullptr;    // set while parsing a helper's body
  const ParmVarDecl *tidParam_ = nullptr;   // the helper's tid parameter, once seen
  const Expr *otherRead_ = nullptr;         // the last step's read of the other lane's element
  const VarDecl *array_ = nullptr;
  std::map<const VarDecl *, QualType> aliases_; // alias -> its pointee type
};

// Calls to __device__ functions in a body.
class CalleeFinder : public RecursiveASTVisitor<CalleeFinder> {
public:
  std::vector<const FunctionDecl *> callees;
  bool VisitCallExpr(CallExpr *c) {
    if (const FunctionDecl *fd = c->getDirectCallee())
      if (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAGlobalAttr>() && fd->getBody())
        callees.push_back(fd);
    return true;
  }
};

bool parsesAsHelperTail(ASTContext &ctx, const FunctionDecl *fd, WarpTail &out) {
  if (!isDeviceHelper(fd))
    return false;
  HelperWarpTail h;
  if (!parseHelperTail(ctx, fd, h))
    return false;
  out = std::move(h.tail);
  return true;
}

// The tails of the __device__ helpers `fn` reaches through calls (three
// levels deep): listed with the function's own tails so that the exchange
// run records the value flows the helper fix checks (what the caller reads
// after the call).
void helperTailsReached(ASTContext &ctx, const FunctionDecl *fn, int depth, std::set<const FunctionDecl *> &seen,
                        std::vector<WarpTail> &out) {
  if (depth > 3 || !fn->getBody())
    return;
  CalleeFinder calls;
  calls.TraverseStmt(fn->getBody());
  const SourceManager &sm = ctx.getSourceManager();
  for (const FunctionDecl *callee : calls.callees) {
    // The toolkit's and cub's helpers are not the user's to rewrite (and
    // following them would cost time on every kernel that uses them).
    if (!seen.insert(callee).second || sm.isInSystemHeader(sm.getExpansionLoc(callee->getLocation())))
      continue;
    WarpTail t;
    if (parsesAsHelperTail(ctx, callee, t))
      out.push_back(std::move(t));
    else
      helperTailsReached(ctx, callee, depth + 1, seen, out);
  }
}

} // namespace

bool warp_tail_scanning::parseHelperTail(ASTContext &ctx, const FunctionDecl *fd, HelperWarpTail &h) {
  BodyFacts body;
  body.TraverseStmt(fd->getBody());
  TailFinder finder(ctx, fd, body);
  return finder.parseHelper(fd, h);
}

void describeWarpTails(ASTContext &ctx, const FunctionDecl *fn, ModeledKernel &k) {
  if (!fn->getBody())
    return;
  BodyFacts body;
  body.TraverseStmt(fn->getBody());
  TailFinder finder(ctx, fn, body);
  finder.TraverseStmt(fn->getBody());
  std::set<const FunctionDecl *> seen{fn};
  helperTailsReached(ctx, fn, 0, seen, finder.tails);
  if (finder.tails.empty())
    return;
  auto facts = std::make_shared<WarpExchangeFacts>();
  facts->tails = std::move(finder.tails);
  k.info.warpExchanges = facts;
}

} // namespace warplint
