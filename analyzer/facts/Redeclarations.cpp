// Every place that spells a kernel's signature. Adding `const` to a parameter
// of the definition alone turns an earlier forward declaration (or one in a
// header) into a second overload that is never defined: clang accepts that,
// nvcc then reports "referenced but not defined" at link time. So a signature
// edit must reach every redeclaration, and where the signature is spelled in
// a place warplint does not edit (an explicit instantiation or
// specialization, a function-pointer type the kernel is converted to, a
// declaration inside a macro or a system header) the edit is refused with
// that reason. Facts only; see RewriteFacts.h.
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;

namespace {

std::string place(const ASTContext &ctx, clang::SourceLocation loc) {
  const SourceManager &sm = ctx.getSourceManager();
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid())
    return "an unknown place";
  std::string file = p.getFilename();
  size_t slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(p.getLine());
}

const FunctionTemplateDecl *templateOf(const FunctionDecl *fn) {
  if (const FunctionTemplateDecl *t = fn->getPrimaryTemplate())
    return t->getCanonicalDecl();
  if (const FunctionTemplateDecl *t = fn->getDescribedFunctionTemplate())
    return t->getCanonicalDecl();
  return nullptr;
}

// `a` and `b` are the same function, or specializations of one template.
bool sameFunction(const FunctionDecl *a, const FunctionDecl *b) {
  if (a->getCanonicalDecl() == b->getCanonicalDecl())
    return true;
  const FunctionTemplateDecl *ta = templateOf(a), *tb = templateOf(b);
  return ta && ta == tb;
}

// The declaration whose text the edit changes: an instantiation's pattern.
const FunctionDecl *writtenDecl(const FunctionDecl *fn) {
  if (const FunctionDecl *pattern = fn->getTemplateInstantiationPattern())
    return pattern;
  return fn;
}

// Uses of the kernel other than calls: a conversion to a function-pointer
// type spells the signature again, and that type does not follow the edit.
class AddressUses : public RecursiveASTVisitor<AddressUses> {
public:
  AddressUses(const ASTContext &ctx, const FunctionDecl *fn) : ctx_(ctx), fn_(fn) {}

  std::string blocker; // the first typed use found

  bool TraverseDecl(Decl *d) {
    if (!blocker.empty())
      return false;
    if (d && !isa<TranslationUnitDecl>(d) && ctx_.getSourceManager().isInSystemHeader(d->getLocation()))
      return true; // the toolkit's headers cannot name the user's kernels
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool TraverseStmt(Stmt *s, DataRecursionQueue * = nullptr) {
    if (!s)
      return true;
    stack_.push_back(s);
    bool go = RecursiveASTVisitor::TraverseStmt(s, nullptr);
    stack_.pop_back();
    return go;
  }

  bool VisitDeclRefExpr(DeclRefExpr *e) {
    auto *f = dyn_cast<FunctionDecl>(e->getDecl());
    if (!f || !sameFunction(f, fn_))
      return true;
    std::string why = judge(e);
    if (!why.empty() && blocker.empty())
      blocker = why;
    return blocker.empty();
  }

private:
  // "" when the use of `ref` keeps working after the signature changes.
  std::string judge(const DeclRefExpr *ref) {
    size_t i = stack_.size() - 1; // stack_.back() is `ref`
    const Stmt *cur = ref;
    while (i > 0) {
      const Stmt *p = stack_[i - 1];
      auto *ice = dyn_cast<ImplicitCastExpr>(p);
      bool wraps = isa<ParenExpr>(p) ||
                   (ice && (ice->getCastKind() == CK_FunctionToPointerDecay || ice->getCastKind() == CK_NoOp)) ||
                   (isa<UnaryOperator>(p) && cast<UnaryOperator>(p)->getOpcode() == UO_AddrOf);
      if (!wraps)
        break;
      cur = p;
      --i;
    }
    const Stmt *parent = i > 0 ? stack_[i - 1] : nullptr;
    if (auto *call = dyn_cast_or_null<CallExpr>(parent)) {
      if (call->getCallee() == cur)
        return ""; // a call (or a launch): overload resolution finds the edited one
      // A template deduces the pointer type from the argument
      // (cudaFuncSetAttribute, cudaOccupancyMaxPotentialBlockSize, ...).
      const FunctionDecl *callee = call->getDirectCallee();
      if ((callee && callee->getPrimaryTemplate()) || call->isTypeDependent())
        return "";
    }
    if (auto *c = dyn_cast_or_null<CastExpr>(parent))
      if (!c->getType()->isFunctionPointerType() && !c->getType()->isFunctionReferenceType())
        return ""; // to `void *` (cudaLaunchKernel) or to bool
    if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(parent))
      return "";
    const Expr *e = cast<Expr>(cur);
    return "its address is taken as '" + e->getType().getAsString() + "' at " + place(ctx_, e->getBeginLoc()) +
           ", a function-pointer type that keeps the old signature";
  }

