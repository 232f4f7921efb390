// Whether a kernel's pointer parameters are only read: every use of the
// pointer is followed through locals it is copied to, pointer arithmetic,
// casts and calls into functions whose bodies are visible. Anything not
// followed (a call into an unseen function taking a non-const pointer, the
// pointer stored to memory, its address taken) counts as a write, so that a
// `const` is only ever suggested where it is proven. See RewriteFacts.h.
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/facts/BodyParents.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <memory>
#include <set>

namespace warplint {

using namespace clang;

namespace {

class RefsByDecl : public RecursiveASTVisitor<RefsByDecl> {
public:
  std::map<const ValueDecl *, std::vector<const DeclRefExpr *>> refs;
  bool VisitDeclRefExpr(DeclRefExpr *e) {
    refs[e->getDecl()].push_back(e);
    return true;
  }
};

struct FunctionUses {
  const ParentMap *parents = nullptr; // BodyParents'
  RefsByDecl refs;
};

// The parent map and references of each body followed, shared by the
// parameters of one kernel: each parameter's uses are followed through the
// same bodies, and building them once per parameter was most of the work.
using FunctionUsesCache = std::map<const FunctionDecl *, std::unique_ptr<FunctionUses>>;

const std::set<std::string> &readOnlyCalls() {
  static const std::set<std::string> names{"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv",
                                           "printf", "__builtin_assume_aligned", "__builtin_prefetch"};
  return names;
}

class PointerUses {
public:
  PointerUses(ASTContext &ctx, FunctionUsesCache &cache, BodyParents &parents)
      : ctx_(ctx), cache_(cache), parents_(parents) {}

  // Why the pointee of variable `v` (a pointer local or parameter of `fn`)
  // may be written; empty when it is only read.
  std::string variable(const FunctionDecl *fn, const VarDecl *v) {
    if (!fn->getBody())
      return "the body of '" + fn->getNameAsString() + "' is not visible";
    if (!visiting_.insert(v).second)
      return ""; // already being followed: a cycle adds no new use
    FunctionUses &u = uses(fn);
    for (const DeclRefExpr *ref : u.refs.refs[v]) {
      // `v = q` replaces the pointer; what q points at is followed from q.
      const Stmt *p = parent(u, ref);
      if (auto *bo = dyn_cast_or_null<BinaryOperator>(p); bo && bo->getOpcode() == BO_Assign &&
                                                           bo->getLHS()->IgnoreParens() == ref)
        continue;
      if (auto *uo = dyn_cast_or_null<UnaryOperator>(p); uo && uo->isIncrementDecrementOp())
        continue;
      std::string why = pointer(fn, u, ref);
      if (!why.empty())
        return why;
    }
    return "";
  }

  bool sawRead = false;
  // Why `const` on the parameter alone would not compile although every use
  // only reads (an alias declared `T *`, a callee taking `T *`, a C++ cast
  // to `T *`); empty when it would.
  std::string constBlocker;

private:
  void blocked(const std::string &why) {
    if (constBlocker.empty())
      constBlocker = why;
  }
  static bool mutablePointer(QualType t) { return t->isPointerType() && !t->getPointeeType().isConstQualified(); }

  FunctionUses &uses(const FunctionDecl *fn) {
    auto &slot = cache_[fn];
    if (!slot) {
      slot = std::make_unique<FunctionUses>();
      slot->parents = &parents_.of(fn->getBody());
      slot->refs.TraverseStmt(fn->getBody());
    }
    return *slot;
  }

  const Stmt *parent(FunctionUses &u, const Stmt *s) {
    const Stmt *p = u.parents->getParent(s);
    while (p && isa<ParenExpr>(p))
      p = u.parents->getParent(p);
    return p;
  }

  std::string at(const Stmt *s) {
    const SourceManager &sm = ctx_.getSourceManager();
    return "line " + std::to_string(sm.getPresumedLineNumber(sm.getExpansionLoc(s->getBeginLoc())));
  }

