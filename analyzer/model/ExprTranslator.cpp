#include "analyzer/model/ExprTranslator.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/model/Assignments.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>

namespace warplint {

using namespace clang;

namespace {

constexpr int kMaxDepth = 24; // following initializers; guards against cycles

const VarDecl *varOf(const Expr *e) {
  if (auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(dre->getDecl());
  return nullptr;
}

class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
public:
  LocalWrites &out;
  explicit WriteCollector(LocalWrites &o) : out(o) {}

  void written(const Expr *e) {
    if (auto *v = varOf(e))
      out.writes[v]++;
    // A write through a member or element of a local struct or array changes
    // the variable as a whole for our purposes.
    else if (auto *me = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts()))
      written(me->getBase());
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      written(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp())
      written(u->getSubExpr());
    else if (u->getOpcode() == UO_AddrOf)
      if (auto *v = varOf(u->getSubExpr())) {
        out.escaped.insert(v);
        out.aliased.insert(v);
      }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
    if (c->isAssignmentOp() && c->getNumArgs() > 0)
      written(c->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *c) {
    // Binding to a non-const reference parameter lets the callee write it.
    auto *fd = c->getDirectCallee();
    if (!fd)
      return true;
    // A member operator's first argument is the object, not a parameter.
    unsigned shift = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(fd) ? 1 : 0;
    for (unsigned i = 0; i + shift < c->getNumArgs() && i < fd->getNumParams(); ++i) {
      QualType pt = fd->getParamDecl(i)->getType();
      if (pt->isReferenceType() && !pt->getPointeeType().isConstQualified())
        if (auto *v = varOf(c->getArg(i + shift))) {
          out.escaped.insert(v);
          out.boundToCallReference.insert(v);
          out.writes[v]++; // the callee may assign it
        }
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    // A non-const reference or pointer to a local lets it change unseen.
    if (v->getType()->isReferenceType() && v->getInit() &&
        !v->getType()->getPointeeType().isConstQualified())
      if (auto *target = varOf(v->getInit())) {
        out.escaped.insert(target);
        out.aliased.insert(target);
      }
    return true;
  }
};

ExprOp binaryOp(BinaryOperatorKind k, bool &ok) {
  ok = true;
  switch (k) {
  case BO_Add: return ExprOp::Add;
  case BO_Sub: return ExprOp::Sub;
  case BO_Mul: return ExprOp::Mul;
  case BO_Div: return ExprOp::Div;
  case BO_Rem: return ExprOp::Rem;
  case BO_Shl: return ExprOp::Shl;
  case BO_Shr: return ExprOp::Shr;
  case BO_And: return ExprOp::And;
  case BO_Or: return ExprOp::Or;
  case BO_Xor: return ExprOp::Xor;
  case BO_LT: return ExprOp::Lt;
  case BO_LE: return ExprOp::Le;
  case BO_GT: return ExprOp::Gt;
  case BO_GE: return ExprOp::Ge;
  case BO_EQ: return ExprOp::Eq;
  case BO_NE: return ExprOp::Ne;
  case BO_LAnd: return ExprOp::LAnd;
  case BO_LOr: return ExprOp::LOr;
  default: ok = false; return ExprOp::Unknown;
  }
}

bool dependentOrBroken(const Expr *e) {
  return e->isValueDependent() || e->isTypeDependent() || e->containsErrors() ||
         e->isInstantiationDependent();
}

QualType innermostElement(QualType t) {
  while (const ArrayType *at = t->getAsArrayTypeUnsafe())
    t = at->getElementType();
  return t;
}

} // namespace

LocalWrites LocalWrites::collect(const Stmt *body) {
  LocalWrites w;
  if (body) {
    WriteCollector c(w);
    c.TraverseStmt(const_cast<Stmt *>(body));
  }
  return w;
}

int64_t ExprTranslator::sizeOf(QualType t) const {
  if (t.isNull() || t->isDependentType() || t->isIncompleteType() || t->containsErrors() ||
      t->isVoidType())
    return 0;
  return ctx_.getTypeSizeInChars(t).getQuantity();
}

AddressSpace ExprTranslator::spaceOf(const ValueDecl *root, const FunctionDecl *fn) {
  if (!root)
    return AddressSpace::Generic;
  if (root->hasAttr<CUDASharedAttr>())
    return AddressSpace::Shared;
  if (root->hasAttr<CUDAConstantAttr>())
    return AddressSpace::Constant;
  if (isa<ParmVarDecl>(root))
    return fn && fn->hasAttr<CUDAGlobalAttr>() ? AddressSpace::Global : AddressSpace::Generic;
  if (auto *v = dyn_cast<VarDecl>(root)) {
    if (v->hasGlobalStorage() && v->hasAttr<CUDADeviceAttr>())
      return AddressSpace::Global;
    if (v->hasLocalStorage())
      return AddressSpace::Local;
  }
  return AddressSpace::Generic;
}

ExprRef ExprTranslator::index(const Expr *e) { return translate(e, 0); }

ExprRef ExprTranslator::builtinVar(const Expr *e) {
  auto *pseudo = dyn_cast<PseudoObjectExpr>(e);
  if (!pseudo)
    return nullptr;
  auto *prop = dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens());
  if (!prop)
    return nullptr;
  const Expr *baseExpr = prop->getBaseExpr()->IgnoreParenImpCasts();
  if (auto *ove = dyn_cast<OpaqueValueExpr>(baseExpr); ove && ove->getSourceExpr())
    baseExpr = ove->getSourceExpr()->IgnoreParenImpCasts();
  auto *base = dyn_cast<DeclRefExpr>(baseExpr);
  if (!base)
    return nullptr;
  std::string var = base->getDecl()->getName().str();
  std::string field = prop->getPropertyDecl()->getName().str();
  int dim = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
  if (dim < 0)
    return nullptr;
  static const char *axis[3] = {"x", "y", "z"};
  if (var == "threadIdx")
    return IndexExpr::symbol({SymbolKind::ThreadIdx, dim, std::string("threadIdx.") + axis[dim]});
  if (var == "blockIdx")
    return IndexExpr::symbol({SymbolKind::BlockIdx, dim, std::string("blockIdx.") + axis[dim]});
  if (var == "blockDim")
    return IndexExpr::symbol({SymbolKind::BlockDim, dim, std::string("blockDim.") + axis[dim]});
  if (var == "gridDim")
    return IndexExpr::symbol({SymbolKind::GridDim, dim, std::string("gridDim.") + axis[dim]});
  return nullptr;
}

ExprRef ExprTranslator::translate(const Expr *e, int depth) {
  if (!e)
    return IndexExpr::unknown("missing expression");
  if (depth > kMaxDepth)
    return IndexExpr::unknown("initializer chain too deep");
  e = e->IgnoreParens();
  if (dependentOrBroken(e))
    return IndexExpr::unknown("depends on a template parameter");
  if (e->getType()->isIntegralOrEnumerationType() || e->getType()->isBooleanType()) {
    Expr::EvalResult r;
    if (!unfoldable_.surely(e) && e->EvaluateAsInt(r, ctx_))
      return IndexExpr::constant(r.Val.getInt().getExtValue());
  }
  if (auto b = builtinVar(e))
    return b;

  if (auto *cast = dyn_cast<CastExpr>(e)) {
    switch (cast->getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_IntegralToBoolean:
    case CK_LValueToRValue:
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
      return translate(cast->getSubExpr(), depth + 1);
    default:
      if (isUniformScalar(cast->getSubExpr(), depth + 1))
        return uniformValue(text(e), e);
      return IndexExpr::unknown("a conversion from a non-integer value");
    }
  }
  if (auto *ewc = dyn_cast<ExprWithCleanups>(e))
    return translate(ewc->getSubExpr(), depth + 1);
  if (auto *mte = dyn_cast<MaterializeTemporaryExpr>(e))
    return translate(mte->getSubExpr(), depth + 1);

  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (!v)
      return IndexExpr::unknown("'" + dre->getDecl()->getNameAsString() + "' is not a variable");
    return translateLocal(v, dre, depth);
  }

  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    bool ok;
    ExprOp op = binaryOp(bo->getOpcode(), ok);
    if (!ok)
      return IndexExpr::unknown("operator " + bo->getOpcodeStr().str());
    return IndexExpr::make(op, {translate(bo->getLHS(), depth + 1), translate(bo->getRHS(), depth + 1)});
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    auto sub = [&] { return translate(uo->getSubExpr(), depth + 1); };
    switch (uo->getOpcode()) {
    case UO_Plus: return sub();
    case UO_Minus: return IndexExpr::make(ExprOp::Neg, {sub()});
    case UO_LNot: return IndexExpr::make(ExprOp::Not, {sub()});
    case UO_Not: return IndexExpr::make(ExprOp::BitNot, {sub()});
    default: return IndexExpr::unknown("operator " + UnaryOperator::getOpcodeStr(uo->getOpcode()).str());
    }
  }
  if (auto *co = dyn_cast<ConditionalOperator>(e))
    return IndexExpr::make(ExprOp::Select, {translate(co->getCond(), depth + 1),
                                            translate(co->getTrueExpr(), depth + 1),
                                            translate(co->getFalseExpr(), depth + 1)});
  if (auto *call = dyn_cast<CallExpr>(e)) {
    if (auto v = cooperativeGroupsValue(call, depth))
      return v;
    if (auto v = returnedValue(call, depth))
      return v;
    auto *fd = call->getDirectCallee();
    std::string callee = fd ? fd->getNameAsString() : "";
    if (call->getNumArgs() == 2) {
      auto a = translate(call->getArg(0), depth + 1), b = translate(call->getArg(1), depth + 1);
      if (callee == "min" || callee == "umin" || callee == "llmin" || callee == "ullmin")
        return IndexExpr::make(ExprOp::Min, {a, b});
      if (callee == "max" || callee == "umax" || callee == "llmax" || callee == "ullmax")
        return IndexExpr::make(ExprOp::Max, {a, b});
      if (callee == "__mul24" || callee == "__umul24")
        return IndexExpr::make(ExprOp::Mul, {a, b});
    }
    static const std::set<std::string> loads{"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"};
    if (loads.count(callee) && call->getNumArgs() == 1) {
      auto ref = pointerValue(call->getArg(0), depth + 1);
      if (ref && (ref->space == AddressSpace::Global || ref->space == AddressSpace::Shared) &&
          ref->byteOffset->isWarpUniform())
        return uniformValue(text(e), e);
      return IndexExpr::unknown("a value loaded from memory");
    }
    if (isUniformCall(call, depth))
      return uniformValue(text(e), e);
    return IndexExpr::unknown("the result of a call to '" + callee + "'");
  }
  if (auto *me = dyn_cast<MemberExpr>(e))
    if (auto v = cooperativeGroupsMember(me, depth))
      return v;
  if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) ||
      (isa<UnaryOperator>(e) && cast<UnaryOperator>(e)->getOpcode() == UO_Deref))
    return loadedValue(e, depth);
  return IndexExpr::unknown(std::string("an expression of kind ") + e->getStmtClassName());
}

