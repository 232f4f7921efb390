#include "analyzer/host/LaunchReach.h"
#include "analyzer/host/HostCallNames.h"

#include "clang/AST/ExprCXX.h"

namespace warplint {

using namespace clang;

namespace {

LaunchKind stronger(LaunchKind a, LaunchKind b) { return a > b ? a : b; }

} // namespace

bool LaunchReach::inSystemHeader(const Decl *d) const {
  return d->getLocation().isValid() && sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation()));
}

LaunchKind LaunchReach::ofFunction(const FunctionDecl *fd, int depth) {
  if (!fd || fd->isImplicit() || depth > 8)
    return LaunchKind::No;
  std::string n = fd->getDeclName().isIdentifier() ? plainName(fd->getName().str()) : "";
  if (isLaunchApi(n) || inLibraryNamespace(fd))
    return LaunchKind::Yes;
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody())
    if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern(); pattern && pattern->hasBody())
      def = pattern;
  if (n.rfind("cuda", 0) == 0 || (n.rfind("cu", 0) == 0 && n.size() > 2 && isupper(n[2])))
    return LaunchKind::No;
  if (!def || !def->hasBody())
    return inSystemHeader(fd->getCanonicalDecl()) ? LaunchKind::No : LaunchKind::Unseen;
  if (inSystemHeader(def) || !isHostFunction(def))
    return LaunchKind::No;
  const FunctionDecl *key = def->getCanonicalDecl();
  if (auto it = memo_.find(key); it != memo_.end())
    return it->second;
  memo_[key] = LaunchKind::No; // recursion: what the rest of the body says
  LaunchKind how = ofBody(def->getBody(), depth + 1);
  memo_[key] = how;
  return how;
}

LaunchKind LaunchReach::ofCall(const CallExpr *call, int depth) {
  if (isa<CUDAKernelCallExpr>(call))
    return LaunchKind::Yes;
  if (const FunctionDecl *fd = call->getDirectCallee())
    return ofFunction(fd, depth);
  const Expr *c = call->getCallee() ? call->getCallee()->IgnoreParenImpCasts() : nullptr;
  if (auto *u = dyn_cast_or_null<UnresolvedLookupExpr>(c)) {
    // A call in a template: any candidate that launches.
    LaunchKind how = LaunchKind::No;
    for (const NamedDecl *d : u->decls()) {
      const NamedDecl *t = d->getUnderlyingDecl();
      if (auto *ft = dyn_cast<FunctionTemplateDecl>(t))
        how = stronger(how, ofFunction(ft->getTemplatedDecl(), depth));
      else if (auto *f = dyn_cast<FunctionDecl>(t))
        how = stronger(how, ofFunction(f, depth));
    }
    return how;
  }
  // A member call on a type the template leaves open says nothing.
  if (!c || c->isTypeDependent() || isa<CXXDependentScopeMemberExpr>(c) || isa<UnresolvedMemberExpr>(c) ||
      isa<CXXPseudoDestructorExpr>(c))
    return LaunchKind::No;
  return LaunchKind::Unseen; // through a function pointer
}

LaunchKind LaunchReach::ofBody(const Stmt *s, int depth) {
  if (!s)
    return LaunchKind::No;
  if (isa<CUDAKernelCallExpr>(s))
    return LaunchKind::Yes;
  LaunchKind how = LaunchKind::No;
  if (auto *call = dyn_cast<CallExpr>(s))
    how = ofCall(call, depth);
  for (const Stmt *c : s->children()) {
    if (how == LaunchKind::Yes)
      break;
    how = stronger(how, ofBody(c, depth));
  }
  return how;
}

} // namespace warplint
