// Thread-private arrays: is every subscript a compile-time constant once the
// loops with constant trip counts are fully unrolled (what the compiler needs
// to give each element a register), and does the address stay where it is
// indexed? Each subscript is classified Constant, Dynamic (with the reason a
// compiler cannot resolve it) or Undetermined (the analysis does not know);
// only Dynamic subscripts and escapes are facts a rule may act on.
#include "analyzer/facts/PrivateArrays.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <deque>
#include <map>
#include <set>

namespace warplint {

using namespace clang;

namespace {

constexpr int kMaxCallDepth = 4;
// A constant-trip loop longer than this without `#pragma unroll` may stay
// rolled (the compiler's unrolling budget is not known): no verdict then.
constexpr int64_t kAutoUnrollTrips = 256;

enum class Kind { Constant = 0, Undetermined = 1, Dynamic = 2 };

struct Verdict {
  Kind kind = Kind::Constant;
  std::string cause, why;
  clang::SourceLocation loop;
  std::set<const VarDecl *> loopVars;          // induction variables read
  std::set<const LoopHintAttr *> rolling;      // pragmas keeping constant-trip loops rolled
  bool otherDynamic = false;                   // a dynamic reason other than such a pragma

  static Verdict dynamic(std::string cause, std::string why, clang::SourceLocation loop = {}) {
    Verdict v;
    v.kind = Kind::Dynamic;
    v.otherDynamic = cause != "unroll-pragma";
    v.cause = std::move(cause);
    v.why = std::move(why);
    v.loop = loop;
    return v;
  }
  static Verdict undetermined(std::string why) {
    Verdict v;
    v.kind = Kind::Undetermined;
    v.why = std::move(why);
    return v;
  }
};

Verdict join(Verdict a, const Verdict &b) {
  bool takeB = b.kind > a.kind ||
               (b.kind == Kind::Dynamic && a.kind == Kind::Dynamic && a.cause == "unroll-pragma" && b.otherDynamic);
  if (takeB) {
    a.kind = b.kind;
    a.cause = b.cause;
    a.why = b.why;
    a.loop = b.loop;
  }
  a.loopVars.insert(b.loopVars.begin(), b.loopVars.end());
  a.rolling.insert(b.rolling.begin(), b.rolling.end());
  a.otherDynamic = a.otherDynamic || b.otherDynamic;
  return a;
}

std::string shortText(const ASTContext &ctx, const Stmt *s) {
  std::string t = sourceText(ctx, s->getSourceRange());
  return t.size() > 40 ? t.substr(0, 37) + "..." : t;
}

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

const VarDecl *varOf(const Expr *e) {
  if (auto *dre = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(dre->getDecl());
  return nullptr;
}

bool isPrivateArray(const VarDecl *v) {
  return v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && v->getType()->isConstantArrayType() &&
         !v->hasAttr<CUDASharedAttr>() && !v->hasAttr<CUDAConstantAttr>();
}

template <typename T> struct Collector : RecursiveASTVisitor<Collector<T>> {
  std::vector<const T *> found;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitStmt(Stmt *s) {
    if (auto *t = dyn_cast<T>(s))
      found.push_back(t);
    return true;
  }
};
template <typename T> std::vector<const T *> collect(const Stmt *body) {
  Collector<T> c;
  if (body)
    c.TraverseStmt(const_cast<Stmt *>(body));
  return c.found;
}

// One function's body as the analysis sees it: its writes, its loops, and
// for a call analyzed in place, what its scalar parameters stand for.
struct Frame {
  const FunctionDecl *fn = nullptr;
  LocalWrites writes;
  std::unique_ptr<ParentMap> parents;
  std::map<const ParmVarDecl *, std::pair<const Expr *, const Frame *>> args;
  std::map<const VarDecl *, const ForStmt *> inductionLoops;
  std::map<const ForStmt *, const LoopHintAttr *> hints;
  std::vector<SourceLocation> callChain;
  int depth = 0;

  // The parent, past parentheses and implicit conversions other than a read.
  const Stmt *parent(const Stmt *s) const {
    const Stmt *p = parents->getParent(s);
    while (p && (isa<ParenExpr>(p) ||
                 (isa<ImplicitCastExpr>(p) && cast<ImplicitCastExpr>(p)->getCastKind() != CK_LValueToRValue)))
      p = parents->getParent(p);
    return p;
  }
};

class Analysis {
public:
  explicit Analysis(ASTContext &ctx) : ctx_(ctx) {}

  std::vector<PrivateArray> run(const FunctionDecl *kernel) {
    Frame &f = frame(kernel, nullptr, nullptr, {});
    scanFunction(f, {kernel});
    // `#pragma unroll N` spans are a fix only when they are the whole reason.
    for (size_t i = 0; i < arrays_.size(); ++i)
      if (!rollingBlocked_.count(i) && !arrays_[i].dynamicSubscripts.empty())
        for (const LoopHintAttr *h : rolling_[i]) {
          SourceSpan s = countSpan(h);
          if (!s.valid()) {
            arrays_[i].rollingPragmas.clear();
            break;
          }
          arrays_[i].rollingPragmas.push_back(s);
        }
    return arrays_;
  }

private:
  Frame &frame(const FunctionDecl *fn, const Frame *caller, const CallExpr *call, std::vector<SourceLocation> chain) {
    frames_.emplace_back();
    Frame &f = frames_.back();
    f.fn = fn;
    f.writes = LocalWrites::collect(fn->getBody());
    f.parents = std::make_unique<ParentMap>(const_cast<Stmt *>(fn->getBody()));
    f.callChain = std::move(chain);
    f.depth = caller ? caller->depth + 1 : 0;
    if (call)
      for (unsigned i = 0; i < call->getNumArgs() && i < fn->getNumParams(); ++i)
        f.args[fn->getParamDecl(i)] = {call->getArg(i), caller};
    for (const AttributedStmt *as : collect<AttributedStmt>(fn->getBody()))
      if (auto *fs = dyn_cast<ForStmt>(as->getSubStmt()))
        for (const Attr *a : as->getAttrs())
          if (auto *hint = dyn_cast<LoopHintAttr>(a))
            if (hint->getOption() == LoopHintAttr::Unroll || hint->getOption() == LoopHintAttr::UnrollCount)
              f.hints[fs] = hint;
    for (const ForStmt *fs : collect<ForStmt>(fn->getBody()))
      if (const VarDecl *v = inductionVar(f, fs))
        f.inductionLoops[v] = fs;
    return f;
  }

  // `for (v = init; cond; inc)` with v written nowhere else.
  static const VarDecl *inductionVar(const Frame &f, const ForStmt *fs) {
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

  static bool inlinable(const FunctionDecl *def, const Frame &caller, const std::vector<const FunctionDecl *> &stack) {
    return def && def->getBody() && isDeviceFunction(def) && !def->hasAttr<CUDAGlobalAttr>() &&
           !def->hasAttr<NoInlineAttr>() && caller.depth + 1 < kMaxCallDepth &&
           std::find(stack.begin(), stack.end(), def) == stack.end();
  }

  void scanFunction(Frame &f, std::vector<const FunctionDecl *> stack) {
    if (ctx_.getSourceManager().isInSystemHeader(f.fn->getLocation()))
      return;
    for (const DeclStmt *ds : collect<DeclStmt>(f.fn->getBody()))
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d); isPrivateArray(v))
          scanArray(v, f);
    // Arrays declared in the functions it calls, with their arguments bound.
    for (const CallExpr *call : collect<CallExpr>(f.fn->getBody())) {
      const FunctionDecl *callee = call->getDirectCallee();
      const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
      if (isa<CXXOperatorCallExpr>(call) || !inlinable(def, f, stack) ||
          ctx_.getSourceManager().isInSystemHeader(def->getLocation()))
        continue;
      std::vector<SourceLocation> chain = f.callChain;
      chain.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
      Frame &child = frame(def, &f, call, chain);
      std::vector<const FunctionDecl *> deeper = stack;
      deeper.push_back(def);
      scanFunction(child, deeper);
    }
  }

  // The count of `#pragma unroll N` with the blanks before it, so that
  // deleting the span leaves `#pragma unroll`.
  SourceSpan countSpan(const LoopHintAttr *h) {
    SourceSpan s = fileSpan(ctx_, CharSourceRange::getTokenRange(h->getValue()->getSourceRange()));
    if (!s.valid())
      return s;
    const SourceManager &sm = ctx_.getSourceManager();
    clang::SourceLocation begin = sm.getExpansionLoc(h->getValue()->getBeginLoc());
    bool invalid = false;
    const char *at = sm.getCharacterData(begin, &invalid);
    if (invalid)
      return SourceSpan{};
    unsigned blanks = 0;
    while (blanks < s.offset && (at[-1 - int(blanks)] == ' ' || at[-1 - int(blanks)] == '\t'))
      ++blanks;
    if (blanks == 0)
      return SourceSpan{};
    s.offset -= blanks;
    s.length += blanks;
    s.text = std::string(at - blanks, blanks) + s.text;
    return s;
  }

  PrivateArray &record(const VarDecl *v, const Frame &f) {
    auto it = order_.find(v);
    if (it != order_.end())
      return arrays_[it->second];
    PrivateArray a;
    a.name = v->getNameAsString();
    a.loc = toLocation(ctx_.getSourceManager(), v->getLocation());
    QualType t = v->getType();
    int64_t count = 1;
    while (const ArrayType *at = t->getAsArrayTypeUnsafe()) {
      int64_t n = 0;
      if (auto *ca = dyn_cast<ConstantArrayType>(at))
        n = static_cast<int64_t>(ca->getSize().getZExtValue());
      a.dims.push_back(n);
      count *= n;
      t = at->getElementType();
    }
    a.elementType = t.getAsString();
    if (!t->isDependentType() && !t->isIncompleteType())
      a.elementSize = ctx_.getTypeSizeInChars(t).getQuantity();
    a.bytes = count * a.elementSize;
    a.declaredIn = f.fn->getNameAsString();
    a.callChain = f.callChain;
    arrays_.push_back(a);
    order_[v] = arrays_.size() - 1;
    return arrays_.back();
  }

  void scanArray(const VarDecl *v, const Frame &f) {
    size_t index = (record(v, f), order_[v]);
    current_ = index;
    for (const DeclRefExpr *dre : collect<DeclRefExpr>(f.fn->getBody()))
      if (dre->getDecl() == v)
        usePointer(dre, Verdict{}, f, {f.fn});
  }

  PrivateArray &array() { return arrays_[current_]; }

  void undetermined(const std::string &why) {
    PrivateArray &a = array();
    ++a.subscripts;
    if (a.undeterminedSubscripts++ == 0)
      a.undeterminedReason = why;
  }

  void escape(const Stmt *at, const std::string &why) {
    PrivateArray &a = array();
    if (a.escape.empty()) {
      a.escape = why;
      a.escapeLoc = toLocation(ctx_.getSourceManager(), at->getBeginLoc());
    }
  }

  // `e` is the array, or a pointer into it `offset` elements on: what does
  // its parent do with it?
  void usePointer(const Expr *e, const Verdict &offset, const Frame &f, std::vector<const FunctionDecl *> stack) {
    const Stmt *p = f.parent(e);
    if (!p)
      return undetermined("an unrecognized use of its address");
    if (auto *ase = dyn_cast<ArraySubscriptExpr>(p)) {
      if (ase->getBase()->IgnoreParenImpCasts() != e->IgnoreParenImpCasts())
        return undetermined("its address used as a subscript");
      Verdict v = join(offset, classify(ase->getIdx(), f));
      if (ase->getType()->isArrayType())
        return usePointer(ase, v, f, stack);
      return element(ase, v, f, stack);
    }
    if (auto *uo = dyn_cast<UnaryOperator>(p)) {
      if (uo->getOpcode() == UO_Deref)
        return element(uo, offset, f, stack);
      return undetermined("operator " + UnaryOperator::getOpcodeStr(uo->getOpcode()).str() + " on its address");
    }
    if (auto *bo = dyn_cast<BinaryOperator>(p)) {
      if ((bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) && bo->getType()->isPointerType()) {
        const Expr *other = bo->getLHS()->IgnoreParenImpCasts() == e->IgnoreParenImpCasts() ? bo->getRHS() : bo->getLHS();
        return usePointer(bo, join(offset, classify(other, f)), f, stack);
      }
      if (bo->isComparisonOp() || bo->getOpcode() == BO_Sub)
        return; // address arithmetic that reads nothing
      if (bo->getOpcode() == BO_Assign && bo->getRHS()->IgnoreParenImpCasts() == e->IgnoreParenImpCasts()) {
        if (const VarDecl *target = varOf(bo->getLHS()); target && target->hasLocalStorage())
          return undetermined("its address is assigned to the pointer '" + target->getNameAsString() + "'");
        return escape(bo, "its address is stored to memory");
      }
      return undetermined("operator " + bo->getOpcodeStr().str() + " on its address");
    }
    if (auto *ce = dyn_cast<ExplicitCastExpr>(p)) {
      if (ce->getType()->isPointerType())
        return usePointer(ce, offset, f, stack); // float4 unpacking: `*(float4 *)t`
      return undetermined("its address converted to an integer");
    }
    if (auto *ice = dyn_cast<ImplicitCastExpr>(p))
      return usePointer(ice, offset, f, stack);
    if (auto *call = dyn_cast<CallExpr>(p))
      return passed(call, e, offset, f, stack);
    if (auto *ds = dyn_cast<DeclStmt>(p)) {
      for (const Decl *d : ds->decls())
        if (auto *alias = dyn_cast<VarDecl>(d); alias && alias->getInit() &&
                                                alias->getInit()->IgnoreParenImpCasts() == e->IgnoreParenImpCasts()) {
          if (!f.writes.isStable(alias))
            return undetermined("the pointer '" + alias->getNameAsString() + "' to it is reassigned");
          for (const DeclRefExpr *dre : collect<DeclRefExpr>(f.fn->getBody()))
            if (dre->getDecl() == alias)
              usePointer(dre, offset, f, stack);
          return;
        }
      return undetermined("an unrecognized declaration using its address");
    }
    if (isa<ReturnStmt>(p))
      return escape(p, "its address is returned");
    if (isa<UnaryExprOrTypeTraitExpr>(p))
      return; // sizeof
    return undetermined(std::string("its address used in a ") + p->getStmtClassName());
  }

  // The array passed to a call: analyzed inside the callee when it is inlined.
  void passed(const CallExpr *call, const Expr *e, const Verdict &offset, const Frame &f,
              std::vector<const FunctionDecl *> stack) {
    const FunctionDecl *callee = call->getDirectCallee();
    std::string name = callee ? callee->getNameAsString() : "an indirect call";
    if (callee && callee->getBuiltinID())
      return undetermined("passed to '" + name + "'");
    const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
    unsigned argIndex = 0;
    while (argIndex < call->getNumArgs() && call->getArg(argIndex)->IgnoreParenImpCasts() != e->IgnoreParenImpCasts())
      ++argIndex;
    if (!inlinable(def, f, stack) || argIndex >= def->getNumParams() || def->isVariadic()) {
      std::string reason = !def || !def->getBody() ? ", whose body is not in this translation unit"
                           : def && def->hasAttr<NoInlineAttr>() ? ", which is not inlined (__noinline__)"
                                                                 : ", which is not analyzed in place";
      return escape(call, "its address is passed to '" + name + "'" + reason);
    }
    std::vector<SourceLocation> chain = f.callChain;
    chain.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
    Frame &child = frame(def, &f, call, chain);
    stack.push_back(def);
    const ParmVarDecl *param = def->getParamDecl(argIndex);
    for (const DeclRefExpr *dre : collect<DeclRefExpr>(def->getBody()))
      if (dre->getDecl() == param)
        usePointer(dre, offset, child, stack);
  }

  // One element access `t[i]` / `*p` with its subscript's verdict.
  void element(const Expr *access, const Verdict &v, const Frame &f, const std::vector<const FunctionDecl *> &stack) {
    const Stmt *p = f.parent(access);
    if (auto *uo = dyn_cast_or_null<UnaryOperator>(p); uo && uo->getOpcode() == UO_AddrOf)
      return usePointer(uo, v, f, stack); // &t[i]: a pointer again
    bool write = false;
    if (auto *bo = dyn_cast_or_null<BinaryOperator>(p))
      write = bo->isAssignmentOp() && bo->getLHS()->IgnoreParens() == access;
    if (auto *uo = dyn_cast_or_null<UnaryOperator>(p))
      write = uo->isIncrementDecrementOp();
    if (v.kind == Kind::Undetermined)
      return undetermined(v.why);
    PrivateArray &a = array();
    ++a.subscripts;
    if (v.loopVars.size() >= 2)
      a.nestedLoopSubscript = true;
    if (v.kind == Kind::Constant)
      return;
    DynamicSubscript d;
    d.loc = toLocation(ctx_.getSourceManager(), access->getBeginLoc());
    d.text = shortText(ctx_, access);
    d.isWrite = write;
    d.cause = v.cause;
    d.why = v.why;
    if (v.loop.isValid())
      d.loop = toLocation(ctx_.getSourceManager(), v.loop);
    for (const Stmt *p = f.parents->getParent(access); p; p = f.parents->getParent(p))
      if (isLoop(p)) {
        d.inLoop = true;
        d.inRolledLoop = d.inRolledLoop || loopTrips(p, f).kind == Kind::Dynamic;
      }
    if (write && (v.cause == "while-loop" || v.cause == "data-condition"))
      a.shuffledByData = true;
    for (const DynamicSubscript &seen : a.dynamicSubscripts)
      if (seen.loc.line == d.loc.line && seen.loc.column == d.loc.column && seen.loc.file == d.loc.file)
        return; // the same access reached through a second call
    a.dynamicSubscripts.push_back(d);
    bool onlyPragmas = !v.otherDynamic && !v.rolling.empty();
    for (const LoopHintAttr *h : v.rolling)
      onlyPragmas = onlyPragmas && h->getValue();
    if (!onlyPragmas)
      rollingBlocked_.insert(current_);
    else
      rolling_[current_].insert(v.rolling.begin(), v.rolling.end());
  }

  // ---- what a value is after full unrolling ----

  Verdict classify(const Expr *e, const Frame &f) {
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

  Verdict callResult(const CallExpr *call, const Frame &f) {
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

  // A value read from memory: run-time data, unless it is an element of a
  // private array whose contents the analysis cannot tell apart from constants.
  Verdict load(const Expr *e, const Frame &f) {
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

  // Some element of the private array `v` is assigned a run-time value.
  bool arrayHoldsData(const VarDecl *v, const Frame &f) {
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

  Verdict variable(const DeclRefExpr *dre, const Frame &f) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (!v)
      return Verdict::undetermined("'" + dre->getDecl()->getNameAsString() + "' is not a variable");
    return variable(v, f);
  }

  Verdict variable(const VarDecl *v, const Frame &f) {
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

  Verdict decideVariable(const VarDecl *v, const Frame &f) {
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

  static bool isLoop(const Stmt *s) {
    return isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<ForStmt>(s) || isa<CXXForRangeStmt>(s);
  }

  // A local assigned after its declaration: each write's value, and the loops
  // and conditions around it.
  Verdict mutableVariable(const VarDecl *v, const Frame &f) {
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
            Verdict d = Verdict::dynamic(trips.cause == "unroll-pragma" ? "unroll-pragma" : "while-loop",
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

  // Does the loop `s` run a number of times known once the loops around it
  // are unrolled, and is it unrolled fully?
  Verdict loopTrips(const Stmt *s, const Frame &f) {
    if (auto *fs = dyn_cast<ForStmt>(s)) {
      for (auto &[var, loop] : f.inductionLoops)
        if (loop == fs) {
          Verdict v = inductionVariable(var, fs, f);
          return v;
        }
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

  // The counter of a recognized `for` loop: constant after unrolling when its
  // start, bound and step are, and the loop is unrolled fully.
  Verdict inductionVariable(const VarDecl *v, const ForStmt *fs, const Frame &f) {
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
    if (trips && *trips > kAutoUnrollTrips)
      return Verdict::undetermined("a loop of " + std::to_string(*trips) + " iterations the compiler may not unroll");
    return shape;
  }

  // Iterations of `for (v = init; v op bound; v step)` when all are literal
  // constants; nullopt otherwise.
  std::optional<int64_t> tripCount(const VarDecl *v, const Expr *init, const ForStmt *fs) {
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

  ASTContext &ctx_;
  std::deque<Frame> frames_;
  std::vector<PrivateArray> arrays_;
  std::map<const VarDecl *, size_t> order_;
  std::set<size_t> rollingBlocked_;
  std::map<size_t, std::set<const LoopHintAttr *>> rolling_;
  size_t current_ = 0;
  std::set<std::pair<const VarDecl *, const Frame *>> inProgress_;
  std::map<std::pair<const VarDecl *, const Frame *>, Verdict> memo_;
  std::map<std::pair<const VarDecl *, const Frame *>, bool> holdsData_;
};

// Loads reached from an index through locals assigned once.
void gatherLoads(ASTContext &ctx, const Expr *e, std::vector<SourceLocation> &out, int depth) {
  if (!e || depth > 8)
    return;
  e = e->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(e) || (isa<UnaryOperator>(e) && cast<UnaryOperator>(e)->getOpcode() == UO_Deref) ||
      (isa<MemberExpr>(e) && cast<MemberExpr>(e)->isArrow())) {
    out.push_back(toLocation(ctx.getSourceManager(), e->getBeginLoc()));
    return;
  }
  if (auto *call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *fd = call->getDirectCallee();
    if (fd && fd->getNameAsString().rfind("__ldg", 0) == 0 && call->getNumArgs() == 1)
      if (auto *uo = dyn_cast<UnaryOperator>(call->getArg(0)->IgnoreParenImpCasts()); uo && uo->getOpcode() == UO_AddrOf)
        out.push_back(toLocation(ctx.getSourceManager(), uo->getSubExpr()->IgnoreParens()->getBeginLoc()));
  }
  if (auto *v = varOf(e); v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && v->getInit()) {
    gatherLoads(ctx, v->getInit(), out, depth + 1);
    return;
  }
  for (const Stmt *child : e->children())
    if (auto *ce = dyn_cast_or_null<Expr>(child))
      gatherLoads(ctx, ce, out, depth + 1);
}

} // namespace

std::vector<PrivateArray> describePrivateArrays(ASTContext &ctx, const FunctionDecl *fn) {
  if (!fn->getBody() || fn->isDependentContext())
    return {};
  Analysis a(ctx);
  return a.run(fn);
}

std::vector<SourceLocation> indexLoadLocations(ASTContext &ctx, const Expr *access) {
  std::vector<SourceLocation> out;
  // The subscripts and pointer offsets of the access, not the access itself.
  for (const Expr *e = access; e;) {
    e = e->IgnoreParenImpCasts();
    if (auto *ase = dyn_cast<ArraySubscriptExpr>(e)) {
      gatherLoads(ctx, ase->getIdx(), out, 0);
      e = ase->getBase();
    } else if (auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) {
      e = uo->getSubExpr();
    } else if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->getType()->isPointerType()) {
      bool lhsPointer = bo->getLHS()->getType()->isPointerType();
      gatherLoads(ctx, lhsPointer ? bo->getRHS() : bo->getLHS(), out, 0);
      e = lhsPointer ? bo->getLHS() : bo->getRHS();
    } else if (auto *me = dyn_cast<MemberExpr>(e); me && !me->isArrow()) {
      e = me->getBase();
    } else {
      e = nullptr;
    }
  }
  return out;
}

} // namespace warplint
