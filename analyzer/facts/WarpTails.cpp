// Unrolled warp tails in the AST (analyzer/facts/WarpTails.h): an `if`
// whose condition is `tid < 32` (tid threadIdx.x, or a local initialized
// from it and never written) and whose braces hold steps
// `s[tid] OP= s[tid + k]`, `s[tid] = s[tid] OP s[tid + k]` or
// `s[tid] = f(s[tid], s[tid + k])` on one shared array (directly or through
// a local pointer set to it, usually volatile), with __syncwarp() between
// them or not. Anything else in the braces is recorded as the refusal, so the
// rule can say why it offers no rewrite.
#include "analyzer/facts/WarpTails.h"
#include "analyzer/facts/WarpHelperTails.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/results/WarpExchange.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace warplint {

using namespace clang;

namespace {

// The element types __shfl_down_sync carries as they are (int, unsigned,
// long long, unsigned long long, float, double): the rewrites keep them.
bool shuffleType(QualType t) {
  const auto *b = t->getAs<BuiltinType>();
  if (!b)
    return false;
  switch (b->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
  case BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

bool isThreadIdxX(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (auto *pseudo = dyn_cast<PseudoObjectExpr>(e)) {
    auto *prop = dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens());
    if (!prop)
      return false;
    const Expr *b = prop->getBaseExpr()->IgnoreParenImpCasts();
    if (auto *ove = dyn_cast<OpaqueValueExpr>(b); ove && ove->getSourceExpr())
      b = ove->getSourceExpr()->IgnoreParenImpCasts();
    auto *d = dyn_cast<DeclRefExpr>(b);
    return d && d->getDecl()->getName() == "threadIdx" && prop->getPropertyDecl()->getName() == "x";
  }
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    auto *d = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
    return d && d->getDecl()->getName() == "threadIdx" && m->getMemberDecl()->getName() == "x";
  }
  return false;
}

// Locals written after their declaration (assigned, incremented, address
// taken, bound to a reference), and every name the body declares.
class BodyFacts : public RecursiveASTVisitor<BodyFacts> {
public:
  std::set<const VarDecl *> written;
  std::set<std::string> names;

  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      mark(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf)
      mark(u->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    names.insert(v->getNameAsString());
    if (v->getType()->isReferenceType() && v->getInit())
      mark(v->getInit());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    names.insert(d->getDecl()->getNameAsString());
    return true;
  }

private:
  void mark(const Expr *e) {
    if (auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
        written.insert(v);
  }
};

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

