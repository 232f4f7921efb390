#include "analyzer/host/HostBuffers.h"
#include "analyzer/host/HostBufferIndex.h"
#include "analyzer/host/HostCallNames.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

namespace warplint {

using namespace clang;

const char *memoryOriginName(MemoryOrigin o) {
  switch (o) {
  case MemoryOrigin::Pageable: return "pageable";
  case MemoryOrigin::Pinned: return "pinned";
  case MemoryOrigin::Managed: return "managed";
  case MemoryOrigin::Device: return "device";
  case MemoryOrigin::Unknown: return "unknown";
  }
  return "unknown";
}

namespace {

// Functions that return pageable host memory.
bool isPageableAllocator(llvm::StringRef n) {
  return n == "malloc" || n == "calloc" || n == "realloc" || n == "aligned_alloc" || n == "valloc" ||
         n == "memalign" || n == "_mm_malloc" || n == "pvalloc";
}

bool isRecordNamed(QualType t, std::initializer_list<const char *> names) {
  t = t.getNonReferenceType().getCanonicalType();
  if (auto *pt = t->getAs<PointerType>())
    t = pt->getPointeeType();
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  if (!rd)
    return false;
  std::string q = rd->getQualifiedNameAsString();
  for (const char *n : names)
    if (q == n)
      return true;
  return false;
}

bool isHostContainer(QualType t) {
  return isRecordNamed(t, {"std::vector", "std::__1::vector", "std::array", "std::basic_string",
                           "std::__cxx11::basic_string", "thrust::host_vector", "std::valarray"});
}

} // namespace

HostBuffers::HostBuffers(ASTContext &ctx) : ctx_(ctx), index_(std::make_unique<Index>()) {
  indexHostBuffers(ctx, *index_, *this);
  // A helper that registers its parameter registers what its callers pass.
  for (int round = 0; round < 2; ++round) {
    std::vector<std::pair<const ValueDecl *, SourceLocation>> more;
    for (const auto &[d, loc] : index_->registered)
      if (auto *p = dyn_cast<ParmVarDecl>(d))
        if (auto *fd = dyn_cast<FunctionDecl>(p->getDeclContext()))
          for (const CallExpr *c : index_->calls[fd->getCanonicalDecl()])
            if (p->getFunctionScopeIndex() < c->getNumArgs())
              if (const ValueDecl *b = baseDecl(c->getArg(p->getFunctionScopeIndex())))
                more.push_back({b, loc});
    for (auto &m : more)
      index_->registered.insert(m);
  }
}

HostBuffers::~HostBuffers() = default;

std::set<const ValueDecl *> HostBuffers::writtenIn(const Stmt *s) const {
  return declsWrittenIn(s);
}

std::string HostBuffers::keyOf(const ValueDecl *d) const {
  if (!d)
    return "";
  SourceLocation l = toLocation(ctx_.getSourceManager(), d->getLocation());
  std::string kind = isa<FieldDecl>(d) ? "field:" : "var:";
  return kind + d->getQualifiedNameAsString() + "@" + l.file + ":" + std::to_string(l.line) + ":" +
         std::to_string(l.column);
}

const ValueDecl *HostBuffers::baseDecl(const Expr *e) const {
  for (int i = 0; e && i < 16; ++i) {
    e = stripCasts(e);
    if (auto *b = dyn_cast<BinaryOperator>(e)) {
      if (!b->isAdditiveOp())
        return nullptr;
      e = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
      continue;
    }
    if (auto *u = dyn_cast<UnaryOperator>(e)) {
      if (u->getOpcode() != UO_AddrOf)
        return nullptr;
      const Expr *sub = stripCasts(u->getSubExpr());
      if (auto *a = dyn_cast<ArraySubscriptExpr>(sub))
        e = a->getBase();
      else if (auto *op = dyn_cast<CXXOperatorCallExpr>(sub); op && op->getOperator() == OO_Subscript)
        e = op->getArg(0);
      else
        e = sub;
      continue;
    }
    if (auto *m = dyn_cast<CXXMemberCallExpr>(e)) {
      if (m->getMethodDecl() && m->getMethodDecl()->getName() == "data")
        return namedDecl(m->getImplicitObjectArgument());
      return nullptr;
    }
    return namedDecl(e);
  }
  return nullptr;
}

std::optional<int64_t> HostBuffers::evaluate(const Expr *e) const {
  std::function<std::optional<int64_t>(const Expr *, int)> eval = [&](const Expr *x, int depth) -> std::optional<int64_t> {
    if (!x || depth > 8 || x->isValueDependent() || x->containsErrors())
      return std::nullopt;
    Expr::EvalResult r;
    if (x->getType()->isIntegralOrEnumerationType() && x->EvaluateAsInt(r, ctx_) && r.Val.isInt())
      return r.Val.getInt().getExtValue();
    x = stripCasts(x);
    if (auto *d = dyn_cast<DeclRefExpr>(x)) {
      auto *vd = dyn_cast<VarDecl>(d->getDecl());
      if (!vd || isa<ParmVarDecl>(vd) || !vd->hasInit() || index_->written.count(vd) ||
          !vd->getType()->isIntegerType())
        return std::nullopt;
      // A non-const global may be written by another unit.
      if (vd->hasGlobalStorage() && !vd->getType().isConstQualified())
        return std::nullopt;
      return eval(vd->getInit(), depth + 1);
    }
    if (auto *b = dyn_cast<BinaryOperator>(x)) {
      auto l = eval(b->getLHS(), depth + 1), rr = eval(b->getRHS(), depth + 1);
      if (!l || !rr)
        return std::nullopt;
      switch (b->getOpcode()) {
      case BO_Add: return *l + *rr;
      case BO_Sub: return *l - *rr;
      case BO_Mul: return *l * *rr;
      case BO_Div: return *rr ? std::optional<int64_t>(*l / *rr) : std::nullopt;
      case BO_Rem: return *rr ? std::optional<int64_t>(*l % *rr) : std::nullopt;
      case BO_Shl: return *rr >= 0 && *rr < 63 ? std::optional<int64_t>(*l << *rr) : std::nullopt;
      case BO_Shr: return *rr >= 0 && *rr < 63 ? std::optional<int64_t>(*l >> *rr) : std::nullopt;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  };
  return eval(e, 0);
}

BufferOrigin HostBuffers::origin(const Expr *e) { return trace(e, 0); }

namespace {
BufferOrigin unknown(const std::string &why) {
  BufferOrigin o;
  o.unknownReason = why;
  return o;
}
} // namespace

BufferOrigin HostBuffers::trace(const Expr *e, int depth) {
  if (!e)
    return unknown("no expression");
  if (depth > 12)
    return unknown("the pointer's chain of assignments is too long to follow");
  if (e->containsErrors())
    return unknown("the expression did not parse");
  SourceManager &sm = ctx_.getSourceManager();
  e = stripCasts(e);
  if (auto *b = dyn_cast<BinaryOperator>(e)) {
    if (b->isAdditiveOp()) {
      const Expr *p = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
      if (p->getType()->isPointerType())
        return trace(p, depth + 1);
    }
    if (b->getOpcode() == BO_Comma)
      return trace(b->getRHS(), depth + 1);
    return unknown("computed by '" + writtenText(ctx_, b) + "'");
  }
  if (auto *c = dyn_cast<ConditionalOperator>(e)) {
    BufferOrigin a = trace(c->getTrueExpr(), depth + 1), b = trace(c->getFalseExpr(), depth + 1);
    if (a.kind == b.kind && a.kind != MemoryOrigin::Unknown)
      return a;
    return unknown("either of two buffers ('" + writtenText(ctx_, c) + "')");
  }
  if (auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() != UO_AddrOf)
      return unknown("a pointer loaded from memory ('" + writtenText(ctx_, u) + "')");
    const Expr *sub = stripCasts(u->getSubExpr());
    if (auto *a = dyn_cast<ArraySubscriptExpr>(sub))
      return trace(a->getBase(), depth + 1);
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(sub); op && op->getOperator() == OO_Subscript) {
      const Expr *obj = op->getArg(0);
      if (isHostContainer(obj->getType())) {
        BufferOrigin o;
        o.kind = MemoryOrigin::Pageable;
        o.allocator = "std::vector";
        if (const ValueDecl *d = namedDecl(obj)) {
          o.variable = d->getNameAsString();
          o.key = keyOf(d);
          o.allocLoc = toLocation(sm, d->getLocation());
          if (auto r = index_->registered.find(d); r != index_->registered.end()) {
            o.kind = MemoryOrigin::Pinned;
            o.allocator = "cudaHostRegister";
            o.allocLoc = r->second;
          }
        }
        return o;
      }
      return unknown("an element of '" + writtenText(ctx_, obj) + "', a type the analyzer does not model");
    }
    if (auto *d = dyn_cast<DeclRefExpr>(sub)) {
      if (auto *vd = dyn_cast<VarDecl>(d->getDecl())) {
        if (vd->getType()->isArrayType())
          return traceDecl(vd, depth + 1);
        if (vd->hasAttr<HIPManagedAttr>() || vd->hasAttr<CUDADeviceAttr>() || vd->hasAttr<CUDAConstantAttr>())
          return traceDecl(vd, depth + 1);
        if (vd->getType()->isReferenceType())
          return unknown("'" + vd->getNameAsString() + "' is a reference");
        BufferOrigin o;
        o.kind = MemoryOrigin::Pageable;
        o.allocator = vd->hasGlobalStorage() ? "static object" : "stack object";
        o.scalar = true;
        o.variable = vd->getNameAsString();
        o.key = keyOf(vd);
        o.allocLoc = toLocation(sm, vd->getLocation());
        if (auto r = index_->registered.find(vd); r != index_->registered.end()) {
          o.kind = MemoryOrigin::Pinned;
          o.allocator = "cudaHostRegister";
          o.allocLoc = r->second;
        }
        return o;
      }
      return unknown("the address of '" + d->getNameInfo().getAsString() + "'");
    }
    if (auto *m = dyn_cast<MemberExpr>(sub)) {
      // The member of an object: where the object lives.
      const Expr *base = m->getBase();
      BufferOrigin o = m->isArrow() ? trace(base, depth + 1) : [&] {
        const Expr *b = stripCasts(base);
        if (auto *dr = dyn_cast<DeclRefExpr>(b))
          if (auto *vd = dyn_cast<VarDecl>(dr->getDecl()); vd && !vd->getType()->isReferenceType()) {
            BufferOrigin s;
            s.kind = MemoryOrigin::Pageable;
            s.allocator = vd->hasGlobalStorage() ? "static object" : "stack object";
            s.variable = vd->getNameAsString();
            s.key = keyOf(vd);
            s.allocLoc = toLocation(sm, vd->getLocation());
            if (vd->hasAttr<HIPManagedAttr>()) {
              s.kind = MemoryOrigin::Managed;
              s.allocator = "__managed__";
            }
            return s;
          }
        return unknown("a member of '" + writtenText(ctx_, base) + "'");
      }();
      if (o.kind != MemoryOrigin::Unknown) {
        o.scalar = !m->getType()->isArrayType();
        o.variable += (m->isArrow() ? "->" : ".") + m->getMemberDecl()->getNameAsString();
      }
      return o;
    }
    return unknown("the address of '" + writtenText(ctx_, sub) + "'");
  }
  if (auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
    // An array of arrays decays: `h[i]` of `float h[8][64]` is inside h.
    if (a->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() || a->getType()->isArrayType()) {
      if (a->getType()->isArrayType())
        return trace(a->getBase(), depth + 1);
    }
    return unknown("a pointer loaded from memory ('" + writtenText(ctx_, a) + "')");
  }
  if (auto *m = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl *md = m->getMethodDecl();
    const Expr *obj = m->getImplicitObjectArgument();
    if (md && md->getDeclName().isIdentifier() && md->getName() == "data" && obj && isHostContainer(obj->getType())) {
      BufferOrigin o;
      o.kind = MemoryOrigin::Pageable;
      o.allocator = "std::vector";
      if (isRecordNamed(obj->getType(), {"std::array"}))
        o.allocator = "std::array";
      if (const ValueDecl *d = namedDecl(obj)) {
        o.variable = d->getNameAsString();
        o.key = keyOf(d);
        o.allocLoc = toLocation(sm, d->getLocation());
        if (auto r = index_->registered.find(d); r != index_->registered.end()) {
          o.kind = MemoryOrigin::Pinned;
          o.allocator = "cudaHostRegister";
          o.allocLoc = r->second;
        }
      }
      return o;
    }
    return unknown("returned by " + writtenText(ctx_, m));
  }
  if (auto *n = dyn_cast<CXXNewExpr>(e)) {
    BufferOrigin o;
    o.kind = MemoryOrigin::Pageable;
    o.allocator = n->isArray() ? "new[]" : "new";
    o.allocLoc = toLocation(sm, n->getBeginLoc());
    return o;
  }
  if (auto *c = dyn_cast<CallExpr>(e)) {
    std::string name = calleeNameOf(c);
    if (isPageableAllocator(name)) {
      BufferOrigin o;
      o.kind = MemoryOrigin::Pageable;
      o.allocator = name;
      o.allocLoc = toLocation(sm, c->getBeginLoc());
      if (c->getNumArgs() >= 1 && name != "calloc" && name != "realloc" && name != "aligned_alloc" && name != "memalign")
        o.allocBytes = evaluate(c->getArg(0));
      return o;
    }
    return unknown("returned by " + (name.empty() ? std::string("a call") : name + "()"));
  }
  if (isa<CXXNullPtrLiteralExpr>(e) || isa<GNUNullExpr>(e))
    return unknown("a null pointer");
  if (auto *d = dyn_cast<DeclRefExpr>(e))
    return traceDecl(d->getDecl(), depth + 1);
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    BufferOrigin o = traceDecl(m->getMemberDecl(), depth + 1);
    return o;
  }
  return unknown("'" + writtenText(ctx_, e) + "' is not followed");
}

