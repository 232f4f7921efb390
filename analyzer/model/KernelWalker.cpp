#include "analyzer/model/KernelWalker.h"
#include "analyzer/model/LoopRecurrences.h"
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <regex>
#include <set>

namespace warplint {

using namespace clang;

SourceLocation toLocation(const SourceManager &sm, clang::SourceLocation loc) {
  SourceLocation out;
  if (loc.isInvalid())
    return out;
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid())
    return out;
  out.file = p.getFilename();
  out.line = p.getLine();
  out.column = p.getColumn();
  return out;
}

std::string sourceText(const ASTContext &ctx, SourceRange range) {
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange r = CharSourceRange::getTokenRange(sm.getExpansionRange(range).getAsRange());
  return Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
}

namespace {

// CUDA's built-in vector types are loaded whole even when members are used
// one at a time, so a member access counts as an access to the vector.
bool isCudaVectorType(QualType t) {
  static const std::regex names("(u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]");
  auto *rd = t->getAsRecordDecl();
  return rd && std::regex_match(rd->getNameAsString(), names);
}

bool exitsScope(const Stmt *s) {
  if (auto *cs = dyn_cast<CompoundStmt>(s))
    return cs->size() == 1 && exitsScope(cs->body_front());
  return isa<ReturnStmt>(s) || isa<ContinueStmt>(s) || isa<BreakStmt>(s);
}

// State shared by a kernel's walker and the walkers of the calls it inlines.
struct WalkState {
  std::set<std::string> seen; // accesses already recorded
  int nextLoopId = 0;
  int nextRegion = 0;
  std::vector<const FunctionDecl *> stack; // functions being walked, outermost first
};

constexpr size_t kMaxInlineDepth = 4;

class Walker {
public:
  Walker(ASTContext &ctx, const FunctionDecl *fn, ModeledKernel &out, WalkState &state)
      : ctx_(ctx), fn_(fn), writes_(LocalWrites::collect(fn->getBody())), tr_(ctx, fn, writes_), out_(out),
        state_(state) {}

  void run() {
    collectSignature();
    walkBody();
  }

private:
  void walkBody() {
    if (!fn_->getBody())
      return;
    state_.stack.push_back(fn_);
    stmt(fn_->getBody());
    state_.stack.pop_back();
  }

  // A call to one of the user's __device__ functions is analyzed in place:
  // its parameters take the caller's values, its accesses run under the
  // caller's guards and block shape.
  bool inlineCall(const CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || isa<CXXOperatorCallExpr>(call))
      return false;
    const FunctionDecl *def = callee->getDefinition();
    if (!def || !def->getBody() || !isDeviceFunction(def) || def->hasAttr<CUDAGlobalAttr>() ||
        ctx_.getSourceManager().isInSystemHeader(def->getLocation()) || state_.stack.size() >= kMaxInlineDepth ||
        std::find(state_.stack.begin(), state_.stack.end(), def) != state_.stack.end())
      return false;
    Walker child(ctx_, def, out_, state_);
    child.guards_ = guards_;
    child.region_ = region_;
    child.callChain_ = callChain_;
    child.callChain_.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
    for (unsigned i = 0; i < call->getNumArgs() && i < def->getNumParams(); ++i) {
      const ParmVarDecl *param = def->getParamDecl(i);
      const Expr *arg = call->getArg(i);
      QualType t = param->getType();
      if (t->isPointerType()) {
        if (auto ref = tr_.pointee(arg))
          child.tr_.bindParamMemory(param, *ref);
      } else if (t->isReferenceType()) {
        if (auto ref = tr_.lvalue(arg))
          child.tr_.bindParamMemory(param, *ref);
      } else if (t->isIntegralOrEnumerationType()) {
        child.tr_.bindParam(param, tr_.index(arg));
      }
    }
    child.walkBody();
    out_.inlinedCallees.push_back(def);
    return true;
  }

  enum class Use { Read, Write, ReadWrite, None };

