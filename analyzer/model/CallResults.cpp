// What a call to one of the user's functions returns, for the caller's
// expressions: `T *s = SharedMemory<T>();` and `smem.getPointer()` return a
// cast of an `extern __shared__` array, `laneId()` returns `threadIdx.x & 31`.
// The callee's return statements are translated with its parameters bound to
// the call's arguments, as inlining a call binds them (KernelWalker).
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/OutParameters.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;

namespace {

// Bodies followed for one value: the same limit as inlined calls.
constexpr int kMaxCallDepth = 4;

// The callee whose body a call's value is read from: a definition in the
// user's code (the toolkit's and libraries' system headers are not followed).
const FunctionDecl *followedCallee(const ASTContext &ctx, const CallExpr *call) {
  if (isa<CXXOperatorCallExpr>(call) || isa<CUDAKernelCallExpr>(call))
    return nullptr;
  const FunctionDecl *callee = call->getDirectCallee();
  const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
  if (!def || !def->getBody() || def->isInvalidDecl() || def->isVariadic() || def->hasAttr<CUDAGlobalAttr>() ||
      ctx.getSourceManager().isInSystemHeader(ctx.getSourceManager().getExpansionLoc(def->getLocation())))
    return nullptr;
  return def;
}

std::vector<const Expr *> returnedExprs(const FunctionDecl *def) {
  std::vector<const Expr *> out;
  for (const ReturnStmt *r : returnStatements(def->getBody())) {
    if (!r->getRetValue())
      return {};
    out.push_back(r->getRetValue());
  }
  return out;
}

// Whether `root` belongs to the callee itself (a parameter it was not given
// memory for, a local that dies with it): then the value means nothing to
// the caller.
bool ownedBy(const ValueDecl *root, const FunctionDecl *def) {
  if (auto *p = dyn_cast_or_null<ParmVarDecl>(root))
    return p->getDeclContext() == def;
  if (auto *v = dyn_cast_or_null<VarDecl>(root))
    return v->hasLocalStorage();
  return root == nullptr;
}

} // namespace

void ExprTranslator::bindCallArguments(const CallExpr *call, const FunctionDecl *callee, ExprTranslator &child) {
  child.callDepth_ = callDepth_ + 1;
  // A member call's arguments (getArg) leave the object out, as the
  // parameters do; operator calls, whose first argument is the object, are
  // not followed.
  for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
    const ParmVarDecl *param = callee->getParamDecl(i);
    const Expr *arg = call->getArg(i);
    QualType t = param->getType();
    if (t->isPointerType()) {
      if (auto ref = pointee(arg))
        child.bindParamMemory(param, *ref);
    } else if (t->isReferenceType()) {
      if (auto ref = lvalue(arg))
        child.bindParamMemory(param, *ref);
    } else if (t->isIntegralOrEnumerationType()) {
      child.bindParam(param, index(arg));
    }
  }
  // Integer reference parameters bound to the caller's registers take their values.
  for (const ReferenceArgument &r : referenceArguments(call, callee, writes_, *this))
    if (r.followed)
      child.bindReferenceValue(r.param, index(r.arg));
}

std::optional<MemoryRef> ExprTranslator::returnedMemory(const CallExpr *call, int depth) {
  const FunctionDecl *def = followedCallee(ctx_, call);
  if (!def || callDepth_ >= kMaxCallDepth || depth > 24)
    return std::nullopt;
  QualType rt = def->getReturnType();
  if (!rt->isPointerType() && !rt->isReferenceType())
    return std::nullopt;
  std::vector<const Expr *> rets = returnedExprs(def);
  if (rets.empty())
    return std::nullopt;
  LocalWrites writes = LocalWrites::collect(def->getBody());
  ExprTranslator child(ctx_, def, writes);
  bindCallArguments(call, def, child);
  std::optional<MemoryRef> result;
  for (const Expr *r : rets) {
    auto ref = rt->isPointerType() ? child.pointee(r) : child.lvalue(r);
    if (!ref || ownedBy(ref->root, def))
      return std::nullopt;
    if (result && (result->root != ref->root || result->byteOffset->str() != ref->byteOffset->str()))
      return std::nullopt; // different paths return different memory
    result = ref;
  }
  return result;
}

ExprRef ExprTranslator::returnedValue(const CallExpr *call, int depth) {
  const FunctionDecl *def = followedCallee(ctx_, call);
  if (!def || callDepth_ >= kMaxCallDepth || depth > 24 || !def->getReturnType()->isIntegralOrEnumerationType())
    return nullptr;
  std::vector<const Expr *> rets = returnedExprs(def);
  if (rets.size() != 1)
    return nullptr;
  LocalWrites writes = LocalWrites::collect(def->getBody());
  ExprTranslator child(ctx_, def, writes);
  bindCallArguments(call, def, child);
  ExprRef v = child.index(rets.front());
  // The callee's own scalar parameters left unbound (no argument for them)
  // would name the wrong function's parameters.
  if (!child.symbolicParams().empty())
    return IndexExpr::unknown("the result of a call to '" + def->getNameAsString() + "' depends on its parameters");
  // Unknown inside: the callee's reason (a value loaded from memory...) says more than "a call".
  return v;
}

} // namespace warplint