ExprRef ExprTranslator::bytesOf(ExprRef elements, QualType elementType) const {
  int64_t elem = sizeOf(elementType);
  return elem > 0 ? IndexExpr::mul(std::move(elements), IndexExpr::constant(elem))
                  : IndexExpr::unknown("element size depends on a template parameter");
}

MemoryRef ExprTranslator::rootRef(const ValueDecl *d, QualType elementType) {
  MemoryRef r;
  r.root = d;
  r.rootName = d->getNameAsString();
  r.space = spaceOf(d, fn_);
  r.byteOffset = IndexExpr::constant(0);
  QualType el = innermostElement(elementType);
  r.rootElementSize = sizeOf(el);
  if (auto *v = dyn_cast<VarDecl>(d); v && !isa<ParmVarDecl>(v) && !v->getType()->isPointerType())
    r.rootExtentBytes = sizeOf(v->getType());
  r.rootElementType = el.getAsString();
  return r;
}

std::optional<MemoryRef> ExprTranslator::lvalue(const Expr *e) { return lvalueAt(e, 0); }

std::optional<MemoryRef> ExprTranslator::retyped(std::optional<MemoryRef> ref, QualType elementType) const {
  // Accesses through the cast pointer index elements of the new type.
  int64_t size = sizeOf(elementType);
  if (ref && size > 0) {
    ref->rootElementSize = size;
    ref->rootElementType = elementType.getUnqualifiedType().getAsString();
  }
  return ref;
}