  std::string lineIndent(clang::SourceLocation loc) {
    loc = sm_.getExpansionLoc(loc);
    auto [fid, off] = sm_.getDecomposedLoc(loc);
    bool invalid = false;
    llvm::StringRef buf = sm_.getBufferData(fid, &invalid);
    if (invalid || off > buf.size())
      return "";
    size_t start = buf.rfind('\n', off == 0 ? 0 : off - 1);
    start = start == llvm::StringRef::npos ? 0 : start + 1;
    size_t end = start;
    while (end < buf.size() && (buf[end] == ' ' || buf[end] == '\t'))
      ++end;
    return buf.substr(start, end - start).str();
  }


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
    return fd && fd->getName() == "__syncwarp";
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

} // namespace

namespace {

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

bool parsesAsHelperTail(ASTContext &ctx, const FunctionDecl *fd, WarpTail &out);

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

// ---- warp tails in __device__ helpers, and every call of them ----------

namespace warplint {

namespace {

bool isDeviceHelper(const FunctionDecl *fd) {
  return fd && fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAGlobalAttr>() && fd->getBody() &&
         !fd->isDependentContext();
}

const FunctionDecl *patternOf(const FunctionDecl *fd) {
  const FunctionDecl *p = fd->getTemplateInstantiationPattern();
  return (p ? p : fd)->getCanonicalDecl();
}

std::string nameWithArgs(const ASTContext &ctx, const FunctionDecl *fd) {
  std::string s;
  llvm::raw_string_ostream os(s);
  fd->getNameForDiagnostic(os, ctx.getPrintingPolicy(), /*Qualified=*/false);
  return os.str();
}

std::string realPath(const std::string &path) {
  llvm::SmallString<256> out;
  if (llvm::sys::fs::real_path(path, out))
    return path;
  return out.str().str();
}

// Two instances agree when their steps read the same offsets with the same
// operator under the same guards: one rewritten body then serves both.
std::string disagreement(const HelperWarpTail &a, const HelperWarpTail &b) {
  if (a.tail.steps.size() != b.tail.steps.size() || a.registerForm != b.registerForm || a.guards != b.guards)
    return "its steps differ";
  for (size_t i = 0; i < a.tail.steps.size(); ++i) {
    const WarpTailStep &x = a.tail.steps[i], &y = b.tail.steps[i];
    if (x.offset != y.offset || x.opKey != y.opKey || x.form != y.form || x.otherFirst != y.otherFirst)
      return "its step at line " + std::to_string(x.line) + " reads or combines differently";
  }
  return "";
}

class HelperTailScan : public RecursiveASTVisitor<HelperTailScan> {
public:
  explicit HelperTailScan(ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  struct Entry {
    HelperWarpTail tail;
    const FunctionDecl *tidParamOwner = nullptr;
    int tidIndex = -1; // the tid parameter's position, -1 when the helper reads threadIdx.x itself
    std::set<std::string> callsSeen;
  };
  std::map<const FunctionDecl *, Entry> helpers; // by the pattern's canonical declaration

  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  // First pass: every instance of every helper whose body is a tail.
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (pass_ != 0 || !isDeviceHelper(fd) || !fd->doesThisDeclarationHaveABody())
      return true;
    BodyFacts body;
    body.TraverseStmt(fd->getBody());
    TailFinder finder(ctx_, fd, body);
    HelperWarpTail h;
    bool parsed = finder.parseHelper(fd, h);
    const FunctionDecl *key = patternOf(fd);
    std::string name = nameWithArgs(ctx_, fd);
    if (!parsed) {
      if (fd->isTemplateInstantiation() && !notTails_.count(key))
        notTails_[key] = name + (h.tail.refusal.empty() ? "" : " (" + h.tail.refusal + ")");
      return true;
    }
    auto it = helpers.find(key);
    if (it == helpers.end()) {
      Entry e;
      e.tail = std::move(h);
      if (!e.tail.tail.refusal.empty() && fd->isTemplateInstantiation())
        e.tail.tail.refusal = "in the instance " + name + ": " + e.tail.tail.refusal;
      for (const ParmVarDecl *p : fd->parameters())
        if (p->getNameAsString() == e.tail.tail.tidText)
          e.tidIndex = static_cast<int>(p->getFunctionScopeIndex());
      helpers.emplace(key, std::move(e));
      return true;
    }
    HelperWarpTail &first = it->second.tail;
    if (first.instanceProblem.empty()) {
      if (!h.tail.refusal.empty())
        first.instanceProblem = "the instance " + name + " cannot be rewritten: " + h.tail.refusal;
      else if (std::string d = disagreement(first, h); !d.empty())
        first.instanceProblem = "the instance " + name + " does not agree with the others: " + d;
    }
    return true;
  }

  // Second pass: the calls.
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
    if (pass_ != 1)
      return true;
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return true;
    auto it = helpers.find(patternOf(callee));
    if (it == helpers.end())
      return true;
    Entry &e = it->second;
    HelperTailCall c;
    c.loc = toLocation(sm_, call->getBeginLoc());
    std::string key = c.loc.file + ":" + std::to_string(c.loc.line) + ":" + std::to_string(c.loc.column);
    if (!e.callsSeen.insert(key).second)
      return true; // another instance of the same call
    c.caller = current_ ? current_->getNameAsString() : "";
    if (call->getBeginLoc().isMacroID())
      c.problem = "the call is written through a macro";
    else if (e.tidIndex >= 0) {
      if (static_cast<unsigned>(e.tidIndex) >= call->getNumArgs() || !current_)
        c.problem = "the call passes no tid argument";
      else if (!tidArgument(call->getArg(e.tidIndex)))
        c.problem = "it passes `" + sourceText(ctx_, call->getArg(e.tidIndex)->getSourceRange()) + "` as '" +
                    e.tail.tail.tidText + "', not threadIdx.x (or a local set once from it): `" + e.tail.tail.tidText +
                    " == 0` would not single out lane 0";
    }
    e.tail.calls.push_back(c);
    return true;
  }

