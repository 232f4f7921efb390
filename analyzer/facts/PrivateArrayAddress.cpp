// Private arrays: where an array's address goes. Each use of the array (or
// of a pointer into it) is followed to an element access, whose subscript is
// then classified; to an alias, a pointer offset or a call analyzed in
// place, which are followed further; or out of the code indexing it (stored
// to memory, returned, passed to a function not analyzed in place), which is
// an escape.
#include "analyzer/facts/PrivateArrayAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace warplint::private_arrays {

using namespace clang;

void Analysis::undetermined(const std::string &why) {
  PrivateArray &a = array();
  ++a.subscripts;
  if (a.undeterminedSubscripts++ == 0)
    a.undeterminedReason = why;
}

void Analysis::escape(const Stmt *at, const std::string &why) {
  PrivateArray &a = array();
  if (a.escape.empty()) {
    a.escape = why;
    a.escapeLoc = toLocation(ctx_.getSourceManager(), at->getBeginLoc());
  }
}

void Analysis::usePointer(const Expr *e, const Verdict &offset, const Frame &f, CallStack stack) {
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

void Analysis::passed(const CallExpr *call, const Expr *e, const Verdict &offset, const Frame &f,
                      CallStack stack) {
  const FunctionDecl *callee = call->getDirectCallee();
  std::string name = callee ? callee->getNameAsString() : "an indirect call";
  if (callee && callee->getBuiltinID())
    return undetermined("passed to '" + name + "'");
  const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
  unsigned argIndex = 0;
  while (argIndex < call->getNumArgs() && call->getArg(argIndex)->IgnoreParenImpCasts() != e->IgnoreParenImpCasts())
    ++argIndex;
  // What makes the compiler keep a call (and so the array's address): no
  // body to inline, __noinline__, recursion, a variable argument list. A
  // visible body the analysis does not follow is a gap, not an escape:
  // nvcc inlines __device__ functions whose bodies it sees, CUB's and
  // CUTLASS's `__forceinline__` layers included.
  if (!def || !def->getBody())
    return escape(call, "its address is passed to '" + name + "', whose body is not in this translation unit");
  if (def->hasAttr<NoInlineAttr>())
    return escape(call, "its address is passed to '" + name + "', which is not inlined (__noinline__)");
  if (def->isVariadic())
    return escape(call, "its address is passed to '" + name + "', which takes a variable argument list");
  if (std::find(stack.begin(), stack.end(), def) != stack.end())
    return escape(call, "its address is passed to '" + name + "', which is recursive");
  unsigned skip = firstArgument(call, def);
  if (argIndex < skip || argIndex - skip >= def->getNumParams())
    return undetermined("passed to '" + name + "' as an argument the analysis does not match to a parameter");
  if (!inlinable(def, f, stack, kMaxArrayCallDepth))
    return undetermined("passed to '" + name + "', which is not analyzed in place (" +
                        (isDeviceFunction(def) ? "more than " + std::to_string(kMaxArrayCallDepth) + " calls deep"
                                               : std::string("not a __device__ function")) +
                        ")");
  std::vector<SourceLocation> chain = f.callChain;
  chain.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
  Frame &child = frame(def, &f, call, chain);
  stack.push_back(def);
  const ParmVarDecl *param = def->getParamDecl(argIndex - skip);
  for (const DeclRefExpr *dre : collect<DeclRefExpr>(def->getBody()))
    if (dre->getDecl() == param)
      usePointer(dre, offset, child, stack);
}

void Analysis::useObject(const Expr *e, const FieldPath &path, size_t at, const Frame &f, CallStack stack) {
  const Stmt *p = f.parent(e);
  if (!p)
    return undetermined("an unrecognized use of the object holding it");
  const Expr *self = e->IgnoreParenImpCasts();
  if (auto *me = dyn_cast<MemberExpr>(p); me && me->getBase()->IgnoreParenImpCasts() == self) {
    const ValueDecl *member = me->getMemberDecl();
    if (member == path[at])
      return at + 1 == path.size() ? usePointer(me, Verdict{}, f, stack) : useObject(me, path, at + 1, f, stack);
    if (auto *method = dyn_cast<CXXMethodDecl>(member)) {
      if (auto *call = dyn_cast_or_null<CXXMemberCallExpr>(f.parent(me)); call && !method->isStatic())
        return objectCall(call, method, e, true, path, at, f, stack);
      return undetermined("a method of the object holding it used other than in a call");
    }
    return; // another field
  }
  if (auto *uo = dyn_cast<UnaryOperator>(p)) {
    if (uo->getOpcode() == UO_AddrOf || uo->getOpcode() == UO_Deref)
      return useObject(uo, path, at, f, stack);
    return undetermined("operator " + UnaryOperator::getOpcodeStr(uo->getOpcode()).str() + " on the object holding it");
  }
  if (auto *ice = dyn_cast<ImplicitCastExpr>(p)) {
    if (ice->getType()->isPointerType()) // a pointer to the object read
      return useObject(ice, path, at, f, stack);
    return; // a copy of the whole object: every element, constant subscripts
  }
  if (auto *call = dyn_cast<CallExpr>(p)) {
    const FunctionDecl *callee = call->getDirectCallee();
    bool asThis = isa<CXXOperatorCallExpr>(call) && callee && isa<CXXMethodDecl>(callee) &&
                  !cast<CXXMethodDecl>(callee)->isStatic() && call->getNumArgs() > 0 &&
                  call->getArg(0)->IgnoreParenImpCasts() == self;
    return objectCall(call, callee, e, asThis, path, at, f, stack);
  }
  if (isa<CXXConstructExpr>(p))
    return; // copied (by value): the copy's elements are read with constant subscripts
  if (auto *ds = dyn_cast<DeclStmt>(p)) {
    for (const Decl *d : ds->decls())
      if (auto *alias = dyn_cast<VarDecl>(d); alias && alias->getInit() &&
                                              alias->getInit()->IgnoreParenImpCasts() == self) {
        if (!alias->getType()->isPointerType() && !alias->getType()->isReferenceType())
          return; // a copy
        if (!f.writes.isStable(alias))
          return undetermined("the pointer '" + alias->getNameAsString() + "' to the object holding it is reassigned");
        for (const DeclRefExpr *dre : collect<DeclRefExpr>(f.fn->getBody()))
          if (dre->getDecl() == alias)
            useObject(dre, path, at, f, stack);
        return;
      }
    return undetermined("an unrecognized declaration using the object holding it");
  }
  if (auto *bo = dyn_cast<BinaryOperator>(p)) {
    if (bo->isComparisonOp())
      return;
    if (bo->getOpcode() == BO_Assign && bo->getRHS()->IgnoreParenImpCasts() == self) {
      if (const VarDecl *target = varOf(bo->getLHS()); target && target->hasLocalStorage())
        return undetermined("the address of the object holding it is assigned to '" + target->getNameAsString() + "'");
      if (e->getType()->isPointerType())
        return escape(bo, "the address of the object holding it is stored to memory");
      return; // a copy
    }
    return undetermined("operator " + bo->getOpcodeStr().str() + " on the object holding it");
  }
  if (isa<ReturnStmt>(p))
    return undetermined("the object holding it is returned");
  if (isa<UnaryExprOrTypeTraitExpr>(p))
    return;
  return undetermined(std::string("the object holding it used in a ") + p->getStmtClassName());
}

void Analysis::objectCall(const CallExpr *call, const FunctionDecl *callee, const Expr *e, bool asThis,
                          const FieldPath &path, size_t at, const Frame &f, CallStack stack) {
  std::string name = callee ? callee->getNameAsString() : "an indirect call";
  if (callee && callee->getBuiltinID())
    return undetermined("the object holding it is passed to '" + name + "'");
  const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
  if (!def || !def->getBody())
    return escape(call, "the object holding it is passed to '" + name + "', whose body is not in this translation unit");
  if (def->hasAttr<NoInlineAttr>())
    return escape(call, "the object holding it is passed to '" + name + "', which is not inlined (__noinline__)");
  if (std::find(stack.begin(), stack.end(), def) != stack.end())
    return escape(call, "the object holding it is passed to '" + name + "', which is recursive");
  if (!inlinable(def, f, stack, kMaxArrayCallDepth))
    return undetermined("the object holding it is passed to '" + name + "', which is not analyzed in place");
  const ParmVarDecl *param = nullptr;
  if (!asThis) {
    if (def->isVariadic())
      return escape(call, "the object holding it is passed to '" + name + "', which takes a variable argument list");
    unsigned skip = firstArgument(call, def), argIndex = 0;
    while (argIndex < call->getNumArgs() && call->getArg(argIndex)->IgnoreParenImpCasts() != e->IgnoreParenImpCasts())
      ++argIndex;
    if (argIndex < skip || argIndex - skip >= def->getNumParams())
      return undetermined("the object holding it is passed to '" + name + "' as an argument the analysis does not match");
    param = def->getParamDecl(argIndex - skip);
    if (!param->getType()->isPointerType() && !param->getType()->isReferenceType())
      return; // by value: a copy
  }
  std::vector<SourceLocation> chain = f.callChain;
  chain.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
  Frame &child = frame(def, &f, call, chain);
  stack.push_back(def);
  if (asThis) {
    for (const CXXThisExpr *t : collect<CXXThisExpr>(def->getBody()))
      useObject(t, path, at, child, stack);
    return;
  }
  for (const DeclRefExpr *dre : collect<DeclRefExpr>(def->getBody()))
    if (dre->getDecl() == param)
      useObject(dre, path, at, child, stack);
}

void Analysis::element(const Expr *access, const Verdict &v, const Frame &f, const CallStack &stack) {
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
  // The loops around the access, then around each call that led to it, up
  // to the array's declaration: a loop around the declaration makes a fresh
  // array each iteration, which is straight-line code for the array (nvcc
  // 13.0: `float a[n]` declared in a grid-stride loop and indexed by a
  // parameter or threadIdx in it stays in registers at 2 to 32 elements).
  std::set<const Stmt *> aroundDecl;
  for (const Stmt *p = currentDecl_; p && currentFrame_; p = currentFrame_->parents->getParent(p))
    aroundDecl.insert(p);
  bool reachedDecl = false;
  for (const Frame *g = &f, *from = nullptr; g && !reachedDecl; from = g, g = g->caller) {
    const Stmt *start = from ? static_cast<const Stmt *>(from->call) : access;
    for (const Stmt *p = g->parents->getParent(start); p; p = g->parents->getParent(p)) {
      if (g == currentFrame_ && aroundDecl.count(p))
        break;
      if (isLoop(p)) {
        d.inLoop = true;
        d.inRolledLoop = d.inRolledLoop || loopTrips(p, *g).kind == Kind::Dynamic;
      }
    }
    reachedDecl = g == currentFrame_;
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

} // namespace warplint::private_arrays