std::optional<MemoryRef> ExprTranslator::lvalueAt(const Expr *e, int depth) {
  if (!e || depth > kMaxDepth)
    return std::nullopt;
  e = e->IgnoreParens();
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (!v)
      return std::nullopt;
    if (v->getType()->isReferenceType()) {
      if (auto *p = dyn_cast<ParmVarDecl>(v))
        if (auto bound = paramMemory_.find(p); bound != paramMemory_.end() && writes_.isStable(v))
          return bound->second;
      if (v->hasLocalStorage() && !v->isInvalidDecl() && v->getInit() && writes_.isStable(v))
        return lvalueAt(v->getInit(), depth + 1);
      return std::nullopt;
    }
    AddressSpace s = spaceOf(v, fn_);
    bool memory = s == AddressSpace::Shared || s == AddressSpace::Constant ||
                  (s == AddressSpace::Global && !isa<ParmVarDecl>(v)) ||
                  (s == AddressSpace::Local && v->getType()->isArrayType());
    if (!memory)
      return std::nullopt; // a register
    return rootRef(v, v->getType());
  }
  if (auto *ase = dyn_cast<ArraySubscriptExpr>(e)) {
    auto base = pointerValue(ase->getBase(), depth + 1);
    if (!base)
      return std::nullopt;
    base->byteOffset = IndexExpr::add(base->byteOffset, bytesOf(translate(ase->getIdx(), depth + 1), ase->getType()));
    return base;
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_Deref)
      return pointerValue(uo->getSubExpr(), depth + 1);
    return std::nullopt;
  }
  if (auto *me = dyn_cast<MemberExpr>(e)) {
    auto *field = dyn_cast<FieldDecl>(me->getMemberDecl());
    if (!field || field->getParent()->isInvalidDecl() || field->getParent()->isDependentType())
      return std::nullopt;
    auto base = me->isArrow() ? pointerValue(me->getBase(), depth + 1) : lvalueAt(me->getBase(), depth + 1);
    if (!base)
      return std::nullopt;
    int64_t offset = ctx_.getFieldOffset(field) / 8;
    base->byteOffset = IndexExpr::add(base->byteOffset, IndexExpr::constant(offset));
    return base;
  }
  if (auto *cast = dyn_cast<CastExpr>(e)) {
    if (cast->getCastKind() == CK_NoOp)
      return lvalueAt(cast->getSubExpr(), depth + 1);
    if (cast->getCastKind() == CK_LValueBitCast)
      return retyped(lvalueAt(cast->getSubExpr(), depth + 1), cast->getType());
  }
  if (auto *call = dyn_cast<CallExpr>(e); call && call->getCallReturnType(ctx_)->isReferenceType())
    return returnedMemory(call, depth + 1); // `float &at(int i) { return tile[i]; }`
  return std::nullopt;
}