  void collectSignature() {
    KernelInfo &k = out_.info;
    for (const ParmVarDecl *p : fn_->parameters()) {
      ParamInfo pi;
      pi.name = p->getNameAsString();
      QualType t = p->getType();
      pi.type = t.getAsString();
      pi.isPointer = t->isPointerType();
      pi.isRestrict = t.isRestrictQualified();
      QualType el = pi.isPointer ? t->getPointeeType() : t;
      pi.pointeeConst = pi.isPointer && el.isConstQualified();
      pi.elementType = el.getUnqualifiedType().getAsString();
      pi.elementSize = tr_.sizeOf(el);
      k.params.push_back(pi);
    }
    if (auto *lb = fn_->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult r;
      if (lb->getMaxThreads() && !lb->getMaxThreads()->isValueDependent() &&
          lb->getMaxThreads()->EvaluateAsInt(r, ctx_))
        k.launchBoundsMaxThreads = r.Val.getInt().getExtValue();
    }
    describePointerParams(ctx_, fn_, k.params);
    k.bytePackWindows = findBytePackWindows(ctx_, fn_);
    k.byteLane = findByteLaneKernel(ctx_, fn_);
  }

  void declareArray(const VarDecl *v) {
    AddressSpace s = ExprTranslator::spaceOf(v, fn_);
    if (!v->getType()->isArrayType() && s != AddressSpace::Shared)
      return;
    if (s != AddressSpace::Shared && s != AddressSpace::Local)
      return;
    ArrayInfo a;
    a.name = v->getNameAsString();
    a.space = s;
    a.loc = toLocation(ctx_.getSourceManager(), v->getLocation());
    QualType t = v->getType();
    while (const ArrayType *at = t->getAsArrayTypeUnsafe()) {
      if (auto *ca = dyn_cast<ConstantArrayType>(at))
        a.dims.push_back(static_cast<int64_t>(ca->getSize().getZExtValue()));
      else {
        a.dims.push_back(0);
        a.isExtern = a.isExtern || (isa<IncompleteArrayType>(at) && v->hasExternalStorage());
      }
      t = at->getElementType();
    }
    a.elementType = t.getAsString();
    a.elementSize = tr_.sizeOf(t);
    if (s == AddressSpace::Shared)
      describeArrayLayout(ctx_, fn_, v, a);
    out_.info.arrays.push_back(a);
  }

