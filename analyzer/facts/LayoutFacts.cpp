// Where a shared array's dimensions are written, whether anything but its
// subscripts can observe its layout, and which launch arguments are their own
// allocations. See RewriteFacts.h.
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"

#include <set>

namespace warplint {

using namespace clang;

SourceSpan fileSpan(const ASTContext &ctx, CharSourceRange range) {
  SourceSpan span;
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange r = Lexer::makeFileCharRange(range, sm, ctx.getLangOpts());
  if (r.isInvalid())
    return span;
  auto [fid, begin] = sm.getDecomposedLoc(r.getBegin());
  auto [fidEnd, end] = sm.getDecomposedLoc(r.getEnd());
  auto entry = sm.getFileEntryRefForID(fid);
  if (fid != fidEnd || end < begin || !entry || sm.isInSystemHeader(r.getBegin()))
    return span;
  llvm::SmallString<256> path(entry->getName());
  sm.getFileManager().makeAbsolutePath(path);
  span.file = path.str().str();
  span.offset = begin;
  span.length = end - begin;
  span.text = Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
  return span;
}

namespace {

class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  const ValueDecl *target;
  std::vector<const DeclRefExpr *> refs;
  explicit RefCollector(const ValueDecl *t) : target(t) {}
  bool VisitDeclRefExpr(DeclRefExpr *e) {
    if (e->getDecl() == target)
      refs.push_back(e);
    return true;
  }
};

const Stmt *parentOf(const ParentMap &pm, const Stmt *s) {
  const Stmt *p = pm.getParent(s);
  while (p && isa<ParenExpr>(p))
    p = pm.getParent(p);
  return p;
}

std::string calleeName(const CallExpr *call) {
  if (auto *fd = call->getDirectCallee())
    return fd->getNameAsString();
  return "";
}

bool isAsyncCopy(const std::string &name) {
  return name.find("memcpy_async") != std::string::npos || name.find("cp_async") != std::string::npos ||
         name.find("pipeline_memcpy") != std::string::npos || name.find("cp.async") != std::string::npos ||
         name.find("bulk") != std::string::npos || name.find("tma") != std::string::npos;
}

// Why the array or one of its rows, used as a value at `use`, escapes.
std::string valueEscape(const ParentMap &pm, const Stmt *use, bool wholeElement) {
  const Stmt *p = parentOf(pm, use);
  while (auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p)) {
    if (ice->getCastKind() != CK_ArrayToPointerDecay && ice->getCastKind() != CK_NoOp)
      break;
    use = p;
    p = parentOf(pm, p);
  }
  if (!p)
    return "";
  if (isa<UnaryExprOrTypeTraitExpr>(p))
    return wholeElement ? "" : "its size is taken with sizeof";
  if (auto *call = dyn_cast<CallExpr>(p)) {
    std::string name = calleeName(call);
    if (isAsyncCopy(name))
      return "it is the target or source of the bulk/async copy '" + name + "'";
    if (wholeElement && name.rfind("atomic", 0) == 0)
      return "";
    return "its address is passed to '" + (name.empty() ? std::string("a call") : name) + "'";
  }
  if (auto *cast = dyn_cast<ExplicitCastExpr>(p)) {
    const Type *t = cast->getType().getTypePtr();
    if (t->isPointerType())
      return "it is accessed through a cast to '" + cast->getType().getAsString() +
             "' (a vector access that padding would misalign)";
    return "its address is cast to '" + cast->getType().getAsString() + "'";
  }
  if (auto *bo = dyn_cast<BinaryOperator>(p)) {
    if (bo->isAdditiveOp())
      return "pointer arithmetic over it";
    if (bo->isComparisonOp())
      return "";
    if (bo->isAssignmentOp())
      return "its address is stored";
  }
  if (isa<DeclStmt>(p))
    return "its address is stored in a pointer";
  if (isa<ReturnStmt>(p))
    return "its address is returned";
  return "it is used as a pointer (" + std::string(p->getStmtClassName()) + ")";
}

