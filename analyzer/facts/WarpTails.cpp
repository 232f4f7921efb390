// Unrolled warp tails in the AST (analyzer/facts/WarpTails.h): an `if`
// whose condition is `tid < 32` (tid threadIdx.x, or a local initialized
// from it and never written) and whose braces hold steps
// `s[tid] OP= s[tid + k]`, `s[tid] = s[tid] OP s[tid + k]` or
// `s[tid] = f(s[tid], s[tid + k])` on one shared array (directly or through
// a local pointer set to it, usually volatile), with __syncwarp() between
// them or not. Anything else in the braces is recorded as the refusal, so the
// rule can say why it offers no rewrite.
#include "analyzer/facts/WarpTails.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/results/WarpExchange.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

namespace warplint {

using namespace clang;

namespace {

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

  static bool shuffleType(QualType t) {
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

  bool isTid(const Expr *e) {
    if (isThreadIdxX(e))
      return true;
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || isa<ParmVarDecl>(v) || !v->hasLocalStorage() || !v->getInit() || body_.written.count(v) ||
        !v->getType()->isIntegerType())
      return false;
    // Unsigned or at least 32 bits: threadIdx.x < 1024 fits either way.
    return isThreadIdxX(v->getInit());
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
    } else if (kb == 0 && ka > 0) {
      step.offset = ka;
      step.indexText = ta;
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
  const VarDecl *array_ = nullptr;
  std::map<const VarDecl *, QualType> aliases_; // alias -> its pointee type
};

} // namespace

void describeWarpTails(ASTContext &ctx, const FunctionDecl *fn, ModeledKernel &k) {
  if (!fn->getBody())
    return;
  BodyFacts body;
  body.TraverseStmt(fn->getBody());
  TailFinder finder(ctx, fn, body);
  finder.TraverseStmt(fn->getBody());
  if (finder.tails.empty())
    return;
  auto facts = std::make_shared<WarpExchangeFacts>();
  facts->tails = std::move(finder.tails);
  k.info.warpExchanges = facts;
}

} // namespace warplint