  // `cur` evaluates to a pointer derived from the parameter.
  std::string pointer(const FunctionDecl *fn, FunctionUses &u, const Stmt *cur) {
    for (int steps = 0; steps < 64; ++steps) {
      const Stmt *p = parent(u, cur);
      if (!p)
        return "";
      if (auto *ice = dyn_cast<ImplicitCastExpr>(p)) {
        if (ice->getCastKind() == CK_PointerToBoolean)
          return "";
        cur = p;
        continue;
      }
      if (auto *cast = dyn_cast<ExplicitCastExpr>(p)) {
        if (cast->getType()->isPointerType()) {
          if (!isa<CStyleCastExpr>(cast) && mutablePointer(cast->getType()))
            blocked("it is cast to '" + cast->getType().getAsString() + "' at " + at(p));
          cur = p;
          continue;
        }
        if (cast->getType()->isIntegralType(ctx_)) {
          // An alignment test reads the address only.
          auto *bo = dyn_cast_or_null<BinaryOperator>(parent(u, p));
          if (bo && (bo->getOpcode() == BO_And || bo->getOpcode() == BO_Rem))
            return "";
          return "its address is converted to an integer at " + at(p);
        }
        if (cast->getType()->isBooleanType() || cast->getType()->isVoidType())
          return "";
        return "it is converted to '" + cast->getType().getAsString() + "' at " + at(p);
      }
      if (auto *bo = dyn_cast<BinaryOperator>(p)) {
        if (bo->isAdditiveOp() && bo->getType()->isPointerType()) {
          cur = p;
          continue;
        }
        if (bo->isComparisonOp() || bo->isLogicalOp() || bo->isAdditiveOp())
          return ""; // comparing pointers, or their difference
        if (bo->getOpcode() == BO_Comma) {
          if (bo->getLHS()->IgnoreParens() == cur)
            return "";
          cur = p;
          continue;
        }
        if (bo->getOpcode() == BO_Assign && bo->getRHS()->IgnoreParens() == cur) {
          if (auto *dre = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParens()))
            if (auto *v = dyn_cast<VarDecl>(dre->getDecl()); v && v->hasLocalStorage()) {
              if (mutablePointer(v->getType()))
                blocked("it is assigned to '" + v->getNameAsString() + "', declared '" + v->getType().getAsString() + "', at " + at(p));
              return copiedTo(fn, v, p);
            }
          return "it is stored to memory at " + at(p);
        }
        return "it is used by operator " + bo->getOpcodeStr().str() + " at " + at(p);
      }
      if (auto *uo = dyn_cast<UnaryOperator>(p)) {
        if (uo->getOpcode() == UO_Deref)
          return pointee(fn, u, p);
        if (uo->getOpcode() == UO_LNot)
          return "";
        return "its address is taken at " + at(p);
      }
      if (auto *ase = dyn_cast<ArraySubscriptExpr>(p)) {
        if (ase->getBase()->IgnoreParens() == cur)
          return pointee(fn, u, p);
        return "it is used as an index at " + at(p);
      }
      if (auto *me = dyn_cast<MemberExpr>(p)) {
        if (me->isArrow())
          return pointee(fn, u, p);
        return "its member is used at " + at(p);
      }
      if (auto *co = dyn_cast<ConditionalOperator>(p)) {
        if (co->getCond()->IgnoreParens() == cur)
          return "";
        cur = p;
        continue;
      }
      if (auto *call = dyn_cast<CallExpr>(p))
        return passed(call, cur);
      if (auto *ds = dyn_cast<DeclStmt>(p)) {
        for (const Decl *d : ds->decls())
          if (auto *v = dyn_cast<VarDecl>(d); v && v->getInit() && v->getInit()->IgnoreParens() == cur) {
            if (v->getType()->isPointerType()) {
              if (mutablePointer(v->getType()))
                blocked("it initializes '" + v->getNameAsString() + "', declared '" + v->getType().getAsString() + "', at " + at(p));
              return copiedTo(fn, v, p);
            }
            if (v->getType()->isBooleanType())
              return "";
            return "it initializes '" + v->getNameAsString() + "' at " + at(p);
          }
        return "it is used in a declaration at " + at(p);
      }
      if (isa<ReturnStmt>(p))
        return "it is returned at " + at(p);
      if (isa<IfStmt>(p) || isa<WhileStmt>(p) || isa<ForStmt>(p) || isa<DoStmt>(p))
        return ""; // tested for null
      if (isa<CompoundStmt>(p))
        return ""; // evaluated and discarded
      return std::string("it is used in a way warplint does not follow (") + p->getStmtClassName() + ") at " + at(p);
    }
    return "its uses are nested too deeply";
  }

  std::string copiedTo(const FunctionDecl *fn, const VarDecl *v, const Stmt *where) {
    std::string why = variable(fn, v);
    return why.empty() ? "" : why;
  }

