#include "analyzer/model/KernelWalker.h"
#include "analyzer/model/LoopRecurrences.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/facts/PrivateArrays.h"

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
  int nextUniformId = 0;
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
    tr_.shareUniformIds(&state_.nextUniformId);
    for (const ParmVarDecl *p : fn_->parameters())
      if (tracked(p))
        tr_.bindLoopVar(p, tr_.entryValue(p));
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
    tr_.bindCallArguments(call, def, child.tr_);
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
    k.undefinedOverloads = findUndefinedOverloads(ctx_, fn_);
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
          if (tracked(v))
            assign(v, v->getInit() ? tr_.index(v->getInit())
                                   : IndexExpr::unknown("'" + v->getNameAsString() + "' has no initializer"));
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
      auto before = tr_.boundValues();
      guards_.push_back(c);
      inNewRegion(is->getThen());
      auto afterThen = tr_.boundValues();
      tr_.setBoundValues(before);
      guards_.back() = IndexExpr::make(ExprOp::Not, {c});
      inNewRegion(is->getElse());
      guards_.pop_back();
      // Straight-line code after the `if` sees the reaching values: those of
      // the branch that falls through, or both joined by the condition.
      bool thenExits = is->getThen() && exitsScope(is->getThen());
      bool elseExits = is->getElse() && exitsScope(is->getElse());
      if (thenExits && !elseExits)
        return; // the else (or nothing) falls through: values as they are
      if (elseExits && !thenExits) {
        tr_.setBoundValues(afterThen);
        return;
      }
      join(c, afterThen, tr_.boundValues());
      return;
    }
    if (auto *fs = dyn_cast<ForStmt>(s)) {
      forLoop(fs);
      return;
    }
    if (auto *ws = dyn_cast<WhileStmt>(s)) {
      conditionLoop(ws, ws->getCond(), ws->getBody(), ws->getWhileLoc());
      return;
    }
    if (auto *ds = dyn_cast<DoStmt>(s)) {
      conditionLoop(ds, ds->getCond(), ds->getBody(), ds->getDoLoc());
      return;
    }
    if (isa<SwitchStmt>(s) || isa<GotoStmt>(s) || isa<LabelStmt>(s) || isa<CXXTryStmt>(s)) {
      // Cases run on some paths only: what they assign is unknown inside and after.
      forgetWrittenIn(s, "is assigned in a switch");
      for (const Stmt *child : s->children())
        stmt(child);
      forgetWrittenIn(s, "is assigned in a switch");
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

  // Locals (and parameters) written after their declaration whose value the
  // walker follows statement by statement.
  bool tracked(const VarDecl *v) const {
    return v && (v->hasLocalStorage() || isa<ParmVarDecl>(v)) && !v->getType()->isReferenceType() &&
           v->getType()->isIntegralOrEnumerationType() && !writes_.escaped.count(v) && writes_.writes.lookup(v) > 0;
  }

  static const VarDecl *assignedVar(const Expr *lhs) {
    auto *dre = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
    return dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
  }

  // Binds `v` to `value` from here on; a value the evaluator could not afford
  // (a long chain of joins) becomes opaque.
  void assign(const VarDecl *v, ExprRef value) {
    if (conditionalDepth_ > 0 || exprSize(*value, 0) > kMaxValueNodes)
      value = tr_.opaqueLocal(v, "is assigned on some paths only");
    tr_.bindLoopVar(v, std::move(value));
  }

  static constexpr int kMaxValueNodes = 160;
  static int exprSize(const IndexExpr &e, int acc) {
    if (acc > kMaxValueNodes)
      return acc;
    ++acc;
    if (e.op == ExprOp::LoopVar)
      return acc;
    for (auto &o : e.operands)
      acc = exprSize(*o, acc);
    return acc;
  }

  // After an `if`: each variable the branches left differently holds
  // `cond ? then : else`, or an opaque value when that cannot be written.
  void join(const ExprRef &cond, const ExprTranslator::ValueMap &thenValues, const ExprTranslator::ValueMap &elseValues) {
    ExprTranslator::ValueMap out;
    for (auto &[v, elseValue] : elseValues) {
      auto it = thenValues.find(v);
      if (it == thenValues.end())
        continue; // declared inside a branch
      if (it->second == elseValue) {
        out[v] = elseValue;
        continue;
      }
      ExprRef joined = IndexExpr::make(ExprOp::Select, {cond, it->second, elseValue});
      if (!joined->isKnown() || exprSize(*joined, 0) > kMaxValueNodes)
        joined = tr_.opaqueLocal(v, "is assigned differently on different paths");
      out[v] = joined;
    }
    tr_.setBoundValues(std::move(out));
  }

  // Every tracked variable written inside `s` becomes opaque (uniform when
  // all its assignments are).
  void forgetWrittenIn(const Stmt *s, const std::string &why) {
    LocalWrites w = LocalWrites::collect(s);
    for (auto &[v, n] : w.writes)
      if (tracked(v) && tr_.boundValues().count(v))
        tr_.bindLoopVar(v, tr_.opaqueLocal(v, why));
  }

  ExprRef valueNow(const VarDecl *v) {
    auto it = tr_.boundValues().find(v);
    if (it != tr_.boundValues().end())
      return it->second;
    if (v->getInit() && writes_.isStable(v))
      return tr_.index(v->getInit());
    return nullptr;
  }

  // Binds the variables a loop body updates once per iteration to their
  // recurrences and everything else the loop writes to an opaque value.
  std::vector<CarriedVariable> enterLoopBody(const Stmt *loop, const Stmt *body, int loopId, ExprRef cond,
                                             const VarDecl *induction) {
    LocalWrites loopWrites = LocalWrites::collect(loop);
    std::vector<CarriedVariable> carried = carriedVariables(body, loopId, cond, tr_, writes_, loopWrites,
                                                            [&](const VarDecl *v) -> ExprRef {
                                                              if (v == induction || !tracked(v))
                                                                return nullptr;
                                                              ExprRef now = valueNow(v);
                                                              return now && now->isKnown() ? now : nullptr;
                                                            });
    for (auto &[v, n] : loopWrites.writes) {
      if (v == induction || !tracked(v))
        continue;
      auto c = std::find_if(carried.begin(), carried.end(), [&](auto &cv) { return cv.var == v; });
      tr_.bindLoopVar(v, c != carried.end() ? c->before : tr_.opaqueLocal(v, "changes inside a loop"));
      if (c != carried.end())
        rebindAfter_[c->update] = {c->var, c->after};
    }
    return carried;
  }

  // After a loop, what it wrote holds the value the last iteration left.
  void leaveLoop(const Stmt *loop, const std::vector<CarriedVariable> &carried) {
    for (auto &c : carried)
      rebindAfter_.erase(c.update);
    forgetWrittenIn(loop, "holds the value a loop left");
  }

  // A statement whose accesses share no straight-line region with those
  // around it (a branch, a loop body): narrow-access siblings are grouped
  // only within one region.
  void inNewRegion(const Stmt *s) {
    int saved = region_;
    region_ = ++state_.nextRegion;
    stmt(s);
    region_ = saved;
  }

  // Recognizes `for (v = init; cond; v op= step)` with v not written in the
  // body (`int i; for (i = 0; ...)` and a counter reused by several loops
  // included).
  void forLoop(const ForStmt *fs) {
    const VarDecl *var = nullptr;
    const Expr *init = nullptr;
    if (auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit())) {
      if (ds->isSingleDecl())
        if (auto *v = dyn_cast<VarDecl>(ds->getSingleDecl()); v && v->getInit()) {
          var = v;
          init = v->getInit();
        }
      stmt(ds);
    } else if (auto *bo = dyn_cast_or_null<BinaryOperator>(fs->getInit())) {
      if (bo->getOpcode() == BO_Assign)
        if (auto *dre = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParenImpCasts())) {
          var = dyn_cast<VarDecl>(dre->getDecl());
          init = bo->getRHS();
        }
      expr(bo, Use::Read);
    } else if (fs->getInit()) {
      stmt(fs->getInit());
    }

    auto rec = std::make_shared<LoopRecurrence>();
    rec->loopId = state_.nextLoopId++;
    bool recognized = false;
    if (var && var->getType()->isIntegralOrEnumerationType() && !writes_.escaped.count(var)) {
      LocalWrites inLoop = LocalWrites::collect(fs->getBody());
      LocalWrites inCond = LocalWrites::collect(fs->getCond());
      if (!inLoop.writes.lookup(var) && !inCond.writes.lookup(var))
        recognized = parseLoopStep(fs->getInc(), var, tr_, *rec);
    }
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
    }
    // The body's values hold at the start of every iteration.
    std::vector<CarriedVariable> carried =
        enterLoopBody(fs, fs->getBody(), rec->loopId, nullptr, recognized ? var : nullptr);
    if (recognized) {
      tr_.bindLoopVar(var, IndexExpr::loopVar(rec));
      if (fs->getCond())
        rec->cond = tr_.index(fs->getCond());
      for (auto &c : carried)
        c.beforeRec->cond = c.afterRec->cond = rec->cond;
      // A condition that differs across lanes (a grid-stride `i < n`) also
      // decides which lanes take part.
      if (rec->cond && (rec->cond->dependsOn(SymbolKind::ThreadIdx)))
        condGuard = rec->cond;
      li.tripCount = constantTripCount(*rec);
    } else {
      // `for (; k < n;) { ...; ++k; }`: counted by what the body updates.
      ExprRef c = fs->getCond() ? tr_.index(fs->getCond()) : nullptr;
      for (auto &cv : carried)
        cv.beforeRec->cond = cv.afterRec->cond = c;
      if (c && c->isKnown() && c->dependsOn(SymbolKind::ThreadIdx))
        condGuard = c;
    }
    out_.info.loops.push_back(li);
    if (fs->getCond())
      expr(fs->getCond(), Use::Read);
    if (condGuard)
      guards_.push_back(condGuard);
    inNewRegion(fs->getBody());
    if (fs->getInc())
      expr(fs->getInc(), Use::Read);
    if (condGuard)
      guards_.pop_back();
    leaveLoop(fs, carried);
  }

  // `while (cond) body` and `do body while (cond)`: a variable the body
  // updates once per iteration by a step (`++k`, `k += 32`, `s >>= 1`) is
  // the loop's counter, its iterations those where the condition holds.
  void conditionLoop(const Stmt *loop, const Expr *cond, const Stmt *body, clang::SourceLocation at) {
    int loopId = state_.nextLoopId++;
    std::vector<CarriedVariable> carried = enterLoopBody(loop, body, loopId, nullptr, nullptr);
    ExprRef c = cond ? tr_.index(cond) : nullptr;
    for (auto &cv : carried)
      cv.beforeRec->cond = cv.afterRec->cond = c;
    LoopInfo li;
    li.loc = toLocation(ctx_.getSourceManager(), at);
    if (cond)
      li.bound = sourceText(ctx_, cond->getSourceRange());
    if (!carried.empty()) {
      li.inductionVar = carried.front().beforeRec->var;
      li.init = carried.front().beforeRec->init->str();
      li.step = sourceText(ctx_, carried.front().update->getSourceRange());
      li.tripCount = constantTripCount(*carried.front().beforeRec);
    }
    out_.info.loops.push_back(li);
    if (cond)
      expr(cond, Use::Read);
    bool guarded = c && c->isKnown() && c->dependsOn(SymbolKind::ThreadIdx);
    if (guarded)
      guards_.push_back(c);
    inNewRegion(body);
    if (guarded)
      guards_.pop_back();
    leaveLoop(loop, carried);
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
      // Generic: memory through a pointer whose space could not be traced
      // (a parameter of a helper analyzed on its own). Recorded so that the
      // gap is reported ("unknown address space"); no rule judges it.
      if (auto ref = tr_.lvalue(target))
        record(target, *ref, use, width);
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
    if (ref.space == AddressSpace::Constant && !f.indexKnown)
      f.indexLoads = indexLoadLocations(ctx_, target);
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
      if (auto ref = tr_.pointee(ptr))
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
      // The value a tracked local gets, from the values before the assignment.
      const VarDecl *v = assignedVar(bo->getLHS());
      ExprRef newValue;
      if (tracked(v)) {
        if (bo->getOpcode() == BO_Assign)
          newValue = tr_.index(bo->getRHS());
        else if (auto op = ExprTranslator::compoundOp(bo->getOpcode()))
          newValue = IndexExpr::make(*op, {tr_.index(bo->getLHS()), tr_.index(bo->getRHS())});
        else
          newValue = IndexExpr::unknown("'" + v->getNameAsString() + "' is updated by an unsupported operator");
      }
      access(bo->getLHS(), bo->getOpcode() == BO_Assign ? Use::Write : Use::ReadWrite);
      expr(bo->getRHS(), Use::Read);
      if (newValue)
        assign(v, newValue);
      return;
    }
    if (auto *co = dyn_cast<ConditionalOperator>(e)) {
      expr(co->getCond(), Use::Read);
      ++conditionalDepth_; // assignments in a branch happen on some paths only
      expr(co->getTrueExpr(), Use::Read);
      expr(co->getFalseExpr(), Use::Read);
      --conditionalDepth_;
      return;
    }
    if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->isLogicalOp()) {
      expr(bo->getLHS(), Use::Read);
      ++conditionalDepth_;
      expr(bo->getRHS(), Use::Read);
      --conditionalDepth_;
      return;
    }
    if (auto *uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->isIncrementDecrementOp()) {
        const VarDecl *v = assignedVar(uo->getSubExpr());
        ExprRef newValue;
        if (tracked(v))
          newValue = IndexExpr::make(uo->isIncrementOp() ? ExprOp::Add : ExprOp::Sub,
                                     {tr_.index(uo->getSubExpr()), IndexExpr::constant(1)});
        access(uo->getSubExpr(), Use::ReadWrite);
        if (newValue)
          assign(v, newValue);
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
  int conditionalDepth_ = 0; // inside a `?:` branch or the right of `&&`/`||`
};

// 1 + the highest threadIdx dimension `e` uses. A cooperative-groups rank
// (the linear thread id) reads every dimension but fits any block shape, so
// it does not make a kernel 2-D or 3-D.
int threadDimsOf(const IndexExpr &e) {
  if (&e == ExprTranslator::linearThreadId().get())
    return 1;
  if (e.op == ExprOp::Sym)
    return e.sym.kind == SymbolKind::ThreadIdx ? e.sym.index + 1 : 1;
  int dims = 1;
  if (e.op == ExprOp::LoopVar)
    return std::max(threadDimsOf(*e.loop->init), threadDimsOf(*e.loop->step));
  for (auto &o : e.operands)
    dims = std::max(dims, threadDimsOf(*o));
  return dims;
}

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
  m.info.privateMemory = std::make_shared<PrivateMemoryFacts>();
  m.info.privateMemory->arrays = describePrivateArrays(ctx, fn);
  for (auto &a : m.accesses)
    m.threadDims = std::max(m.threadDims, threadDimsOf(*a.guarded.byteOffset));
  return m;
}

} // namespace warplint
