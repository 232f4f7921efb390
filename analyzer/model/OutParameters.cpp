#include "analyzer/model/OutParameters.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"

namespace warplint {

using namespace clang;

namespace {

bool integerReference(QualType t) {
  return t->isReferenceType() && t.getNonReferenceType()->isIntegralOrEnumerationType();
}

// The variable a reference argument binds directly (`ai`, or `ai` seen as
// `const int`), as opposed to a temporary or memory.
const VarDecl *boundVariable(const Expr *arg) {
  const Expr *e = arg->IgnoreParens();
  while (auto *ice = dyn_cast<ImplicitCastExpr>(e)) {
    if (ice->getCastKind() != CK_NoOp)
      return nullptr;
    e = ice->getSubExpr()->IgnoreParens();
  }
  auto *dre = dyn_cast<DeclRefExpr>(e);
  return dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
}

// A register of the caller whose value the caller's translator gives: an
// integer local or parameter (or a reference parameter that follows one)
// that nothing but calls' reference parameters reaches.
bool followableLocal(const VarDecl *v, const LocalWrites &writes, const ExprTranslator &tr) {
  if (!v || v->isInvalidDecl() || !(v->hasLocalStorage() || isa<ParmVarDecl>(v)) || writes.aliased.count(v))
    return false;
  if (writes.escaped.count(v) && !writes.onlyOutArgument(v))
    return false;
  return v->getType()->isReferenceType() ? tr.followsReference(v) : v->getType()->isIntegralOrEnumerationType();
}

// Whether every path through the body reaches its end: no `return` but,
// possibly, its last statement.
bool returnsOnlyAtEnd(const FunctionDecl *def) {
  auto *body = dyn_cast_or_null<CompoundStmt>(def->getBody());
  if (!body)
    return false;
  std::vector<const ReturnStmt *> returns = returnStatements(body);
  return returns.empty() || (returns.size() == 1 && !body->body_empty() && body->body_back() == returns[0]);
}

} // namespace

std::vector<const ReturnStmt *> returnStatements(const Stmt *body) {
  class ReturnFinder : public RecursiveASTVisitor<ReturnFinder> {
  public:
    std::vector<const ReturnStmt *> returns;
    bool VisitReturnStmt(ReturnStmt *r) {
      returns.push_back(r);
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; } // a lambda's returns are its own
  } f;
  f.TraverseStmt(const_cast<Stmt *>(body));
  return f.returns;
}

std::vector<ReferenceArgument> referenceArguments(const CallExpr *call, const FunctionDecl *callee,
                                                  const LocalWrites &callerWrites,
                                                  const ExprTranslator &callerTranslator) {
  std::vector<ReferenceArgument> out;
  if (!callee)
    return out;
  // A member operator's first argument is the object, not a parameter.
  unsigned shift = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(callee) ? 1 : 0;
  llvm::DenseMap<const VarDecl *, int> references, writableReferences;
  for (unsigned i = 0; i + shift < call->getNumArgs() && i < callee->getNumParams(); ++i) {
    const ParmVarDecl *p = callee->getParamDecl(i);
    QualType t = p->getType();
    if (!t->isReferenceType())
      continue;
    const Expr *arg = call->getArg(i + shift);
    const VarDecl *local = boundVariable(arg);
    if (local) {
      ++references[local];
      if (!t.getNonReferenceType().isConstQualified())
        ++writableReferences[local];
    }
    if (!integerReference(t))
      continue;
    ReferenceArgument r;
    r.param = p;
    r.local = local;
    r.arg = arg;
    r.writable = !t.getNonReferenceType().isConstQualified();
    out.push_back(r);
  }
  for (ReferenceArgument &r : out) {
    if (!r.local) {
      // A const reference to a temporary (`f(i + 1)`): nothing else reaches it.
      r.followed = !r.writable && isa<MaterializeTemporaryExpr>(r.arg->IgnoreParens());
      continue;
    }
    // A second reference to the same local, one of them writable: a write
    // through one changes what the other reads.
    bool aliasedInCall = references.lookup(r.local) > 1 && writableReferences.lookup(r.local) > 0;
    r.followed = !aliasedInCall && followableLocal(r.local, callerWrites, callerTranslator);
  }
  return out;
}

std::vector<LocalValue> valuesAfterCall(const CallExpr *call, const std::vector<ReferenceArgument> &refs,
                                        const CalleeEnd *end) {
  std::vector<LocalValue> out;
  const FunctionDecl *fd = call->getDirectCallee();
  std::string callee = fd ? fd->getNameAsString() : "a function";
  bool wholeBody = end && returnsOnlyAtEnd(end->callee);
  for (const ReferenceArgument &r : refs) {
    if (!r.writable || !r.local)
      continue;
    std::string written = "'" + r.local->getNameAsString() + "' is written by a call to '" + callee + "'";
    auto unknown = [&](const std::string &why) { return IndexExpr::unknown(written + why); };
    if (!end) {
      out.push_back({r.local, unknown(" whose body is not followed")});
      continue;
    }
    if (end->writes->isStable(r.param))
      continue; // the callee never assigns it
    if (!r.followed) {
      out.push_back({r.local, unknown(" that reaches it through another reference too")});
      continue;
    }
    if (!wholeBody) {
      out.push_back({r.local, unknown(" that may return before the end of its body")});
      continue;
    }
    auto it = end->values->find(r.param);
    if (it == end->values->end()) {
      out.push_back({r.local, unknown(" in a way that is not followed")});
      continue;
    }
    if (end->namesOwnParameters) {
      out.push_back({r.local, unknown(" in terms of its own parameters")});
      continue;
    }
    ExprRef v = it->second;
    if (!v->isKnown())
      v = unknown(", where " + v->firstUnknownReason());
    out.push_back({r.local, v});
  }
  return out;
}

} // namespace warplint