// A pointer the walker follows (ReachingValues: `p += e` and the like): where
// it started, moved by the offset bound to it now.
std::optional<MemoryRef> ExprTranslator::movedPointer(const VarDecl *v, int depth) {
  auto bound = loopVars_.find(v);
  if (cleanMode_ || bound == loopVars_.end() || !bound->second->isKnown())
    return std::nullopt;
  std::optional<MemoryRef> start;
  if (auto *p = dyn_cast<ParmVarDecl>(v)) {
    if (auto it = paramMemory_.find(p); it != paramMemory_.end())
      start = it->second;
    else
      start = rootRef(v, v->getType()->getPointeeType());
  } else if (v->hasLocalStorage() && !v->isInvalidDecl() && v->getInit()) {
    start = pointerValue(v->getInit(), depth + 1);
  }
  if (!start)
    return std::nullopt;
  start->byteOffset = IndexExpr::add(start->byteOffset, bytesOf(bound->second, v->getType()->getPointeeType()));
  return start;
}

std::optional<MemoryRef> ExprTranslator::pointerValue(const Expr *e, int depth) {
  if (!e || depth > kMaxDepth)
    return std::nullopt;
  e = e->IgnoreParens();
  if (auto *cast = dyn_cast<CastExpr>(e)) {
    switch (cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalueAt(cast->getSubExpr(), depth + 1);
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_AddressSpaceConversion:
    case CK_UserDefinedConversion: // `T *s = SharedMemory<T>();` through `operator T *()`
      return pointerValue(cast->getSubExpr(), depth + 1);
    case CK_BitCast: // a buffer carved into typed pointers: `(float *)(smem + 256)`
      return retyped(pointerValue(cast->getSubExpr(), depth + 1), cast->getType()->getPointeeType());
    default:
      return std::nullopt;
    }
  }
  if (auto *ewc = dyn_cast<ExprWithCleanups>(e))
    return pointerValue(ewc->getSubExpr(), depth + 1);
  if (auto *call = dyn_cast<CallExpr>(e); call && call->getType()->isPointerType())
    return returnedMemory(call, depth + 1);
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (!v)
      return std::nullopt;
    if (v->getType()->isArrayType()) // decayed elsewhere; a reference to the array itself
      return lvalueAt(e, depth + 1);
    if (!v->getType()->isPointerType())
      return std::nullopt;
    if (auto moved = movedPointer(v, depth))
      return moved;
    if (auto *p = dyn_cast<ParmVarDecl>(v)) {
      if (!writes_.isStable(v))
        return std::nullopt;
      if (auto bound = paramMemory_.find(p); bound != paramMemory_.end())
        return bound->second;
      return rootRef(v, v->getType()->getPointeeType());
    }
    if (v->hasLocalStorage() && !v->isInvalidDecl() && v->getInit() && writes_.isStable(v))
      return pointerValue(v->getInit(), depth + 1);
    return std::nullopt;
  }
  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    if (bo->getOpcode() != BO_Add && bo->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *ptr = bo->getLHS(), *offset = bo->getRHS();
    if (!ptr->getType()->isPointerType())
      std::swap(ptr, offset);
    if (!ptr->getType()->isPointerType() || offset->getType()->isPointerType())
      return std::nullopt;
    auto base = pointerValue(ptr, depth + 1);
    if (!base)
      return std::nullopt;
    ExprRef idx = translate(offset, depth + 1);
    if (bo->getOpcode() == BO_Sub)
      idx = IndexExpr::make(ExprOp::Neg, {idx});
    base->byteOffset = IndexExpr::add(base->byteOffset, bytesOf(idx, ptr->getType()->getPointeeType()));
    return base;
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_AddrOf)
      return lvalueAt(uo->getSubExpr(), depth + 1);
  }
  return std::nullopt;
}

} // namespace warplint