BufferOrigin HostBuffers::traceDecl(const ValueDecl *d, int depth) {
  if (!d)
    return unknown("no declaration");
  if (auto it = cache_.find(d); it != cache_.end())
    return it->second;
  if (visiting_.count(d)) {
    // Self-reference (`p = p + n`): keeps whatever the other assignments give.
    BufferOrigin self;
    self.allocator = "<self>";
    return self;
  }
  SourceManager &sm = ctx_.getSourceManager();
  std::string name = d->getNameAsString();
  BufferOrigin result;
  visiting_.insert(d);
  auto finish = [&](BufferOrigin o) {
    if (o.variable.empty())
      o.variable = name;
    if (o.key.empty())
      o.key = keyOf(d);
    if (o.kind == MemoryOrigin::Pageable && !o.scalar)
      if (auto r = index_->registered.find(d); r != index_->registered.end()) {
        o.kind = MemoryOrigin::Pinned;
        o.allocator = "cudaHostRegister";
        o.allocLoc = r->second;
      }
    visiting_.erase(d);
    cache_[d] = o;
    return o;
  };
  auto *vd = dyn_cast<VarDecl>(d);
  if (vd && vd->hasAttr<HIPManagedAttr>()) {
    BufferOrigin o;
    o.kind = MemoryOrigin::Managed;
    o.allocator = "__managed__";
    o.allocLoc = toLocation(sm, vd->getLocation());
    return finish(o);
  }
  if (vd && (vd->hasAttr<CUDADeviceAttr>() || vd->hasAttr<CUDAConstantAttr>())) {
    BufferOrigin o;
    o.kind = MemoryOrigin::Device;
    o.allocator = vd->hasAttr<CUDAConstantAttr>() ? "__constant__" : "__device__";
    o.allocLoc = toLocation(sm, vd->getLocation());
    return finish(o);
  }
  QualType t = d->getType();
  if (t->isArrayType()) {
    BufferOrigin o;
    o.kind = MemoryOrigin::Pageable;
    o.allocator = vd && vd->isLocalVarDecl() && !vd->isStaticLocal() ? "stack array" : "static array";
    if (isa<FieldDecl>(d))
      o.allocator = "array member";
    o.allocLoc = toLocation(sm, d->getLocation());
    // An element type of a template not yet instantiated (`T h[8]` in a host
    // template) has no size: asking for one crashes clang.
    if (auto *ca = ctx_.getAsConstantArrayType(t);
        ca && !ca->isDependentType() && !ca->getElementType()->isIncompleteType() &&
        !ca->getElementType()->isDependentType())
      o.allocBytes = static_cast<int64_t>(ctx_.getTypeSizeInChars(ca).getQuantity());
    if (isa<FieldDecl>(d)) {
      // Where the object holding the member lives is not known here.
      visiting_.erase(d);
      return unknown("an array member '" + name + "' of an object whose memory is not traced");
    }
    return finish(o);
  }
  if (!t->isPointerType() && !t->isIntegerType()) {
    visiting_.erase(d);
    return unknown("'" + name + "' has type '" + t.getAsString() + "'");
  }
  std::vector<BufferOrigin> defs;
  if (auto it = index_->defs.find(d); it != index_->defs.end())
    for (const Index::Def &def : it->second) {
      if (def.kind == Index::Def::Alloc) {
        BufferOrigin o;
        o.kind = def.alloc;
        o.allocator = def.allocator;
        o.allocLoc = def.loc;
        o.allocBytes = evaluate(def.size);
        defs.push_back(o);
      } else if (def.kind == Index::Def::Opaque) {
        BufferOrigin o = unknown("'" + name + "' is " + def.reason + " at line " + std::to_string(def.loc.line));
        defs.push_back(o);
      } else {
        const Expr *v = stripCasts(def.value);
        if (!v || isa<CXXNullPtrLiteralExpr>(v) || isa<GNUNullExpr>(v) ||
            (isa<IntegerLiteral>(v) && cast<IntegerLiteral>(v)->getValue() == 0) || isa<ImplicitValueInitExpr>(v) ||
            isa<InitListExpr>(v))
          continue; // a null pointer is no allocation
        BufferOrigin o = trace(def.value, depth + 1);
        if (o.allocator == "<self>")
          continue;
        if (o.kind == MemoryOrigin::Unknown && o.unknownReason == "a null pointer")
          continue;
        defs.push_back(o);
      }
    }
  if (auto *p = dyn_cast<ParmVarDecl>(d)) {
    auto *fd = dyn_cast<FunctionDecl>(p->getDeclContext());
    std::vector<const CallExpr *> callers;
    if (fd)
      if (auto it = index_->calls.find(fd->getCanonicalDecl()); it != index_->calls.end())
        callers = it->second;
    if (callers.empty()) {
      visiting_.erase(d);
      BufferOrigin o = unknown("parameter '" + name + "' of " + (fd ? fd->getNameAsString() + "()" : "a function") +
                               " has no visible caller");
      cache_[d] = o;
      return o;
    }
    for (const CallExpr *c : callers)
      if (p->getFunctionScopeIndex() < c->getNumArgs())
        defs.push_back(trace(c->getArg(p->getFunctionScopeIndex()), depth + 1));
  }
  if (defs.empty()) {
    visiting_.erase(d);
    BufferOrigin o = unknown(vd && vd->hasGlobalStorage() ? "global '" + name + "' is never assigned in this file"
                                                        : "no assignment of '" + name + "' is visible");
    cache_[d] = o;
    return o;
  }
  return finish(combine(defs, d));
}

BufferOrigin HostBuffers::combine(const std::vector<BufferOrigin> &defs, const ValueDecl *d) {
  for (const BufferOrigin &o : defs)
    if (o.kind == MemoryOrigin::Unknown)
      return o;
  for (const BufferOrigin &o : defs)
    if (o.kind != defs.front().kind)
      return unknown("'" + d->getNameAsString() + "' is assigned " + memoryOriginName(defs.front().kind) +
                     " memory (line " + std::to_string(defs.front().allocLoc.line) + ") and " +
                     memoryOriginName(o.kind) + " memory (line " + std::to_string(o.allocLoc.line) + ")");
  return defs.front();
}

} // namespace warplint