  // A call receives the pointer `arg`.
  std::string passed(const CallExpr *call, const Stmt *arg) {
    const FunctionDecl *fd = call->getDirectCallee();
    std::string name = fd ? fd->getNameAsString() : "an indirect call";
    if (readOnlyCalls().count(name)) {
      sawRead = true;
      return "";
    }
    if (name.rfind("atomic", 0) == 0 || name.rfind("__st", 0) == 0)
      return "it is written by '" + name + "' at " + at(call);
    if (!fd)
      return "it is passed to an indirect call at " + at(call);
    unsigned index = 0;
    for (; index < call->getNumArgs(); ++index)
      if (call->getArg(index)->IgnoreParens() == arg)
        break;
    if (index >= fd->getNumParams())
      return "it is passed to '" + name + "' as a variadic argument at " + at(call);
    const ParmVarDecl *param = fd->getParamDecl(index);
    QualType pt = param->getType();
    if (pt->isPointerType() && pt->getPointeeType().isConstQualified()) {
      sawRead = true;
      return "";
    }
    const FunctionDecl *def = nullptr;
    if (!fd->hasBody(def) || !def || ctx_.getSourceManager().isInSystemHeader(def->getLocation()))
      return "it is passed to '" + name + "', which takes a non-const pointer and is not analyzed, at " + at(call);
    blocked("'" + name + "' takes it as '" + pt.getAsString() + "' (called at " + at(call) + ")");
    std::string why = variable(def, def->getParamDecl(index));
    if (!why.empty())
      return "in '" + name + "' (called at " + at(call) + "): " + why;
    return "";
  }

  // `lv` designates memory the parameter points at.
  std::string pointee(const FunctionDecl *fn, FunctionUses &u, const Stmt *lv) {
    for (int steps = 0; steps < 64; ++steps) {
      const Stmt *p = parent(u, lv);
      if (!p)
        return "";
      if (auto *ice = dyn_cast<ImplicitCastExpr>(p)) {
        if (ice->getCastKind() == CK_LValueToRValue) {
          sawRead = true;
          return "";
        }
        if (ice->getCastKind() == CK_ArrayToPointerDecay)
          return pointer(fn, u, p);
        lv = p;
        continue;
      }
      if (auto *me = dyn_cast<MemberExpr>(p)) {
        if (!me->isArrow() && me->getBase()->IgnoreParens() == lv) {
          lv = p;
          continue;
        }
        return "its member is used at " + at(p);
      }
      if (auto *ase = dyn_cast<ArraySubscriptExpr>(p); ase && ase->getBase()->IgnoreParenImpCasts() == lv) {
        lv = p;
        continue;
      }
      if (auto *bo = dyn_cast<BinaryOperator>(p)) {
        if (bo->isAssignmentOp() && bo->getLHS()->IgnoreParens() == lv)
          return "it is written at " + at(p);
        if (bo->getOpcode() == BO_Comma) {
          lv = p;
          continue;
        }
        sawRead = true;
        return "";
      }
      if (auto *uo = dyn_cast<UnaryOperator>(p)) {
        if (uo->isIncrementDecrementOp())
          return "it is written at " + at(p);
        if (uo->getOpcode() == UO_AddrOf)
          return pointer(fn, u, p);
        sawRead = true;
        return "";
      }
      if (auto *op = dyn_cast<CXXOperatorCallExpr>(p)) {
        // A member operator's object is argument 0; its parameters start at 1.
        auto *md = dyn_cast_or_null<CXXMethodDecl>(op->getDirectCallee());
        if (md && op->getNumArgs() > 0 && op->getArg(0)->IgnoreParens() == lv) {
          if (md->isConst()) {
            sawRead = true;
            return "";
          }
          return (op->isAssignmentOp() ? "it is written at " : "a non-const operator is called on it at ") + at(p);
        }
        for (unsigned i = md ? 1 : 0; i < op->getNumArgs(); ++i)
          if (op->getArg(i)->IgnoreParens() == lv) {
            const FunctionDecl *fd = op->getDirectCallee();
            unsigned param = md ? i - 1 : i;
            QualType pt = fd && param < fd->getNumParams() ? fd->getParamDecl(param)->getType() : QualType();
            if (!pt.isNull() && (!pt->isReferenceType() || pt->getPointeeType().isConstQualified())) {
              sawRead = true;
              return "";
            }
          }
        return "it is passed to an operator that may modify it at " + at(p);
      }
      if (auto *mc = dyn_cast<CXXMemberCallExpr>(p)) {
        auto *md = mc->getMethodDecl();
        if (md && md->isConst()) {
          sawRead = true;
          return "";
        }
        return "a non-const method is called on it at " + at(p);
      }
      if (auto *ce = dyn_cast<CXXConstructExpr>(p)) {
        auto *ctor = ce->getConstructor();
        if (ctor && ctor->isCopyConstructor()) {
          sawRead = true;
          return "";
        }
        return "it is passed to a constructor at " + at(p);
      }
      if (auto *call = dyn_cast<CallExpr>(p)) {
        const FunctionDecl *fd = call->getDirectCallee();
        for (unsigned i = 0; fd && i < call->getNumArgs() && i < fd->getNumParams(); ++i)
          if (call->getArg(i)->IgnoreParens() == lv) {
            QualType pt = fd->getParamDecl(i)->getType();
            if (pt->isReferenceType() && pt->getPointeeType().isConstQualified()) {
              sawRead = true;
              return "";
            }
          }
        return "it is bound to a non-const reference at " + at(p);
      }
      if (isa<UnaryExprOrTypeTraitExpr>(p))
        return "";
      if (auto *ds = dyn_cast<DeclStmt>(p)) {
        for (const Decl *d : ds->decls())
          if (auto *v = dyn_cast<VarDecl>(d); v && v->getType()->isReferenceType() &&
                                              v->getType()->getPointeeType().isConstQualified()) {
            sawRead = true;
            return "";
          }
        return "it is bound to a non-const reference at " + at(p);
      }
      return std::string("it is used in a way warplint does not follow (") + p->getStmtClassName() + ") at " + at(p);
    }
    return "its uses are nested too deeply";
  }