  const ASTContext &ctx_;
  const FunctionDecl *fn_;
  std::vector<const Stmt *> stack_;
};

// Explicit instantiations and specializations spell the parameter types.
std::string explicitSpellings(const ASTContext &ctx, const FunctionDecl *fn) {
  const FunctionTemplateDecl *t = templateOf(fn);
  if (!t)
    return "";
  for (const FunctionDecl *spec : t->specializations()) {
    TemplateSpecializationKind kind = spec->getTemplateSpecializationKind();
    if (kind == TSK_ExplicitInstantiationDefinition || kind == TSK_ExplicitInstantiationDeclaration)
      return "'" + spec->getNameAsString() + "' is explicitly instantiated at " +
             place(ctx, spec->getPointOfInstantiation()) + " with the old parameter types";
    if (kind == TSK_ExplicitSpecialization)
      return "'" + spec->getNameAsString() + "' is explicitly specialized at " + place(ctx, spec->getLocation()) +
             " with the old parameter types";
  }
  return "";
}

} // namespace

SourceSpan constInsertPoint(ASTContext &ctx, const ParmVarDecl *p) {
  TypeSourceInfo *tsi = p->getTypeSourceInfo();
  if (!tsi)
    return {};
  TypeLoc tl = tsi->getTypeLoc();
  if (auto q = tl.getAs<QualifiedTypeLoc>())
    tl = q.getUnqualifiedLoc();
  auto ptl = tl.getAs<PointerTypeLoc>();
  if (!ptl)
    return {};
  clang::SourceLocation loc = ptl.getPointeeLoc().getBeginLoc();
  if (loc.isInvalid() || loc.isMacroID())
    return {};
  return fileSpan(ctx, CharSourceRange::getCharRange(loc, loc));
}

void describeRedeclarations(ASTContext &ctx, const FunctionDecl *fn, std::vector<ParamInfo> &params) {
  const SourceManager &sm = ctx.getSourceManager();
  const FunctionDecl *written = writtenDecl(fn);
  std::string kernelWide = explicitSpellings(ctx, fn);
  if (kernelWide.empty()) {
    AddressUses uses(ctx, fn);
    uses.TraverseDecl(ctx.getTranslationUnitDecl());
    kernelWide = uses.blocker;
  }
  for (unsigned i = 0; i < params.size() && i < written->getNumParams(); ++i) {
    ParamInfo &info = params[i];
    if (!info.constInsertAt.valid())
      continue;
    info.signatureFixBlocker = kernelWide;
    for (const FunctionDecl *r : written->redecls()) {
      if (r == written || i >= r->getNumParams() || !info.signatureFixBlocker.empty())
        continue;
      if (sm.isInSystemHeader(r->getLocation())) {
        info.signatureFixBlocker = "it is also declared in a system header at " + place(ctx, r->getLocation());
        continue;
      }
      SourceSpan at = constInsertPoint(ctx, r->getParamDecl(i));
      if (!at.valid())
        info.signatureFixBlocker = "the declaration at " + place(ctx, r->getLocation()) +
                                   " does not write the pointee type of parameter " + std::to_string(i + 1) +
                                   " (a macro or a typedef)";
      else if (at.file != info.constInsertAt.file || at.offset != info.constInsertAt.offset)
        info.redeclConstInsertAt.push_back(at);
    }
    if (!info.signatureFixBlocker.empty())
      info.redeclConstInsertAt.clear();
  }
}

std::vector<std::string> findUndefinedOverloads(ASTContext &ctx, const FunctionDecl *fn) {
  std::vector<std::string> out;
  if (!fn->hasAttr<CUDAGlobalAttr>() || !fn->getDeclName().isIdentifier())
    return out;
  const SourceManager &sm = ctx.getSourceManager();
  for (const NamedDecl *d : fn->getDeclContext()->getRedeclContext()->lookup(fn->getDeclName())) {
    const FunctionDecl *other = dyn_cast<FunctionDecl>(d);
    if (auto *t = dyn_cast<FunctionTemplateDecl>(d))
      other = t->getTemplatedDecl();
    if (!other || sameFunction(other, fn) || !other->hasAttr<CUDAGlobalAttr>() ||
        other->getNumParams() != fn->getNumParams() || other->isDefined() ||
        sm.isInSystemHeader(other->getLocation()))
      continue;
    out.push_back("'" + fn->getNameAsString() + "' declared at " + place(ctx, other->getLocation()) + " as '" +
                  other->getType().getAsString() + "' is never defined; the definition is '" +
                  fn->getType().getAsString() + "'");
  }
  return out;
}

} // namespace warplint