  void stmt(const Stmt *s) {
    if (!s)
      return;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      size_t guardsBefore = guards_.size();
      for (const Stmt *child : cs->body()) {
        stmt(child);
        // A loop-carried local holds the next iteration's value after its update.
        if (auto it = rebindAfter_.find(child); it != rebindAfter_.end())
          tr_.bindLoopVar(it->second.first, it->second.second);
        // `if (cond) return;` guards everything after it in this block.
        if (auto *is = dyn_cast<IfStmt>(child))
          if (!is->getElse() && is->getThen() && exitsScope(is->getThen()) && is->getCond())
            guards_.push_back(IndexExpr::make(ExprOp::Not, {tr_.index(is->getCond())}));
      }
      guards_.resize(guardsBefore);
      return;
    }
    if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d)) {
          declareArray(v);
          if (v->getInit())
            expr(v->getInit(), Use::Read);
        }
      return;
    }
    if (auto *is = dyn_cast<IfStmt>(s)) {
      if (is->getInit())
        stmt(is->getInit());
      if (!is->getCond())
        return;
      expr(is->getCond(), Use::Read);
      ExprRef c = tr_.index(is->getCond());
      guards_.push_back(c);
      inNewRegion(is->getThen());
      guards_.back() = IndexExpr::make(ExprOp::Not, {c});
      inNewRegion(is->getElse());
      guards_.pop_back();
      return;
    }
    if (auto *fs = dyn_cast<ForStmt>(s)) {
      forLoop(fs);
      return;
    }
    if (auto *ws = dyn_cast<WhileStmt>(s)) {
      expr(ws->getCond(), Use::Read);
      guards_.push_back(tr_.index(ws->getCond()));
      inNewRegion(ws->getBody());
      guards_.pop_back();
      return;
    }
    if (auto *e = dyn_cast<Expr>(s)) {
      expr(e, Use::Read);
      return;
    }
    if (isa<CXXForRangeStmt>(s))
      return; // range-for over containers does not occur in kernels we model
    for (const Stmt *child : s->children())
      stmt(child);
  }

  void inNewRegion(const Stmt *s) {
    int saved = region_;
    region_ = ++state_.nextRegion;
    stmt(s);
    region_ = saved;
  }

  // Recognizes `for (v = init; cond; v op= step)` with v written nowhere else.
  void forLoop(const ForStmt *fs) {
    const VarDecl *var = nullptr;
    const Expr *init = nullptr;
    int initWrites = 0;
    if (auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit())) {
      if (ds->isSingleDecl())
        if (auto *v = dyn_cast<VarDecl>(ds->getSingleDecl()); v && v->getInit()) {
          var = v;
          init = v->getInit();
        }
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d); v && v->getInit())
          expr(v->getInit(), Use::Read);
    } else if (auto *bo = dyn_cast_or_null<BinaryOperator>(fs->getInit())) {
      if (bo->getOpcode() == BO_Assign)
        if (auto *dre = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParenImpCasts())) {
          var = dyn_cast<VarDecl>(dre->getDecl());
          init = bo->getRHS();
          initWrites = 1;
        }
      expr(bo, Use::Read);
    } else if (fs->getInit()) {
      stmt(fs->getInit());
    }

    auto rec = std::make_shared<LoopRecurrence>();
    rec->loopId = state_.nextLoopId++;
    bool recognized = false;
    if (var && var->getType()->isIntegralOrEnumerationType() && !writes_.escaped.count(var) &&
        writes_.writes.lookup(var) == initWrites + 1)
      recognized = parseLoopStep(fs->getInc(), var, tr_, *rec);
    LoopInfo li;
    li.loc = toLocation(ctx_.getSourceManager(), fs->getForLoc());
    if (fs->getCond())
      li.bound = sourceText(ctx_, fs->getCond()->getSourceRange());
    if (fs->getInc())
      li.step = sourceText(ctx_, fs->getInc()->getSourceRange());
    if (init)
      li.init = sourceText(ctx_, init->getSourceRange());

    ExprRef condGuard;
    if (recognized) {
      rec->var = var->getNameAsString();
      rec->init = tr_.index(init);
      li.inductionVar = rec->var;
      tr_.bindLoopVar(var, IndexExpr::loopVar(rec));
      if (fs->getCond())
        rec->cond = tr_.index(fs->getCond());
      // A condition that differs across lanes (a grid-stride `i < n`) also
      // decides which lanes take part.
      if (rec->cond && (rec->cond->dependsOn(SymbolKind::ThreadIdx)))
        condGuard = rec->cond;
      li.tripCount = constantTripCount(*rec);
    } else if (fs->getCond()) {
      ExprRef c = tr_.index(fs->getCond());
      if (c->isKnown() && c->dependsOn(SymbolKind::ThreadIdx))
        condGuard = c;
    }
    out_.info.loops.push_back(li);
    if (fs->getCond())
      expr(fs->getCond(), Use::Read);
    if (condGuard)
      guards_.push_back(condGuard);
    std::vector<CarriedVariable> carried;
    if (recognized)
      carried = carriedVariables(fs, rec, tr_, writes_, ctx_.getSourceManager());
    for (auto &c : carried) {
      tr_.bindLoopVar(c.var, c.before);
      rebindAfter_[c.update] = {c.var, c.after};
    }
    inNewRegion(fs->getBody());
    for (auto &c : carried) {
      tr_.unbindLoopVar(c.var);
      rebindAfter_.erase(c.update);
    }
    if (fs->getInc())
      expr(fs->getInc(), Use::Read);
    if (condGuard)
      guards_.pop_back();
    if (recognized)
      tr_.unbindLoopVar(var);
  }

  // Records the access `lv` (a memory lvalue) if it is one, then walks the
  // expressions that compute its address.
  void access(const Expr *lv, Use use, const Expr *widthFrom = nullptr) {
    const Expr *target = lv->IgnoreParens();
    int64_t width = tr_.sizeOf((widthFrom ? widthFrom : target)->getType());
    if (auto *me = dyn_cast<MemberExpr>(target); me && !me->isArrow() && isCudaVectorType(me->getBase()->getType())) {
      target = me->getBase()->IgnoreParens();
      width = tr_.sizeOf(target->getType());
    }
    if (!target->containsErrors()) {
      if (auto ref = tr_.lvalue(target)) {
        if (ref->space == AddressSpace::Shared || ref->space == AddressSpace::Global ||
            ref->space == AddressSpace::Constant || ref->space == AddressSpace::Local)
          record(target, *ref, use, width);
      }
    }
    addressOperands(target);
  }

  void addressOperands(const Expr *e) {
    for (const Stmt *child : e->children())
      if (auto *ce = dyn_cast_or_null<Expr>(child))
        expr(ce, Use::None);
  }

  void record(const Expr *target, const MemoryRef &ref, Use use, int64_t width) {
    ModeledAccess a;
    MemoryAccess &f = a.fact;
    f.loc = toLocation(ctx_.getSourceManager(), target->getBeginLoc());
    f.kernel = out_.info.name;
    f.base = ref.rootName;
    f.text = sourceText(ctx_, target->getSourceRange());
    f.space = ref.space;
    f.isRead = use == Use::Read || use == Use::ReadWrite;
    f.isWrite = use == Use::Write || use == Use::ReadWrite;
    f.elementSize = ref.rootElementSize;
    f.widthBytes = width;
    f.indexText = ref.byteOffset->str();
    f.indexKnown = ref.byteOffset->isKnown();
    f.callChain = callChain_;
    std::string key = f.base + "|" + f.indexText + "|" + std::to_string(f.loc.line) + "|" +
                      std::to_string(f.isWrite) + std::to_string(width);
    for (auto &c : callChain_)
      key += "|" + std::to_string(c.line) + ":" + std::to_string(c.column);
    if (!state_.seen.insert(key).second)
      return; // members of one vector element read in one line: one access
    auto &consts = out_.info.constantSymbols;
    if (ref.space == AddressSpace::Constant && std::find(consts.begin(), consts.end(), f.base) == consts.end())
      consts.push_back(f.base);
    a.subscripts = subscriptChain(target, ref);
    a.guarded.byteOffset = ref.byteOffset;
    a.guarded.widthBytes = width;
    a.guarded.space = ref.space;
    a.guarded.extentBytes = ref.rootExtentBytes;
    for (auto &g : guards_) {
      if (g->isKnown())
        a.guarded.guards.push_back(g);
      else
        a.unknownGuard = true;
    }
    a.region = region_;
    out_.accesses.push_back(std::move(a));
  }

  // The subscripts of `a[i][j]` when `target` is a full chain on a
  // multi-dimensional shared array; empty otherwise.
  std::vector<ExprRef> subscriptChain(const Expr *target, const MemoryRef &ref) {
    std::vector<ExprRef> subs;
    auto *var = dyn_cast_or_null<VarDecl>(ref.root);
    if (!var || ref.space != AddressSpace::Shared || !var->getType()->isArrayType())
      return subs;
    size_t rank = 0;
    for (QualType t = var->getType(); const ArrayType *at = t->getAsArrayTypeUnsafe(); t = at->getElementType())
      ++rank;
    const Expr *e = target->IgnoreParenImpCasts(); // `float4 v = s[i][j]` copies through a NoOp cast
    while (auto *ase = dyn_cast<ArraySubscriptExpr>(e)) {
      subs.insert(subs.begin(), tr_.index(ase->getIdx()));
      e = ase->getBase()->IgnoreParenImpCasts();
    }
    auto *dre = dyn_cast<DeclRefExpr>(e);
    if (rank < 2 || !dre || dre->getDecl() != var || subs.size() != rank)
      subs.clear();
    return subs;
  }

  // Calls that access memory through their first argument: `__ldg(&p[i])`
  // and the other cache-hinted loads read *p, `__stcs(&p[i], v)` and friends
  // write it, `atomicAdd(&p[i], v)` and the other atomics read and write it.
  bool pointerArgumentAccess(const CallExpr *call) {
    auto *fd = call->getDirectCallee();
    if (!fd || call->getNumArgs() < 1 || !call->getArg(0)->getType()->isPointerType())
      return false;
    std::string name = fd->getNameAsString();
    static const std::set<std::string> loads{"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"};
    static const std::set<std::string> stores{"__stwb", "__stcg", "__stcs", "__stwt"};
    Use use;
    if (loads.count(name) && call->getNumArgs() == 1)
      use = Use::Read;
    else if (stores.count(name) && call->getNumArgs() == 2)
      use = Use::Write;
    else if (name.rfind("atomic", 0) == 0 && call->getNumArgs() >= 2)
      use = Use::ReadWrite;
    else
      return false;
    const Expr *ptr = call->getArg(0);
    int64_t width = tr_.sizeOf(ptr->getType()->getPointeeType());
    // Reported at what is accessed: `in[i]` in `__ldg(&in[i])`.
    const Expr *shown = ptr->IgnoreParenImpCasts();
    if (auto *uo = dyn_cast<UnaryOperator>(shown); uo && uo->getOpcode() == UO_AddrOf)
      shown = uo->getSubExpr()->IgnoreParens();
    if (!ptr->containsErrors())
      if (auto ref = tr_.pointee(ptr); ref && ref->space != AddressSpace::Generic)
        record(shown, *ref, use, width);
    addressOperands(ptr->IgnoreParenImpCasts());
    for (unsigned i = 1; i < call->getNumArgs(); ++i)
      expr(call->getArg(i), Use::Read);
    return true;
  }

  // Walks an expression, recording memory lvalues where they are read or written.
  void expr(const Expr *e, Use use) {
    if (!e)
      return;
    e = e->IgnoreParens();
    if (isa<LambdaExpr>(e))
      return;
    if (auto *ice = dyn_cast<ImplicitCastExpr>(e); ice && ice->getCastKind() == CK_LValueToRValue) {
      access(ice->getSubExpr(), Use::Read);
      return;
    }
    if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->isAssignmentOp()) {
      access(bo->getLHS(), bo->getOpcode() == BO_Assign ? Use::Write : Use::ReadWrite);
      expr(bo->getRHS(), Use::Read);
      return;
    }
    if (auto *uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->isIncrementDecrementOp()) {
        access(uo->getSubExpr(), Use::ReadWrite);
        return;
      }
      if (uo->getOpcode() == UO_AddrOf) {
        addressOperands(uo->getSubExpr()->IgnoreParens());
        return;
      }
    }
    if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
      // Copying a struct (float4 v = p[i]) reads the whole element.
      if (ce->getNumArgs() == 1 && ce->getConstructor() &&
          (ce->getConstructor()->isCopyOrMoveConstructor()) && ce->getArg(0)->isGLValue()) {
        access(ce->getArg(0), Use::Read, ce);
        return;
      }
    }
    if (auto *call = dyn_cast<CallExpr>(e); call && pointerArgumentAccess(call))
      return;
    if (auto *call = dyn_cast<CallExpr>(e))
      inlineCall(call); // then its arguments are walked as reads below
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(e); op && op->isAssignmentOp() && op->getNumArgs() == 2) {
      access(op->getArg(0), Use::Write);
      const Expr *rhs = op->getArg(1)->IgnoreParenImpCasts();
      if (rhs->isGLValue())
        access(rhs, Use::Read);
      else
        expr(rhs, Use::Read);
      return;
    }
    for (const Stmt *child : e->children())
      if (auto *ce = dyn_cast_or_null<Expr>(child))
        expr(ce, Use::Read);
  }

  ASTContext &ctx_;
  const FunctionDecl *fn_;
  LocalWrites writes_;
  ExprTranslator tr_;
  ModeledKernel &out_;
  std::vector<ExprRef> guards_;
  int region_ = 0; // see ModeledAccess::region
  WalkState &state_;
  std::vector<SourceLocation> callChain_;
  std::map<const Stmt *, std::pair<const VarDecl *, ExprRef>> rebindAfter_;
};

} // namespace

