#include "analyzer/host/HostFacts.h"
#include "analyzer/host/HostBuffers.h"
#include "analyzer/host/HostCallNames.h"
#include "analyzer/host/LaunchReach.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>

namespace warplint {

using namespace clang;

const char *copyDirectionName(CopyDirection d) {
  switch (d) {
  case CopyDirection::HostToDevice: return "h2d";
  case CopyDirection::DeviceToHost: return "d2h";
  case CopyDirection::DeviceToDevice: return "d2d";
  case CopyDirection::HostToHost: return "h2h";
  case CopyDirection::Unknown: return "unknown";
  }
  return "unknown";
}

namespace {

bool isHostKind(MemoryOrigin o) { return o == MemoryOrigin::Pageable || o == MemoryOrigin::Pinned; }
bool isDeviceKind(MemoryOrigin o) { return o == MemoryOrigin::Device; }

bool containsErrors(const Expr *e) { return e && e->containsErrors(); }

class HostWalker : public RecursiveASTVisitor<HostWalker> {
public:
  HostWalker(ASTContext &ctx, HostFacts &out)
      : ctx_(ctx), sm_(ctx.getSourceManager()), buffers_(ctx), out_(out), launchReach_(sm_) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool TraverseFunctionDecl(FunctionDecl *fd) { return inFunction(fd, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(fd); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *fd) { return inFunction(fd, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(fd); }); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *fd) {
    return inFunction(fd, [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(fd); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *fd) {
    return inFunction(fd, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(fd); });
  }
  template <typename F> bool inFunction(FunctionDecl *fd, F traverse) {
    if (!fd->doesThisDeclarationHaveABody() || !isHostFunction(fd))
      return true;
    const FunctionDecl *saved = fn_;
    fn_ = fd;
    bool r = traverse();
    fn_ = saved;
    return r;
  }

  bool TraverseForStmt(ForStmt *s) { return inLoop(s, "for", [&] { return RecursiveASTVisitor::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt *s) { return inLoop(s, "while", [&] { return RecursiveASTVisitor::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(DoStmt *s) {
    // `do { ... } while (0)`, the body of a macro (CHECK_CUDA(call)), runs once: no loop.
    if (auto v = s->getCond() ? buffers_.evaluate(s->getCond()) : std::nullopt; v && *v == 0)
      return RecursiveASTVisitor::TraverseDoStmt(s);
    return inLoop(s, "do", [&] { return RecursiveASTVisitor::TraverseDoStmt(s); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *s) {
    return inLoop(s, "range-for", [&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(s); });
  }
  // `sizeof(*p)`, `alignof(p[0])`: the operand is not evaluated, so `*p` there touches nothing
  // (`cudaMallocManaged(&p, sizeof(*p) * n)` is not a host touch of the managed buffer).
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  template <typename F> bool inLoop(Stmt *s, const char *kind, F traverse) {
    if (!fn_)
      return traverse();
    LoopFrame f;
    f.stmt = s;
    f.info.kind = kind;
    f.info.loc = toLocation(sm_, s->getBeginLoc());
    f.info.endLine = toLocation(sm_, s->getEndLoc()).line;
    if (auto *fs = dyn_cast<ForStmt>(s))
      describeFor(fs, f);
    f.info.perDevice = selectsDeviceEachIteration(s, buffers_.writtenIn(s));
    loops_.push_back(std::move(f));
    bool r = traverse();
    loops_.pop_back();
    return r;
  }

  bool VisitCallExpr(CallExpr *call) {
    if (!fn_ || isa<CUDAKernelCallExpr>(call))
      return true;
    std::string name = calleeNameOf(call);
    if (name.empty()) {
      // A lambda, a functor or a function pointer called here may launch too.
      if (LaunchKind how = launchReach_.ofCall(call); how != LaunchKind::No) {
        const Expr *callee = call->getCallee();
        if (auto *op = dyn_cast<CXXOperatorCallExpr>(call); op && op->getNumArgs() > 0)
          callee = op->getArg(0);
        addHelperLaunch(call, text(callee), how == LaunchKind::Unseen);
      }
      return true;
    }
    if (const CopyApi *api = findCopyApi(name)) {
      addTransfer(call, *api);
      return true;
    }
    if (isPrefetchOrAdvise(name)) {
      addPrefetchOrAdvise(call, name, std::vector<const Expr *>(call->arg_begin(), call->arg_end()));
      return true;
    }
    if (name == "cudaSetDevice" || name == "cuCtxSetCurrent" || name == "cuCtxPushCurrent" ||
        name == "cuCtxPopCurrent")
      ++deviceSelections_;
    if (name == "cudaDeviceSynchronize" || name == "cudaStreamSynchronize" || name == "cudaEventSynchronize" ||
        name == "cudaThreadSynchronize" || name == "cuCtxSynchronize" || name == "cuStreamSynchronize") {
      ManagedEvent e;
      e.kind = ManagedEvent::Sync;
      e.loc = toLocation(sm_, call->getBeginLoc());
      e.function = fnName();
      e.text = name;
      e.inLoop = !loops_.empty();
      e.order = ++order_;
      out_.managed.push_back(e);
      return true;
    }
    // A call that launches, or may launch, a kernel is a launch here too: a
    // visible host function around `k<<<...>>>`, cudaLaunchKernel, a CUDA
    // library call, or a function of the program whose body is elsewhere
    // (`insert_hashtable(table, kvs, n)` defined in another .cu file).
    LaunchKind how = launchReach_.ofCall(call);
    if (how != LaunchKind::No)
      addHelperLaunch(call, name, how == LaunchKind::Unseen);
    if (name.rfind("cuda", 0) == 0 || (name.rfind("cu", 0) == 0 && name.size() > 2 && isupper(name[2])))
      return true;
    // A host call handed a managed buffer: memset/memcpy/fill touch it, and
    // so does a visible function that reads or writes through that parameter.
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *arg = call->getArg(i);
      if (!arg->getType()->isPointerType())
        continue;
      BufferOrigin o = managedOrigin(arg);
      if (o.kind != MemoryOrigin::Managed)
        continue;
      bool touches = name == "memset" || name == "memcpy" || name == "memmove" || name == "fill" ||
                     name == "fill_n" || name == "copy" || name == "iota" || name == "generate" || name == "fread" ||
                     name == "printf" || name == "fprintf";
      if (!touches)
        if (const FunctionDecl *fd = call->getDirectCallee())
          if (const FunctionDecl *def = fd->getDefinition(); def && def->hasBody() && isHostFunction(def) &&
                                                             i < def->getNumParams())
            touches = dereferences(def->getBody(), def->getParamDecl(i));
      if (touches) {
        out_.managed.push_back(event(ManagedEvent::HostTouch, call, o));
        continue;
      }
      // Handed to code that cannot be followed: a library call that is not a launch (a descriptor
      // keeps the pointer for later calls) or a function of the program whose body is elsewhere.
      const FunctionDecl *fd = call->getDirectCallee();
      const FunctionDecl *def = fd ? fd->getDefinition() : nullptr;
      bool visible = def && def->hasBody() && !launchReach_.inSystemHeader(def);
      if (!visible && !isLaunchApi(name) &&
          (isLibraryName(name) || (fd && !launchReach_.inSystemHeader(fd->getCanonicalDecl()))))
        out_.managed.push_back(event(ManagedEvent::Escape, call, o));
    }
    return true;
  }

  void addPrefetchOrAdvise(const Expr *call, const std::string &name, const std::vector<const Expr *> &args) {
    if (args.empty() || !args[0])
      return;
    BufferOrigin o = managedOrigin(args[0]);
    if (o.kind != MemoryOrigin::Managed)
      return;
    bool prefetch = name.find("Prefetch") != std::string::npos;
    ManagedEvent e = event(prefetch ? ManagedEvent::Prefetch : ManagedEvent::Advise, call, o);
    if (prefetch && args.size() > 2 && args[2]) {
      e.prefetchTarget = text(args[2]);
      e.toHost = e.prefetchTarget.find("CpuDeviceId") != std::string::npos ||
                 e.prefetchTarget.find("Host") != std::string::npos;
    }
    out_.managed.push_back(e);
  }

  // A prefetch or advice written for an older toolkit: CUDA 13 takes a
  // cudaMemLocation where CUDA 12 took a device number
  // (`cudaMemPrefetchAsync(a, bytes, id)`, `cudaMemAdvise(a, bytes, advice, id)`),
  // so such a call does not resolve and clang keeps it as a RecoveryExpr of
  // the callee's name and the arguments. It still states the programmer's
  // intent (the buffer is prefetched or advised there), so it counts as one.
  bool VisitRecoveryExpr(RecoveryExpr *r) {
    if (!fn_)
      return true;
    auto subs = r->subExpressions();
    if (subs.empty() || !subs[0])
      return true;
    const Expr *callee = subs[0]->IgnoreParenImpCasts();
    std::string name;
    if (auto *u = dyn_cast<UnresolvedLookupExpr>(callee))
      name = u->getName().getAsString();
    else if (auto *d = dyn_cast<DeclRefExpr>(callee))
      name = d->getNameInfo().getAsString();
    name = plainName(name);
    if (!isPrefetchOrAdvise(name))
      return true;
    std::vector<const Expr *> args(subs.begin() + 1, subs.end());
    addPrefetchOrAdvise(r, name, args);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *call) {
    if (!fn_)
      return true;
    HostLaunch l;
    l.loc = toLocation(sm_, call->getBeginLoc());
    l.function = fnName();
    if (const FunctionDecl *k = call->getDirectCallee())
      l.kernel = k->getNameAsString();
    else
      l.kernel = text(call->getCallee());
    if (const CallExpr *cfg = call->getConfig(); cfg && cfg->getNumArgs() > 3)
      l.stream = streamOf(cfg->getArg(3));
    l.loops = loopInfos();
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *a = call->getArg(i);
      l.argTexts.push_back(text(a));
      if (a->getType()->isPointerType() || a->getType()->isIntegerType())
        l.argOrigins.push_back(a->getType()->isPointerType() ? buffers_.origin(a) : BufferOrigin{});
      else
        l.argOrigins.push_back(BufferOrigin{});
      if (l.argOrigins.back().kind == MemoryOrigin::Managed) {
        ManagedEvent e = event(ManagedEvent::Launch, call, l.argOrigins.back());
        e.text = l.kernel;
        out_.managed.push_back(e);
      }
    }
    l.order = ++order_;
    out_.launches.push_back(std::move(l));
    return true;
  }


  void addHelperLaunch(const CallExpr *call, const std::string &name, bool unseen) {
    HostLaunch l;
    l.loc = toLocation(sm_, call->getBeginLoc());
    l.function = fnName();
    l.kernel = name + "()";
    l.viaHelper = true;
    l.bodyUnseen = unseen;
    l.loops = loopInfos();
    const FunctionDecl *def = call->getDirectCallee() ? call->getDirectCallee()->getDefinition() : nullptr;
    // A helper whose body is seen, or a CUDA library call (cublasSaxpy(h, n, &a, x, 1, y, 1) runs a
    // kernel over x and y): its managed arguments are touched on the device.
    bool seenBody = (def && def->hasBody() && !launchReach_.inSystemHeader(def)) || isLaunchApi(name);
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *a = call->getArg(i);
      l.argTexts.push_back(text(a));
      l.argOrigins.push_back(a->getType()->isPointerType() ? buffers_.origin(a) : BufferOrigin{});
      // Only a helper whose body is seen counts as a kernel touching managed memory. A helper that
      // prefetches or advises managed memory itself (altis fdtd2d: `fdtdCudaUnifiedMemory(...)`
      // prefetches its arguments under some flags, then launches) decides their pages out of this
      // function's sight: the buffer escapes there instead.
      if (!unseen && seenBody && l.argOrigins.back().kind == MemoryOrigin::Managed) {
        bool managesPages = def && def->hasBody() && prefetchesOrAdvises(def->getBody());
        ManagedEvent e = event(managesPages ? ManagedEvent::Escape : ManagedEvent::Launch, call, l.argOrigins.back());
        e.text = l.kernel;
        out_.managed.push_back(e);
      }
    }
    l.order = ++order_;
    out_.launches.push_back(std::move(l));
  }

  // Host reads and writes of managed memory: `a[i]`, `*a`, `a->x`.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *e) {
    touch(e->getBase(), e);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->getOpcode() == UO_Deref)
      touch(u->getSubExpr(), u);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *m) {
    if (m->isArrow())
      touch(m->getBase(), m);
    return true;
  }

private:
  struct LoopFrame {
    Stmt *stmt = nullptr;
    HostLoop info;
    const VarDecl *counter = nullptr; // a for loop's counter (describeFor)
    std::optional<int64_t> step;      // its constant step
    std::optional<std::set<const ValueDecl *>> written; // variables that change each iteration
    std::set<const ValueDecl *> declared;               // locals its body declares afresh
  };

  // Qualified, so that two methods of one name (`Worker::run`, `Pool::run`) are not taken for one
  // function when the rules group events by their function.
  std::string fnName() const { return fn_ ? fn_->getQualifiedNameAsString() : ""; }
  std::string text(const Expr *e) const { return writtenText(ctx_, e); }

  // Whether `loop` calls cudaSetDevice (cuCtxSetCurrent) with an argument that names a variable
  // the loop writes: `for (g = 0; g < gpus; ++g) { cudaSetDevice(g); ... }`.
  static bool selectsDeviceEachIteration(const Stmt *s, const std::set<const ValueDecl *> &written) {
    if (!s)
      return false;
    if (auto *c = dyn_cast<CallExpr>(s)) {
      std::string n = calleeNameOf(c);
      if ((n == "cudaSetDevice" || n == "cuCtxSetCurrent") && c->getNumArgs() > 0 && namesAny(c->getArg(0), written))
        return true;
    }
    for (const Stmt *c : s->children())
      if (selectsDeviceEachIteration(c, written))
        return true;
    return false;
  }

  static bool namesAny(const Stmt *s, const std::set<const ValueDecl *> &decls) {
    if (!s)
      return false;
    if (auto *d = dyn_cast<DeclRefExpr>(s); d && decls.count(d->getDecl()))
      return true;
    for (const Stmt *c : s->children())
      if (namesAny(c, decls))
        return true;
    return false;
  }

  std::vector<HostLoop> loopInfos() const {
    std::vector<HostLoop> v;
    for (const LoopFrame &f : loops_)
      v.push_back(f.info);
    return v;
  }

  void describeFor(const ForStmt *fs, LoopFrame &frame) {
    HostLoop &info = frame.info;
    const VarDecl *var = nullptr;
    std::optional<int64_t> start;
    if (auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit()); ds && ds->isSingleDecl()) {
      var = dyn_cast<VarDecl>(ds->getSingleDecl());
      if (var && var->hasInit())
        start = buffers_.evaluate(var->getInit());
    } else if (auto *b = dyn_cast_or_null<BinaryOperator>(fs->getInit()); b && b->getOpcode() == BO_Assign) {
      if (auto *d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
        var = dyn_cast<VarDecl>(d->getDecl());
      start = buffers_.evaluate(b->getRHS());
    }
    if (!var)
      return;
    frame.counter = var;
    info.inductionVar = var->getNameAsString();
    auto isVar = [&](const Expr *e) {
      auto *d = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr);
      return d && d->getDecl() == var;
    };
    std::optional<int64_t> end;
    bool inclusive = false;
    if (auto *c = dyn_cast_or_null<BinaryOperator>(fs->getCond())) {
      if (isVar(c->getLHS()) && (c->getOpcode() == BO_LT || c->getOpcode() == BO_LE || c->getOpcode() == BO_NE)) {
        end = buffers_.evaluate(c->getRHS());
        inclusive = c->getOpcode() == BO_LE;
      } else if (isVar(c->getRHS()) && (c->getOpcode() == BO_GT || c->getOpcode() == BO_GE)) {
        end = buffers_.evaluate(c->getLHS());
        inclusive = c->getOpcode() == BO_GE;
      }
    }
    std::optional<int64_t> step;
    if (auto *u = dyn_cast_or_null<UnaryOperator>(fs->getInc()); u && u->isIncrementOp() && isVar(u->getSubExpr()))
      step = 1;
    else if (auto *b = dyn_cast_or_null<CompoundAssignOperator>(fs->getInc());
             b && b->getOpcode() == BO_AddAssign && isVar(b->getLHS()))
      step = buffers_.evaluate(b->getRHS());
    frame.step = step;
    if (start && end && step && *step > 0) {
      int64_t span = *end - *start + (inclusive ? 1 : 0);
      info.tripCount = span <= 0 ? 0 : (span + *step - 1) / *step;
    }
  }

  // Whether `e` reads a variable the innermost enclosing loop writes.
  // The variables that take a new value each iteration of a loop: its
  // counter and what it assigns or increments, but not a local the body
  // declares afresh (a new object each time), unless that local is computed
  // from one of them (`int off = s * chunk;`).
  static std::set<const ValueDecl *> iterationVariables(const Stmt *loop, const std::set<const ValueDecl *> &written,
                                                        std::set<const ValueDecl *> &declaredInBody) {
    std::set<const ValueDecl *> varying;
    const Stmt *body = nullptr;
    if (auto *f = dyn_cast<ForStmt>(loop)) {
      body = f->getBody();
      if (auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit()))
        for (const Decl *d : ds->decls())
          if (auto *vd = dyn_cast<VarDecl>(d))
            varying.insert(vd);
    } else if (auto *w = dyn_cast<WhileStmt>(loop)) {
      body = w->getBody();
    } else if (auto *d = dyn_cast<DoStmt>(loop)) {
      body = d->getBody();
    } else if (auto *r = dyn_cast<CXXForRangeStmt>(loop)) {
      body = r->getBody();
      varying.insert(r->getLoopVariable());
    }
    std::vector<const VarDecl *> locals;
    // What the body assigns to each variable (`offset = (start + 1) / 2 * 17;`, `k += i`).
    std::multimap<const ValueDecl *, const Expr *> assigned;
    std::function<void(const Stmt *)> collect = [&](const Stmt *st) {
      if (!st)
        return;
      if (auto *ds = dyn_cast<DeclStmt>(st))
        for (const Decl *d : ds->decls())
          if (auto *vd = dyn_cast<VarDecl>(d)) {
            declaredInBody.insert(vd);
            locals.push_back(vd);
          }
      if (auto *b = dyn_cast<BinaryOperator>(st); b && b->isAssignmentOp())
        if (auto *d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
          assigned.insert({d->getDecl(), b->getRHS()});
      for (const Stmt *c : st->children())
        collect(c);
    };
    collect(body);
    for (const ValueDecl *d : written)
      if (!declaredInBody.count(d))
        varying.insert(d);
    auto reads = [&](const Stmt *st) {
      bool found = false;
      std::function<void(const Stmt *)> scan = [&](const Stmt *x) {
        if (!x || found)
          return;
        if (auto *r = dyn_cast<DeclRefExpr>(x); r && varying.count(r->getDecl()))
          found = true;
        for (const Stmt *c : x->children())
          scan(c);
      };
      scan(st);
      return found;
    };
    // A local of the body takes a new value each iteration when its
    // initializer or any assignment to it in the body reads one that does
    // (through other such locals: until nothing changes).
    for (bool changed = true; changed;) {
      changed = false;
      for (const VarDecl *vd : locals) {
        if (varying.count(vd))
          continue;
        bool v = vd->hasInit() && reads(vd->getInit());
        for (auto [it, end] = assigned.equal_range(vd); !v && it != end; ++it)
          v = reads(it->second);
        if (v) {
          varying.insert(vd);
          changed = true;
        }
      }
    }
    return varying;
  }

  // Whether `e` reads a variable that takes a new value each iteration of the innermost loop.
  bool variesInLoop(const Expr *e) {
    if (loops_.empty() || !e)
      return false;
    LoopFrame &f = loops_.back();
    if (!f.written)
      f.written = iterationVariables(f.stmt, buffers_.writtenIn(f.stmt), f.declared);
    bool varies = false;
    std::function<void(const Stmt *)> scan = [&](const Stmt *s) {
      if (!s || varies)
        return;
      if (auto *d = dyn_cast<DeclRefExpr>(s))
        if (f.written->count(d->getDecl()))
          varies = true;
      for (const Stmt *c : s->children())
        scan(c);
    };
    scan(e);
    return varies;
  }

  // The variable an operand's address starts from (`h` of `&h[i].x`, `v` of `v.data() + k`).
  static const VarDecl *rootVariable(const Expr *e) {
    for (int i = 0; e && i < 16; ++i) {
      e = e->IgnoreParenImpCasts();
      if (auto *c = dyn_cast<ExplicitCastExpr>(e))
        e = c->getSubExpr();
      else if (auto *b = dyn_cast<BinaryOperator>(e))
        e = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
      else if (auto *u = dyn_cast<UnaryOperator>(e))
        e = u->getSubExpr();
      else if (auto *a = dyn_cast<ArraySubscriptExpr>(e))
        e = a->getBase();
      else if (auto *m = dyn_cast<MemberExpr>(e))
        e = m->getBase();
      else if (auto *mc = dyn_cast<CXXMemberCallExpr>(e))
        e = mc->getImplicitObjectArgument();
      else if (auto *op = dyn_cast<CXXOperatorCallExpr>(e); op && op->getNumArgs() > 0)
        e = op->getArg(0);
      else if (auto *d = dyn_cast<DeclRefExpr>(e))
        return dyn_cast<VarDecl>(d->getDecl());
      else
        return nullptr;
    }
    return nullptr;
  }

  // A piece of a buffer that outlives the innermost loop, chosen by the iteration
  // (`h + r * cols`, `rows[r]`, `&nodes[i].v`), not a fresh object of each iteration.
  bool pieceOfOuterBuffer(const Expr *e) {
    if (!variesInLoop(e))
      return false;
    const VarDecl *root = rootVariable(e);
    // The root itself must stay: a pointer reassigned each iteration (a new
    // allocation, a swap) names a new buffer, not a piece of one.
    if (!root || loops_.back().declared.count(root))
      return false;
    for (const ValueDecl *w : buffers_.writtenIn(loops_.back().stmt))
      if (w == root || w->getCanonicalDecl() == root->getCanonicalDecl())
        return false;
    return true;
  }

  StreamUse streamOf(const Expr *e) {
    StreamUse s;
    if (!e || isa<CXXDefaultArgExpr>(e))
      return s;
    s.text = text(e);
    const Expr *x = e->IgnoreParenImpCasts();
    while (auto *c = dyn_cast<ExplicitCastExpr>(x))
      x = c->getSubExpr()->IgnoreParenImpCasts();
    bool zero = false;
    if (!x->isValueDependent()) {
      Expr::EvalResult r;
      if (isa<IntegerLiteral>(x) || isa<CXXNullPtrLiteralExpr>(x) || isa<GNUNullExpr>(x))
        zero = true;
      else if (x->getType()->isIntegerType() && x->EvaluateAsInt(r, ctx_) && r.Val.getInt() == 0)
        zero = true;
    }
    s.isDefault = zero || s.text == "cudaStreamLegacy" || s.text == "cudaStreamPerThread" || s.text == "0" ||
                  s.text == "NULL" || s.text == "nullptr";
    s.variesInLoop = variesInLoop(e);
    return s;
  }

  BufferOrigin managedOrigin(const Expr *e) {
    const Expr *x = e->IgnoreParenImpCasts();
    while (auto *c = dyn_cast<ExplicitCastExpr>(x))
      x = c->getSubExpr()->IgnoreParenImpCasts();
    // Only names (and arithmetic on them) are traced for touches: cheap, and
    // what host code touches managed memory through.
    if (!buffers_.baseDecl(x))
      return BufferOrigin{};
    return buffers_.origin(x);
  }

  void touch(const Expr *base, const Expr *whole) {
    if (!fn_ || !base || !base->getType()->isPointerType())
      return;
    BufferOrigin o = managedOrigin(base);
    if (o.kind != MemoryOrigin::Managed)
      return;
    // One event per statement line and buffer is enough for ordering. Of the line's touches it keeps
    // one that reaches past a page, where there is one (`m[0] + m[i]` is recorded as `m[i]`, at its
    // column): managed-memory-no-prefetch leaves out a touch of at most a page.
    SourceLocation l = toLocation(sm_, whole->getBeginLoc());
    if (!out_.managed.empty()) {
      ManagedEvent &last = out_.managed.back();
      if (last.kind == ManagedEvent::HostTouch && last.bufferKey == o.key && last.loc.line == l.line &&
          last.loc.file == l.file) {
        if (withinPage(last.touchBytesAtMost)) {
          std::optional<int64_t> now = touchExtent(whole);
          if (!withinPage(now)) {
            last.text = touchText(whole, now);
            last.touchBytesAtMost = now;
            last.loc = l;
          }
        }
        return;
      }
    }
    ManagedEvent ev = event(ManagedEvent::HostTouch, whole, o);
    ev.touchBytesAtMost = touchExtent(whole);
    ev.text = touchText(whole, ev.touchBytesAtMost);
    out_.managed.push_back(std::move(ev));
  }

  static bool withinPage(const std::optional<int64_t> &bytes) { return bytes && *bytes <= kPageBytes; }

  // The most bytes a touch reaches where the source bounds it (ManagedEvent::touchBytesAtMost): a
  // constant loop's span, or one element at a constant place of a named pointer (`m[3u]`, `*m`).
  std::optional<int64_t> touchExtent(const Expr *whole) {
    if (auto span = smallLoopSpan(whole))
      return span->second;
    if (!oneElementAtConstantPlace(whole))
      return std::nullopt;
    QualType ty = whole->getType();
    if (ty.isNull() || ty->isIncompleteType() || ty->isDependentType())
      return std::nullopt;
    return ctx_.getTypeSizeInChars(ty).getQuantity();
  }

  static bool oneElementAtConstantPlace(const Expr *whole) {
    const Expr *pointer = nullptr;
    if (auto *sub = dyn_cast<ArraySubscriptExpr>(whole)) {
      if (isa<IntegerLiteral>(sub->getIdx()->IgnoreParenImpCasts()))
        pointer = sub->getBase();
    } else if (auto *deref = dyn_cast<UnaryOperator>(whole); deref && deref->getOpcode() == UO_Deref) {
      pointer = deref->getSubExpr();
    }
    return pointer && isa<DeclRefExpr>(pointer->IgnoreParenImpCasts());
  }

  // A touch's text as written, with what bounds it where a reader would not see it: a constant
  // loop's span, or an element's size where one element is more than a page.
  std::string touchText(const Expr *whole, const std::optional<int64_t> &extent) {
    std::string t = text(whole);
    if (t.size() > 80)
      t = t.substr(0, 77) + "...";
    if (auto span = smallLoopSpan(whole))
      return t + " (a constant loop: " + std::to_string(span->first) + " element" + (span->first == 1 ? "" : "s") +
             ", " + std::to_string(span->second) + " bytes)";
    if (extent && *extent > kPageBytes)
      t += " (an element of " + std::to_string(*extent) + " bytes)";
    else if (!extent && oneElementAtConstantPlace(whole))
      t += " (an element of unknown size)";
    return t;
  }

  // `m[i]` where i is the counter of an enclosing `for` with constant bounds
  // and step (describeFor), not written in its body, and the elements it
  // reaches fit in a page: (elements, bytes) of the span it touches.
  std::optional<std::pair<int64_t, int64_t>> smallLoopSpan(const Expr *whole) {
    auto *sub = dyn_cast<ArraySubscriptExpr>(whole);
    auto *ref = sub ? dyn_cast<DeclRefExpr>(sub->getIdx()->IgnoreParenImpCasts()) : nullptr;
    auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    QualType ty = whole->getType();
    if (!var || ty.isNull() || ty->isIncompleteType() || ty->isDependentType())
      return std::nullopt;
    // The base a name that no enclosing loop moves: `p = m + row * 4; p[i]`
    // in a loop over rows walks the whole buffer a few elements at a time.
    auto *baseRef = dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenImpCasts());
    const ValueDecl *base = baseRef ? baseRef->getDecl() : nullptr;
    if (!base)
      return std::nullopt;
    for (const LoopFrame &f : loops_)
      if (buffers_.writtenIn(f.stmt).count(base))
        return std::nullopt;
    for (auto f = loops_.rbegin(); f != loops_.rend(); ++f) {
      if (f->counter != var)
        continue;
      auto *fs = cast<ForStmt>(f->stmt);
      if (!f->info.tripCount || !f->step || *f->step <= 0 || buffers_.writtenIn(fs->getBody()).count(var))
        return std::nullopt;
      int64_t trips = *f->info.tripCount;
      int64_t bytes = ((trips - 1) * *f->step + 1) * ctx_.getTypeSizeInChars(ty).getQuantity();
      if (trips <= 0 || bytes > kPageBytes)
        return std::nullopt;
      return std::make_pair(trips, bytes);
    }
    return std::nullopt;
  }

  ManagedEvent event(ManagedEvent::Kind kind, const Expr *e, const BufferOrigin &o) {
    ManagedEvent ev;
    ev.kind = kind;
    ev.loc = toLocation(sm_, e->getBeginLoc());
    ev.bufferKey = o.key;
    ev.variable = o.variable;
    ev.function = fnName();
    ev.text = text(e);
    if (ev.text.size() > 80)
      ev.text = ev.text.substr(0, 77) + "...";
    ev.inLoop = !loops_.empty();
    ev.order = ++order_;
    bool known = false;
    for (const BufferOrigin &b : out_.managedBuffers)
      known = known || b.key == o.key;
    if (!known)
      out_.managedBuffers.push_back(o);
    return ev;
  }

  // Whether `body` reads or writes through parameter `p` (`p[i]`, `*p`, `p->x`).
  static bool dereferences(const Stmt *body, const ParmVarDecl *p) {
    bool found = false;
    std::function<void(const Stmt *)> scan = [&](const Stmt *s) {
      if (!s || found)
        return;
      const Expr *base = nullptr;
      if (auto *a = dyn_cast<ArraySubscriptExpr>(s))
        base = a->getBase();
      else if (auto *u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_Deref)
        base = u->getSubExpr();
      else if (auto *m = dyn_cast<MemberExpr>(s); m && m->isArrow())
        base = m->getBase();
      if (base) {
        const Expr *b = base->IgnoreParenImpCasts();
        while (auto *bo = dyn_cast<BinaryOperator>(b))
          b = bo->getLHS()->IgnoreParenImpCasts();
        if (auto *d = dyn_cast<DeclRefExpr>(b); d && d->getDecl() == p)
          found = true;
      }
      for (const Stmt *c : s->children())
        scan(c);
    };
    scan(body);
    return found;
  }

  static bool hasMemberOperand(const Expr *e) {
    bool found = false;
    std::function<void(const Stmt *)> scan = [&](const Stmt *s) {
      if (!s || found)
        return;
      if (auto *m = dyn_cast<MemberExpr>(s)) {
        const Expr *b = m->getBase()->IgnoreParenImpCasts();
        if (isa<ArraySubscriptExpr>(b) || m->isArrow())
          found = true;
      }
      for (const Stmt *c : s->children())
        scan(c);
    };
    scan(e);
    return found;
  }

  void addTransfer(const CallExpr *call, const CopyApi &api) {
    HostTransfer t;
    t.loc = toLocation(sm_, call->getBeginLoc());
    t.api = api.name;
    t.function = fnName();
    t.async = api.stream >= 0 || std::string(api.name).find("Async") != std::string::npos;
    t.twoD = api.height >= 0;
    t.threeD = std::string(api.name).find("3D") != std::string::npos;
    t.symbol = std::string(api.name).find("Symbol") != std::string::npos;
    for (unsigned i = 0; i < call->getNumArgs(); ++i)
      if (containsErrors(call->getArg(i)))
        t.argsParsed = false;
    t.loops = loopInfos();
    auto arg = [&](int i) -> const Expr * {
      return i >= 0 && static_cast<unsigned>(i) < call->getNumArgs() ? call->getArg(i) : nullptr;
    };
    if (api.stream >= 0)
      t.stream = streamOf(arg(api.stream));
    t.order = ++order_;
    if (!t.argsParsed || t.threeD) {
      t.dst.unknownReason = t.src.unknownReason = t.threeD ? "a cudaMemcpy3DParms structure" : "an argument did not parse";
      out_.transfers.push_back(std::move(t));
      return;
    }
    const Expr *dst = arg(api.dst), *src = arg(api.src);
    t.dstText = text(dst);
    t.srcText = text(src);
    auto side = [&](const Expr *e, bool symbolOrArray) {
      if (symbolOrArray) {
        BufferOrigin o;
        o.kind = MemoryOrigin::Device;
        o.allocator = t.symbol ? "__device__ symbol" : "cudaArray";
        o.variable = text(e);
        return o;
      }
      return buffers_.origin(e);
    };
    t.dst = side(dst, api.dstIsSymbolOrArray);
    t.src = side(src, api.srcIsSymbolOrArray);
    if (const Expr *s = arg(api.size)) {
      t.sizeText = text(s);
      t.sizeBytes = buffers_.evaluate(s);
    }
    if (const Expr *h = arg(api.height)) {
      t.heightText = text(h);
      t.height = buffers_.evaluate(h);
    }
    t.direction = api.fixed;
    if (const Expr *k = arg(api.kind)) {
      t.kindText = isa<CXXDefaultArgExpr>(k) ? "" : text(k);
      if (auto v = buffers_.evaluate(k)) {
        switch (*v) {
        case 0: t.direction = CopyDirection::HostToHost; break;
        case 1: t.direction = CopyDirection::HostToDevice; break;
        case 2: t.direction = CopyDirection::DeviceToHost; break;
        case 3: t.direction = CopyDirection::DeviceToDevice; break;
        default: // cudaMemcpyDefault: the pointers tell
          if (isHostKind(t.src.kind) && isDeviceKind(t.dst.kind))
            t.direction = CopyDirection::HostToDevice;
          else if (isDeviceKind(t.src.kind) && isHostKind(t.dst.kind))
            t.direction = CopyDirection::DeviceToHost;
          break;
        }
      }
    }
    if (t.direction == CopyDirection::HostToDevice)
      t.hostOperand = 1;
    else if (t.direction == CopyDirection::DeviceToHost)
      t.hostOperand = 0;
    t.sizeVariesInLoop = variesInLoop(arg(api.size));
    t.dstVariesInLoop = variesInLoop(dst);
    t.srcVariesInLoop = variesInLoop(src);
    t.outerPiece = pieceOfOuterBuffer(dst) || pieceOfOuterBuffer(src);
    if (t.hostOperand >= 0 && !loops_.empty()) {
      variesInLoop(dst); // fills the innermost loop's declared locals
      const VarDecl *root = rootVariable(t.hostOperand == 0 ? dst : src);
      t.hostFreshInLoop = root && loops_.back().declared.count(root);
    }
    t.memberOperand = hasMemberOperand(dst) || hasMemberOperand(src);
    t.block = blockOf(call);
    t.deviceSelections = deviceSelections_;
    out_.transfers.push_back(std::move(t));
  }

  // HostTransfer::block: walk up from the copy to its innermost braced block of the source, through
  // the wrappers an error-check macro adds (its braces, `do { } while (0)`, `if ((e = call) != 0)`),
  // and give up ("") where the copy runs only on some paths through that block.
  std::string blockOf(const Stmt *call) {
    if (!fn_ || !fn_->getBody())
      return "";
    if (parentsOf_ != fn_) {
      parents_ = std::make_unique<ParentMap>(fn_->getBody());
      parentsOf_ = fn_;
    }
    const Stmt *child = call;
    for (const Stmt *p = parents_->getParent(child); p; child = p, p = parents_->getParent(p)) {
      if (auto *c = dyn_cast<CompoundStmt>(p)) {
        if (c->getBeginLoc().isMacroID())
          continue;
        if (const Stmt *up = parents_->getParent(c); up && isa<SwitchStmt>(up))
          return "";
        SourceLocation l = toLocation(sm_, c->getBeginLoc());
        return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
      }
      if (auto *i = dyn_cast<IfStmt>(p)) {
        if (child != i->getCond() && child != i->getInit() && child != i->getConditionVariableDeclStmt())
          return "";
      } else if (isa<SwitchCase>(p) || isa<SwitchStmt>(p)) {
        return "";
      } else if (auto *c = dyn_cast<AbstractConditionalOperator>(p)) {
        if (child != c->getCond())
          return "";
      } else if (auto *b = dyn_cast<BinaryOperator>(p)) {
        if (b->isLogicalOp() && child == b->getRHS())
          return "";
      } else if (auto *d = dyn_cast<DoStmt>(p)) {
        auto v = d->getCond() ? buffers_.evaluate(d->getCond()) : std::nullopt;
        if (!(v && *v == 0) && child == d->getBody())
          return "";
      } else if (isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<CXXForRangeStmt>(p)) {
        return ""; // the unbraced body (or the header) of a loop
      } else if (isa<LambdaExpr>(p) || isa<CXXTryStmt>(p) || isa<CXXCatchStmt>(p)) {
        return "";
      }
    }
    return "";
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  HostBuffers buffers_;
  HostFacts &out_;
  const FunctionDecl *fn_ = nullptr;
  std::vector<LoopFrame> loops_;
  size_t order_ = 0;
  unsigned deviceSelections_ = 0;
  std::unique_ptr<ParentMap> parents_; // of parentsOf_'s body, made when a copy of it asks
  const FunctionDecl *parentsOf_ = nullptr;
  LaunchReach launchReach_;
};

} // namespace

HostFacts collectHostFacts(ASTContext &ctx) {
  HostFacts facts;
  HostWalker w(ctx, facts);
  w.TraverseDecl(ctx.getTranslationUnitDecl());
  return facts;
}

} // namespace warplint