// Why this use of the array, if any, depends on more than its subscripts.
std::string useEscape(const ParentMap &pm, const DeclRefExpr *ref, size_t rank) {
  const Stmt *cur = ref;
  size_t level = 0;
  while (true) {
    const Stmt *p = parentOf(pm, cur);
    if (auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_ArrayToPointerDecay) {
      const Stmt *pp = parentOf(pm, p);
      auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(pp);
      if (ase && ase->getBase()->IgnoreParens() == ice) {
        cur = ase;
        if (++level == rank)
          break;
        continue;
      }
    }
    if (auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(p); ase && ase->getBase()->IgnoreParenImpCasts() == cur) {
      cur = ase;
      if (++level == rank)
        break;
      continue;
    }
    return valueEscape(pm, cur, false);
  }
  // A whole element: only its address matters.
  const Stmt *p = parentOf(pm, cur);
  if (auto *uo = dyn_cast_or_null<UnaryOperator>(p); uo && uo->getOpcode() == UO_AddrOf)
    return valueEscape(pm, uo, true);
  // Bound to a reference (a call's reference parameter, a reference
  // variable): read and written where no subscript shows it, as in a
  // bitonic sort's Comparator(s_key[pos], s_key[pos + stride]).
  while (isa_and_nonnull<ImplicitCastExpr>(p) && cast<ImplicitCastExpr>(p)->getCastKind() == CK_NoOp)
    p = parentOf(pm, p);
  // (An operator call on a class element, v4[i] = make_float4(...), is the
  // element's own assignment: a subscript the model sees.)
  if (auto *call = dyn_cast_or_null<CallExpr>(p); call && !isa<CXXOperatorCallExpr>(call)) {
    std::string name = calleeName(call);
    return "an element is bound to a reference parameter of '" + (name.empty() ? std::string("a call") : name) +
           "'";
  }
  if (isa_and_nonnull<DeclStmt>(p))
    return "an element is bound to a reference variable";
  return "";
}

} // namespace

void describeArrayLayout(ASTContext &ctx, const FunctionDecl *fn, const VarDecl *v, ArrayInfo &out) {
  if (out.isExtern)
    out.layoutEscapes.push_back("it is a dynamic (extern) array whose size is set at launch");
  if (auto *tsi = v->getTypeSourceInfo()) {
    TypeLoc tl = tsi->getTypeLoc();
    while (auto atl = tl.getAs<ArrayTypeLoc>()) {
      SourceSpan span;
      if (const Expr *size = atl.getSizeExpr())
        span = fileSpan(ctx, CharSourceRange::getTokenRange(size->getSourceRange()));
      out.dimSpans.push_back(span);
      tl = atl.getElementLoc();
    }
  }
  if (!fn->getBody())
    return;
  ParentMap pm(fn->getBody());
  RefCollector refs(v);
  refs.TraverseStmt(fn->getBody());
  std::set<std::string> seen;
  for (const DeclRefExpr *ref : refs.refs) {
    std::string why = useEscape(pm, ref, out.dims.size());
    if (!why.empty() && seen.insert(why).second)
      out.layoutEscapes.push_back(why);
  }
}

namespace {

bool isAllocation(const std::string &name) {
  return name == "cudaMalloc" || name == "cudaMallocManaged" || name == "cudaMallocAsync" ||
         name == "cudaMallocPitch" || name == "cudaMallocHost" || name == "cudaHostAlloc";
}

// "name@line" when `v` is written only by one allocation call in `fn`.
std::string ownAllocation(ASTContext &ctx, const FunctionDecl *fn, const VarDecl *v) {
  if (!fn || !fn->getBody() || !v->hasLocalStorage() || !v->getType()->isPointerType())
    return "";
  if (v->getInit() && !v->getInit()->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull))
    return "";
  ParentMap pm(fn->getBody());
  RefCollector refs(v);
  refs.TraverseStmt(fn->getBody());
  int allocations = 0;
  unsigned line = 0;
  for (const DeclRefExpr *ref : refs.refs) {
    const Stmt *p = parentOf(pm, ref);
    if (auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_LValueToRValue)
      continue; // a read
    auto *uo = dyn_cast_or_null<UnaryOperator>(p);
    if (!uo || uo->getOpcode() != UO_AddrOf)
      return ""; // assigned, incremented or bound to a reference
    const Stmt *q = parentOf(pm, uo);
    while (q && isa<CastExpr>(q))
      q = parentOf(pm, q);
    auto *call = dyn_cast_or_null<CallExpr>(q);
    if (!call || !isAllocation(calleeName(call)) || call->getNumArgs() < 1 ||
        call->getArg(0)->IgnoreParenCasts() != uo)
      return "";
    ++allocations;
    line = ctx.getSourceManager().getPresumedLineNumber(ctx.getSourceManager().getExpansionLoc(call->getBeginLoc()));
  }
  if (allocations != 1)
    return "";
  return v->getNameAsString() + "@" + std::to_string(line);
}

} // namespace

std::vector<std::string> launchArgAllocations(ASTContext &ctx, const CUDAKernelCallExpr *call,
                                              const FunctionDecl *enclosing) {
  std::vector<std::string> out;
  for (unsigned i = 0; i < call->getNumArgs(); ++i) {
    const Expr *arg = call->getArg(i)->IgnoreParenCasts();
    std::string id;
    if (auto *dre = dyn_cast<DeclRefExpr>(arg))
      if (auto *v = dyn_cast<VarDecl>(dre->getDecl()))
        id = ownAllocation(ctx, enclosing, v);
    out.push_back(id);
  }
  return out;
}

} // namespace warplint