namespace warplint {

std::string ExprTranslator::text(const Expr *e) const {
  const SourceManager &sm = ctx_.getSourceManager();
  CharSourceRange r = CharSourceRange::getTokenRange(sm.getExpansionRange(e->getSourceRange()).getAsRange());
  std::string t = Lexer::getSourceText(r, sm, ctx_.getLangOpts()).str();
  return t.empty() ? "value" : t;
}

ExprRef ExprTranslator::uniformValue(const std::string &name, const void *key) {
  if (key)
    if (auto it = uniformByKey_.find(key); it != uniformByKey_.end())
      return it->second;
  ExprRef sym = IndexExpr::symbol({SymbolKind::Uniform, (*uniformIds_)++, name});
  if (key)
    uniformByKey_[key] = sym;
  return sym;
}

std::optional<ExprOp> ExprTranslator::compoundOp(BinaryOperatorKind k) {
  bool ok;
  ExprOp op = binaryOp(BinaryOperator::getOpForCompoundAssignment(k), ok);
  if (!ok)
    return std::nullopt;
  return op;
}

ExprRef ExprTranslator::entryValue(const ParmVarDecl *p) {
  if (auto bound = paramValues_.find(p); bound != paramValues_.end())
    return bound->second;
  std::string name = p->getNameAsString();
  if (!p->getType()->isIntegralOrEnumerationType())
    return IndexExpr::unknown("parameter '" + name + "' is not an integer");
  if (std::find(symbolicParams_.begin(), symbolicParams_.end(), name) == symbolicParams_.end())
    symbolicParams_.push_back(name);
  return IndexExpr::symbol(
      {SymbolKind::Param, static_cast<int>(p->getFunctionScopeIndex()), name, p->getType()->isBooleanType()});
}

ExprRef ExprTranslator::translateLocal(const VarDecl *v, const DeclRefExpr *use, int depth) {
  // A followed pointer's bound value is its offset, not its value: only
  // pointerValue reads it.
  if (!cleanMode_ && !v->getType()->isPointerType()) {
    auto lv = loopVars_.find(v);
    if (lv != loopVars_.end())
      return lv->second;
  }
  std::string name = v->getNameAsString();
  if (name == "warpSize")
    return IndexExpr::constant(32);
  if (auto *p = dyn_cast<ParmVarDecl>(v)) {
    if (!writes_.isStable(v))
      return IndexExpr::unknown("parameter '" + name + "' is modified in the body");
    return entryValue(p);
  }
  if (v->hasLocalStorage()) {
    if (v->isInvalidDecl())
      return IndexExpr::unknown("'" + name + "' has a compile error");
    if (v->getType()->isReferenceType() && v->getInit() && writes_.isStable(v))
      return translate(v->getInit(), depth + 1);
    if (!writes_.isStable(v)) {
      // Read where the walker does not follow its value: still usable when
      // every lane holds the same value wherever it is read.
      if (cleanMode_ && checkingLocals_.count(v))
        return uniformValue(name, v); // being decided: assumed uniform
      if (v->getType()->isIntegralOrEnumerationType() && !writes_.escaped.count(v) && isUniformLocal(v))
        return uniformValue(name, use);
      return IndexExpr::unknown("'" + name + "' is assigned more than once");
    }
    if (!v->getInit())
      return IndexExpr::unknown("'" + name + "' has no initializer");
    return translate(v->getInit(), depth + 1);
  }
  if (v->hasGlobalStorage() && v->getType().isConstQualified() && v->getInit() &&
      v->getType()->isIntegralOrEnumerationType())
    return translate(v->getInit(), depth + 1);
  return IndexExpr::unknown("'" + name + "' is not a local or a parameter");
}

bool ExprTranslator::isUniformLocal(const VarDecl *v) {
  if (auto it = uniformLocals_.find(v); it != uniformLocals_.end())
    return it->second;
  if (!fn_ || !fn_->getBody() || writes_.escaped.count(v) || !v->getInit() || checkingLocals_.size() > 16)
    return false;
  checkingLocals_.insert(v);
  ++cleanMode_;
  bool uniform = true;
  if (!assignments_ || assignments_->body != fn_->getBody())
    assignments_ = indexAssignments(fn_->getBody());
  std::shared_ptr<AssignmentIndex> index = assignments_; // kept alive through the recursion
  for (const Assignment &a : index->of(v)) {
    if (a.value && !isUniformScalar(a.value)) {
      uniform = false;
      break;
    }
    bool lanesMayLeave = false;
    for (const Expr *c : controllingConditions(ctx_, a.node, fn_->getBody(), lanesMayLeave, index.get(),
                                               bodyParents_ ? &bodyParents_->of(fn_->getBody()) : nullptr))
      if (!isUniformScalar(c)) {
        uniform = false;
        break;
      }
    if (!uniform || lanesMayLeave) {
      uniform = false;
      break;
    }
  }
  --cleanMode_;
  checkingLocals_.erase(v);
  // A decision made while another local was assumed uniform may rest on that
  // assumption; only outermost decisions are kept.
  if (checkingLocals_.empty())
    uniformLocals_[v] = uniform;
  return uniform;
}

ExprRef ExprTranslator::opaqueLocal(const VarDecl *v, const std::string &why) {
  if (v->getType()->isIntegralOrEnumerationType() && !writes_.escaped.count(v) && isUniformLocal(v))
    return uniformValue(v->getNameAsString());
  return IndexExpr::unknown("'" + v->getNameAsString() + "' " + why);
}

ExprRef ExprTranslator::loadedValue(const Expr *e, int depth) {
  // A load every lane makes from one address gives every lane one value:
  // memory a thread owns alone (local arrays) aside.
  if (auto ref = lvalueAt(e, depth + 1)) {
    bool shared = ref->space == AddressSpace::Global || ref->space == AddressSpace::Shared ||
                  ref->space == AddressSpace::Constant;
    if (shared && ref->byteOffset->isWarpUniform())
      return uniformValue(text(e), e);
    if (ref->byteOffset->isKnown())
      return IndexExpr::unknown("a value loaded from memory at a lane-dependent address");
  }
  // A member of a struct passed by value to the kernel.
  const Expr *base = e->IgnoreParenImpCasts();
  while (auto *me = dyn_cast<MemberExpr>(base)) {
    if (me->isArrow())
      break;
    base = me->getBase()->IgnoreParenImpCasts();
  }
  if (base != e->IgnoreParenImpCasts())
    if (auto *dre = dyn_cast<DeclRefExpr>(base))
      if (auto *p = dyn_cast<ParmVarDecl>(dre->getDecl());
          p && fn_ && fn_->hasAttr<CUDAGlobalAttr>() && writes_.isStable(p) && !p->getType()->isPointerType())
        return uniformValue(text(e), e);
  return IndexExpr::unknown("a value loaded from memory");
}

bool ExprTranslator::isUniformScalar(const Expr *e, int depth) {
  if (!e || depth > kMaxDepth)
    return false;
  e = e->IgnoreParens();
  if (dependentOrBroken(e))
    return false;
  if (e->getType()->isIntegralOrEnumerationType() || e->getType()->isBooleanType())
    return translate(e, depth + 1)->isWarpUniform();
  if (isa<FloatingLiteral>(e) || isa<IntegerLiteral>(e) || isa<CXXBoolLiteralExpr>(e))
    return true;
  if (!e->getType()->isArithmeticType())
    return false;
  if (auto *cast = dyn_cast<CastExpr>(e))
    return isUniformScalar(cast->getSubExpr(), depth + 1);
  if (auto *bo = dyn_cast<BinaryOperator>(e))
    return !bo->isAssignmentOp() && bo->getOpcode() != BO_Comma && isUniformScalar(bo->getLHS(), depth + 1) &&
           isUniformScalar(bo->getRHS(), depth + 1);
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf)
      return false;
    if (uo->getOpcode() != UO_Deref)
      return isUniformScalar(uo->getSubExpr(), depth + 1);
  }
  if (auto *co = dyn_cast<ConditionalOperator>(e))
    return isUniformScalar(co->getCond(), depth + 1) && isUniformScalar(co->getTrueExpr(), depth + 1) &&
           isUniformScalar(co->getFalseExpr(), depth + 1);
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (!v)
      return false;
    if (auto *p = dyn_cast<ParmVarDecl>(v))
      return fn_ && fn_->hasAttr<CUDAGlobalAttr>() && writes_.isStable(p);
    if (v->hasLocalStorage() && !v->isInvalidDecl() && !v->getType()->isReferenceType()) {
      if (writes_.isStable(v))
        return v->getInit() && isUniformScalar(v->getInit(), depth + 1);
      if (checkingLocals_.count(v))
        return true;
      return !writes_.escaped.count(v) && isUniformLocal(v);
    }
    return v->hasGlobalStorage() && v->getType().isConstQualified();
  }
  if (auto *call = dyn_cast<CallExpr>(e))
    return isUniformCall(call, depth);
  if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) || isa<UnaryOperator>(e))
    return loadedValue(e, depth)->isWarpUniform();
  return false;
}