  ASTContext &ctx_;
  FunctionUsesCache &cache_;
  BodyParents &parents_;
  std::set<const VarDecl *> visiting_;
};

// The empty span at `loc` when it is a plain file location.
SourceSpan pointAt(ASTContext &ctx, clang::SourceLocation loc) {
  if (loc.isInvalid() || loc.isMacroID())
    return {};
  return fileSpan(ctx, CharSourceRange::getCharRange(loc, loc));
}

} // namespace

void describePointerParams(ASTContext &ctx, const FunctionDecl *fn, std::vector<ParamInfo> &params,
                           BodyParents *parents) {
  BodyParents own;
  BodyParents &bodyParents = parents ? *parents : own;
  const SourceManager &sm = ctx.getSourceManager();
  // Edits go to the definition as written: an instantiation's parameters may
  // come from an earlier forward declaration of the template.
  const FunctionDecl *written = fn->getTemplateInstantiationPattern() ? fn->getTemplateInstantiationPattern() : fn;
  FunctionUsesCache bodies;
  for (unsigned i = 0; i < fn->getNumParams() && i < params.size(); ++i) {
    const ParmVarDecl *p = fn->getParamDecl(i);
    ParamInfo &info = params[i];
    clang::SourceLocation where = sm.getExpansionLoc(p->getLocation());
    info.loc.file = sm.getPresumedLoc(where).getFilename();
    info.loc.line = sm.getPresumedLineNumber(where);
    info.loc.column = sm.getPresumedColumnNumber(where);
    if (!info.isPointer || p->getType()->getPointeeType()->isPointerType())
      continue;
    PointerUses uses(ctx, bodies, bodyParents);
    info.notReadOnlyReason = uses.variable(fn, p);
    info.onlyRead = info.notReadOnlyReason.empty();
    info.readAtAll = uses.sawRead;
    info.constFixBlocker = uses.constBlocker;
    const ParmVarDecl *spelled = i < written->getNumParams() ? written->getParamDecl(i) : p;
    info.constInsertAt = constInsertPoint(ctx, spelled);
    if (auto *tsi = spelled->getTypeSourceInfo()) {
      TypeLoc tl = tsi->getTypeLoc();
      if (auto q = tl.getAs<QualifiedTypeLoc>())
        tl = q.getUnqualifiedLoc();
      if (auto ptl = tl.getAs<PointerTypeLoc>()) {
        clang::SourceLocation star = ptl.getStarLoc();
        if (star.isValid() && !star.isMacroID())
          info.restrictInsertAt = pointAt(ctx, star.getLocWithOffset(1));
      }
    }
  }
  // Only a parameter that may get `const` needs the other places its
  // signature is spelled (a walk over the unit's user code).
  bool candidate = false;
  for (const ParamInfo &info : params)
    candidate = candidate || (info.isPointer && info.onlyRead && !info.pointeeConst && info.constInsertAt.valid());
  if (candidate)
    describeRedeclarations(ctx, fn, params);
}

} // namespace warplint
