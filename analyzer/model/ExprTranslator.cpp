#include "analyzer/model/ExprTranslator.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/RecordLayout.h"

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
      if (auto *v = varOf(u->getSubExpr()))
        out.escaped.insert(v);
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
        if (auto *v = varOf(c->getArg(i + shift)))
          out.escaped.insert(v);
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    // A non-const reference or pointer to a local lets it change unseen.
    if (v->getType()->isReferenceType() && v->getInit() &&
        !v->getType()->getPointeeType().isConstQualified())
      if (auto *target = varOf(v->getInit()))
        out.escaped.insert(target);
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
    if (e->EvaluateAsInt(r, ctx_))
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
    auto lv = loopVars_.find(v);
    if (lv != loopVars_.end())
      return lv->second;
    std::string name = v->getNameAsString();
    if (name == "warpSize")
      return IndexExpr::constant(32);
    if (auto *p = dyn_cast<ParmVarDecl>(v)) {
      if (!writes_.isStable(v))
        return IndexExpr::unknown("parameter '" + name + "' is modified in the body");
      if (auto bound = paramValues_.find(p); bound != paramValues_.end())
        return bound->second;
      if (!p->getType()->isIntegralOrEnumerationType())
        return IndexExpr::unknown("parameter '" + name + "' is not an integer");
      if (std::find(symbolicParams_.begin(), symbolicParams_.end(), name) == symbolicParams_.end())
        symbolicParams_.push_back(name);
      return IndexExpr::symbol({SymbolKind::Param, static_cast<int>(p->getFunctionScopeIndex()), name});
    }
    if (v->hasLocalStorage()) {
      if (v->isInvalidDecl())
        return IndexExpr::unknown("'" + name + "' has a compile error");
      if (v->getType()->isReferenceType() && v->getInit() && writes_.isStable(v))
        return translate(v->getInit(), depth + 1);
      if (!writes_.isStable(v))
        return IndexExpr::unknown("'" + name + "' is assigned more than once");
      if (!v->getInit())
        return IndexExpr::unknown("'" + name + "' has no initializer");
      return translate(v->getInit(), depth + 1);
    }
    return IndexExpr::unknown("'" + name + "' is not a local or a parameter");
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
    return IndexExpr::unknown("the result of a call to '" + callee + "'");
  }
  if (auto *me = dyn_cast<MemberExpr>(e))
    if (auto v = cooperativeGroupsMember(me, depth))
      return v;
  if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) ||
      (isa<UnaryOperator>(e) && cast<UnaryOperator>(e)->getOpcode() == UO_Deref))
    return IndexExpr::unknown("a value loaded from memory");
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