  void run() {
    pass_ = 0;
    TraverseDecl(ctx_.getTranslationUnitDecl());
    if (helpers.empty())
      return;
    // An instance of a template helper that is not a tail at all (its steps
    // compute in another type, say): the rewrite of the pattern would change it.
    for (auto &[key, e] : helpers)
      if (auto it = notTails_.find(key); it != notTails_.end() && e.tail.instanceProblem.empty())
        e.tail.instanceProblem = "the instance " + it->second + " is not a tail the rewrite serves exactly";
    pass_ = 1;
    TraverseDecl(ctx_.getTranslationUnitDecl());
  }

private:
  // threadIdx.x, or a local of the caller set once from it.
  bool tidArgument(const Expr *arg) {
    if (isThreadIdxX(arg))
      return true;
    auto *d = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || isa<ParmVarDecl>(v) || !v->hasLocalStorage() || !v->getInit() || !v->getType()->isIntegerType())
      return false;
    auto &facts = callerFacts_[current_];
    if (!facts) {
      facts = std::make_unique<BodyFacts>();
      if (current_->getBody())
        facts->TraverseStmt(current_->getBody());
    }
    return !facts->written.count(v) && isThreadIdxX(v->getInit());
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  int pass_ = 0;
  const FunctionDecl *current_ = nullptr;
  std::map<const FunctionDecl *, std::unique_ptr<BodyFacts>> callerFacts_;
  std::map<const FunctionDecl *, std::string> notTails_; // template instances that did not parse as tails
};


// ---- per-warp trees written as a loop over a 32-lane tile ---------------

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

  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }
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
  std::string lineIndent(clang::SourceLocation loc) {
    loc = sm_.getExpansionLoc(loc);
    auto [fid, off] = sm_.getDecomposedLoc(loc);
    bool invalid = false;
    llvm::StringRef buf = sm_.getBufferData(fid, &invalid);
    if (invalid || off > buf.size())
      return "";
    size_t start = buf.rfind('\n', off == 0 ? 0 : off - 1);
    start = start == llvm::StringRef::npos ? 0 : start + 1;
    size_t end = start;
    while (end < buf.size() && (buf[end] == ' ' || buf[end] == '\t'))
      ++end;
    return buf.substr(start, end - start).str();
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  const FunctionDecl *fn_ = nullptr;
  BodyFacts *body_ = nullptr;
};

bool parsesAsHelperTail(ASTContext &ctx, const FunctionDecl *fd, WarpTail &out) {
  if (!isDeviceHelper(fd))
    return false;
  BodyFacts body;
  body.TraverseStmt(fd->getBody());
  TailFinder finder(ctx, fd, body);
  HelperWarpTail h;
  if (!finder.parseHelper(fd, h))
    return false;
  out = std::move(h.tail);
  return true;
}

std::mutex registryMutex;
std::vector<std::shared_ptr<const UnitHelperTails>> &registry() {
  static std::vector<std::shared_ptr<const UnitHelperTails>> units;
  return units;
}

} // namespace

void describeWarpHelperTails(ASTContext &ctx) {
  SourceManager &sm = ctx.getSourceManager();
  auto entry = sm.getFileEntryRefForID(sm.getMainFileID());
  if (!entry)
    return;
  auto unit = std::make_shared<UnitHelperTails>();
  unit->mainFile = realPath(entry->getName().str());
  HelperTailScan scan(ctx);
  scan.run();
  for (auto &[decl, e] : scan.helpers)
    unit->helpers.push_back(std::move(e.tail));
  LoopTreeScan loops(ctx);
  loops.TraverseDecl(ctx.getTranslationUnitDecl());
  unit->loops = std::move(loops.loops);
  std::lock_guard<std::mutex> lock(registryMutex);
  auto &units = registry();
  units.erase(std::remove_if(units.begin(), units.end(),
                             [&](const auto &u) { return u->mainFile == unit->mainFile; }),
              units.end());
  if (!unit->helpers.empty() || !unit->loops.empty())
    units.push_back(unit);
}

std::shared_ptr<const UnitHelperTails> helperTailsOfUnit(const std::string &mainFile) {
  std::string path = realPath(mainFile);
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const auto &u : registry())
    if (u->mainFile == path)
      return u;
  return nullptr;
}

const HelperWarpTail *helperTailAt(const SourceLocation &loc, std::shared_ptr<const UnitHelperTails> &keep) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const auto &u : registry())
    for (const HelperWarpTail &h : u->helpers)
      if (h.tail.loc.file == loc.file && loc.line >= h.tail.firstLine && loc.line <= h.tail.lastLine) {
        keep = u;
        return &h;
      }
  return nullptr;
}

} // namespace warplint

namespace warplint {

const WarpLoopTree *loopTreeAt(const SourceLocation &loc, std::shared_ptr<const UnitHelperTails> &keep) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const auto &u : registry())
    for (const WarpLoopTree &t : u->loops)
      if (t.loc.file == loc.file && loc.line >= t.firstLine && loc.line <= t.lastLine) {
        keep = u;
        return &t;
      }
  return nullptr;
}

} // namespace warplint