bool isDeviceFunction(const FunctionDecl *fd) {
  if (fd->hasAttr<CUDAGlobalAttr>())
    return true;
  // Explicit __device__ functions; the implicit host-device ones come from
  // headers and constexpr functions, not from the user's kernels.
  auto *a = fd->getAttr<CUDADeviceAttr>();
  return a && !a->isImplicit();
}

ModeledKernel modelKernel(ASTContext &ctx, const FunctionDecl *fn) {
  ModeledKernel m;
  m.info.name = fn->getNameAsString();
  m.info.loc = toLocation(ctx.getSourceManager(), fn->getLocation());
  m.info.isGlobal = fn->hasAttr<CUDAGlobalAttr>();
  if (auto *args = fn->getTemplateSpecializationArgs()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "<";
    for (unsigned i = 0; i < args->size(); ++i) {
      if (i)
        os << ", ";
      args->get(i).print(ctx.getPrintingPolicy(), os, true);
    }
    os << ">";
    m.info.templateArgs = os.str();
  }
  m.info.isTemplatePattern = fn->isDependentContext();
  WalkState state;
  Walker w(ctx, fn, m, state);
  w.run();
  for (auto &a : m.accesses) {
    std::vector<Symbol> syms;
    a.guarded.byteOffset->collectSymbols(syms);
    for (auto &s : syms)
      if (s.kind == SymbolKind::ThreadIdx)
        m.threadDims = std::max(m.threadDims, s.index + 1);
  }
  return m;
}

} // namespace warplint