bool ExprTranslator::isUniformCall(const CallExpr *call, int depth) {
  // Calls that differ per lane whatever their arguments: atomics hand out
  // tickets, shuffles and votes exchange lanes' values, clocks and random
  // generators differ; member calls (cooperative groups) read the lane.
  static const char *const laneDependent[] = {"atomic", "__shfl", "__ballot", "__any", "__all", "__activemask",
                                              "__match", "__reduce", "clock", "__syncthreads_", "__lane",
                                              "curand", "rand", "__nanosleep", "__vote", "__popc"};
  const FunctionDecl *fd = call->getDirectCallee();
  if (!fd || isa<CXXMemberCallExpr>(call) || isa<CXXOperatorCallExpr>(call) || call->getNumArgs() == 0 ||
      !fd->getReturnType()->isArithmeticType())
    return false;
  std::string name = fd->getNameAsString();
  for (const char *prefix : laneDependent)
    if (name.rfind(prefix, 0) == 0)
      return false;
  for (const Expr *arg : call->arguments())
    if (!isUniformScalar(arg, depth + 1))
      return false;
  return laneFreeFunction(fd, 0);
}

// A function whose result depends only on its arguments as far as lanes go:
// the toolkit's math functions, or a user function that reads no thread
// index, holds no inline assembly and calls only such functions.
bool ExprTranslator::laneFreeFunction(const FunctionDecl *fd, int depth) {
  // Library code that reads the lane: cub's and cooperative groups' helpers.
  std::string qualified = fd->getQualifiedNameAsString();
  for (const char *ns : {"cub::", "cooperative_groups::", "cuda::", "thrust::"})
    if (qualified.rfind(ns, 0) == 0)
      return false;
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->getBody())
    return ctx_.getSourceManager().isInSystemHeader(fd->getLocation()) || fd->getBuiltinID() != 0;
  if (ctx_.getSourceManager().isInSystemHeader(def->getLocation()))
    return true;
  if (depth > 3)
    return false;
  if (auto it = laneFree_.find(def); it != laneFree_.end())
    return it->second;
  laneFree_[def] = false; // recursion: not lane-free
  struct Finder : RecursiveASTVisitor<Finder> {
    ExprTranslator &tr;
    int depth;
    bool laneDependent = false;
    Finder(ExprTranslator &t, int d) : tr(t), depth(d) {}
    bool VisitAsmStmt(AsmStmt *) { return !(laneDependent = true); }
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      std::string n = d->getDecl()->getNameAsString();
      if (n == "threadIdx" || n == "__lane_id")
        laneDependent = true;
      return !laneDependent;
    }
    bool VisitCallExpr(CallExpr *c) {
      const FunctionDecl *callee = c->getDirectCallee();
      if (!callee || !tr.laneFreeFunction(callee, depth + 1))
        laneDependent = true;
      return !laneDependent;
    }
  } finder(*this, depth);
  finder.TraverseStmt(def->getBody());
  laneFree_[def] = !finder.laneDependent;
  return !finder.laneDependent;
}

} // namespace warplint
