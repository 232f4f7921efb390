#include "analyzer/host/HostBufferIndex.h"
#include "analyzer/host/HostCallNames.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;

const Expr *stripCasts(const Expr *e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (auto *c = dyn_cast<ExplicitCastExpr>(e))
      e = c->getSubExpr();
    else if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else
      break;
  }
  return e;
}

std::string calleeNameRaw(const CallExpr *call);

// The declaration an lvalue names: a variable or a member (any object).
const ValueDecl *namedDecl(const Expr *e) {
  e = stripCasts(e);
  if (auto *d = dyn_cast_or_null<DeclRefExpr>(e))
    return d->getDecl();
  if (auto *m = dyn_cast_or_null<MemberExpr>(e))
    return m->getMemberDecl();
  return nullptr;
}

namespace {

// Functions that allocate into the pointer whose address is their first
// argument, and the memory they return.
struct OutAllocator {
  const char *name;
  MemoryOrigin kind;
};
const OutAllocator kOutAllocators[] = {
    {"cudaMalloc", MemoryOrigin::Device},          {"cudaMallocPitch", MemoryOrigin::Device},
    {"cudaMallocAsync", MemoryOrigin::Device},     {"cudaMallocFromPoolAsync", MemoryOrigin::Device},
    {"cuMemAlloc", MemoryOrigin::Device},          {"cuMemAllocPitch", MemoryOrigin::Device},
    {"cudaMallocHost", MemoryOrigin::Pinned},      {"cudaHostAlloc", MemoryOrigin::Pinned},
    {"cuMemAllocHost", MemoryOrigin::Pinned},      {"cuMemHostAlloc", MemoryOrigin::Pinned},
    {"cudaHostGetDevicePointer", MemoryOrigin::Pinned},
    {"cudaMallocManaged", MemoryOrigin::Managed},  {"cuMemAllocManaged", MemoryOrigin::Managed},
    {"posix_memalign", MemoryOrigin::Pageable},
};

class Indexer : public RecursiveASTVisitor<Indexer> {
public:
  Indexer(ASTContext &ctx, HostBuffers::Index &ix, const HostBuffers &hb)
      : sm_(ctx.getSourceManager()), ix_(ix), hb_(hb) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitVarDecl(VarDecl *vd) {
    if (vd->hasInit() && !isa<ParmVarDecl>(vd)) {
      HostBuffers::Index::Def d;
      d.value = vd->getInit();
      d.loc = toLocation(sm_, vd->getLocation());
      ix_.defs[vd].push_back(d);
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *b) {
    if (!b->isAssignmentOp())
      return true;
    const ValueDecl *d = namedDecl(b->getLHS());
    if (!d)
      return true;
    ix_.written.insert(d);
    if (b->getOpcode() == BO_Assign) {
      HostBuffers::Index::Def def;
      def.value = b->getRHS();
      def.loc = toLocation(sm_, b->getOperatorLoc());
      ix_.defs[d].push_back(def);
    }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf)
      if (const ValueDecl *d = namedDecl(u->getSubExpr()))
        ix_.written.insert(d);
    return true;
  }

  bool VisitCallExpr(CallExpr *call) {
    if (isa<CXXOperatorCallExpr>(call))
      return true;
    if (const FunctionDecl *fd = call->getDirectCallee())
      ix_.calls[fd->getCanonicalDecl()].push_back(call);
    std::string name = calleeNameOf(call);
    if (name.empty() || call->getNumArgs() == 0)
      return true;
    if (name == "cudaHostRegister" || name == "cuMemHostRegister") {
      if (const ValueDecl *d = hb_.baseDecl(call->getArg(0)))
        ix_.registered.emplace(d, toLocation(sm_, call->getBeginLoc()));
      return true;
    }
    for (const OutAllocator &a : kOutAllocators)
      if (name == a.name) {
        const ValueDecl *d = outTarget(call->getArg(0));
        if (!d)
          return true;
        HostBuffers::Index::Def def;
        def.kind = HostBuffers::Index::Def::Alloc;
        def.alloc = a.kind;
        def.allocator = name;
        def.loc = toLocation(sm_, call->getBeginLoc());
        unsigned sizeArg = name == "posix_memalign" ? 2 : (name == "cudaHostGetDevicePointer" ? 99 : 1);
        if (name == "cudaMallocPitch" || name == "cuMemAllocPitch")
          sizeArg = 99;
        if (sizeArg < call->getNumArgs())
          def.size = call->getArg(sizeArg);
        ix_.defs[d].push_back(def);
        return true;
      }
    // Any other call given the address of a pointer may write it.
    for (unsigned i = 0; i < call->getNumArgs(); ++i)
      if (const ValueDecl *d = outTarget(call->getArg(i)))
        if (d->getType()->isPointerType()) {
          HostBuffers::Index::Def def;
          def.kind = HostBuffers::Index::Def::Opaque;
          def.reason = "written through its address by " + name + "()";
          def.loc = toLocation(sm_, call->getBeginLoc());
          ix_.defs[d].push_back(def);
        }
    return true;
  }

private:
  // `&x`, `(void **)&x`, `&s.m`: the pointer an out-parameter writes.
  static const ValueDecl *outTarget(const Expr *arg) {
    auto *u = dyn_cast_or_null<UnaryOperator>(stripCasts(arg));
    if (!u || u->getOpcode() != UO_AddrOf)
      return nullptr;
    return namedDecl(u->getSubExpr());
  }

  SourceManager &sm_;
  HostBuffers::Index &ix_;
  const HostBuffers &hb_;
};

class WrittenCollector : public RecursiveASTVisitor<WrittenCollector> {
public:
  std::set<const ValueDecl *> out;
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      if (const ValueDecl *d = namedDecl(b->getLHS()))
        out.insert(d);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf)
      if (const ValueDecl *d = namedDecl(u->getSubExpr()))
        out.insert(d);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
    if (c->isAssignmentOp() || c->getOperator() == OO_PlusPlus || c->getOperator() == OO_MinusMinus)
      if (c->getNumArgs() > 0)
        if (const ValueDecl *d = namedDecl(c->getArg(0)))
          out.insert(d);
    return true;
  }
  // The loop's own declarations are written by the loop (`for (int i = 0; ...)`).
  bool VisitVarDecl(VarDecl *vd) {
    out.insert(vd);
    return true;
  }
};

} // namespace

void indexHostBuffers(ASTContext &ctx, HostBuffers::Index &ix, const HostBuffers &hb) {
  Indexer(ctx, ix, hb).TraverseDecl(ctx.getTranslationUnitDecl());
}

std::set<const ValueDecl *> declsWrittenIn(const Stmt *s) {
  WrittenCollector c;
  c.TraverseStmt(const_cast<Stmt *>(s));
  return c.out;
}

} // namespace warplint
