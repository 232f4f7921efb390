#include "analyzer/model/KernelWalker.h"
#include "analyzer/Deadline.h"
#include "analyzer/model/OperationCost.h"
#include "analyzer/model/Assignments.h"
#include "analyzer/model/LoopRecurrences.h"
#include "analyzer/model/OutParameters.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/facts/BytePackingModel.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/facts/PrivateArrays.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>
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
  int nextStatement = 0; // ProgramEvent::statement
  std::vector<const FunctionDecl *> stack; // functions being walked, outermost first
  BodyParents parents; // shared by the facts below (BodyParents.h)
};

constexpr size_t kMaxInlineDepth = 4;

// A loop's recurrences hold its condition (LoopRecurrence::cond), and the
// condition, translated while the counter is bound to IndexExpr::loopVar of
// those recurrences, holds them back: a reference cycle that outlives the
// model (bench/README.md, "Fuzzing and sanitizers", row 4). The model's
// entry for the loop (ModeledKernel::loopRecurrences) owns this object, an
// aliasing pointer to the counter, and it clears the conditions when the
// last copy of the model lets go of it: every reader of a condition works
// while the model lives, and nothing else changes (same pointers, same
// conditions). Made before the conditions are set, so that a walk stopped
// in between (the time limit) clears them too.
struct LoopConditions {
  std::vector<std::shared_ptr<LoopRecurrence>> recurrences;
  ~LoopConditions() {
    for (auto &r : recurrences)
      r->cond = nullptr;
  }
};

std::shared_ptr<LoopConditions> loopConditions(const std::shared_ptr<LoopRecurrence> &counter,
                                               const std::vector<CarriedVariable> &carried) {
  auto owner = std::make_shared<LoopConditions>();
  if (counter)
    owner->recurrences.push_back(counter);
  for (auto &c : carried)
    for (auto *r : {&c.beforeRec, &c.afterRec})
      if (*r)
        owner->recurrences.push_back(*r);
  return owner;
}

// The model's entry for a loop's counter: the counter itself, owning the
// loop's conditions too (null without a counter: then no recurrence of the
// loop holds a condition).
std::shared_ptr<const LoopRecurrence> ownedCounter(const std::shared_ptr<const LoopRecurrence> &counter,
                                                   const std::shared_ptr<LoopConditions> &conditions) {
  if (!counter)
    return nullptr;
  return std::shared_ptr<const LoopRecurrence>(conditions, counter.get());
}

class Walker {
public:
  Walker(ASTContext &ctx, const FunctionDecl *fn, ModeledKernel &out, WalkState &state)
      : ctx_(ctx), fn_(fn), writes_(LocalWrites::collect(fn->getBody())), tr_(ctx, fn, writes_),
        values_(tr_, writes_), out_(out), state_(state) {}

  void run() {
    collectSignature();
    walkBody();
  }

private:
  void walkBody() {
    if (!fn_->getBody())
      return;
    tr_.shareUniformIds(&state_.nextUniformId);
    tr_.shareBodyParents(&state_.parents);
    loopBase_ = loopStack_.size();
    values_.bindParameters(fn_);
    state_.stack.push_back(fn_);
    stmt(fn_->getBody());
    state_.stack.pop_back();
  }

  // A call to one of the user's __device__ functions is analyzed in place:
  // its parameters take the caller's values, its accesses run under the
  // caller's guards and block shape. Returns what the locals it takes by
  // reference hold after it (OutParameters.h).
  std::vector<LocalValue> inlineCall(const CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
    std::vector<ReferenceArgument> refs = referenceArguments(call, def ? def : callee, writes_, tr_);
    if (!callee || isa<CXXOperatorCallExpr>(call) || !def || !def->getBody() || !isDeviceFunction(def) ||
        def->hasAttr<CUDAGlobalAttr>() || ctx_.getSourceManager().isInSystemHeader(def->getLocation()) ||
        state_.stack.size() >= kMaxInlineDepth ||
        std::find(state_.stack.begin(), state_.stack.end(), def) != state_.stack.end()) {
      // The user's own device code left out (too deep, recursive): what it
      // does to shared memory and barriers is not in the event list.
      if (def && def->getBody() && isDeviceFunction(def) && !def->hasAttr<CUDAGlobalAttr>() &&
          !ctx_.getSourceManager().isInSystemHeader(def->getLocation()))
        event(ProgramEvent::Kind::Opaque, -1, call->getBeginLoc());
      return valuesAfterCall(call, refs, nullptr);
    }
    Walker child(ctx_, def, out_, state_);
    child.guards_ = guards_;
    child.loopStack_ = loopStack_;
    child.region_ = region_;
    child.statement_ = statement_;
    child.callChain_ = callChain_;
    child.callChain_.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
    tr_.bindCallArguments(call, def, child.tr_);
    child.walkBody();
    out_.inlinedCallees.push_back(def);
    CalleeEnd end{def, &child.writes_, &child.values_.now(), !child.tr_.symbolicParams().empty()};
    return valuesAfterCall(call, refs, &end);
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
    describePointerParams(ctx_, fn_, k.params, &state_.parents);
    k.undefinedOverloads = findUndefinedOverloads(ctx_, fn_);
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
    checkDeadline(); // inlined callees and unrolled loops multiply statements
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      size_t guardsBefore = guards_.size();
      int savedStatement = statement_;
      for (const Stmt *child : cs->body()) {
        statement_ = ++state_.nextStatement;
        stmt(child);
        values_.afterStatement(child);
        // `if (cond) return;` guards everything after it in this block.
        if (auto *is = dyn_cast<IfStmt>(child))
          if (!is->getElse() && is->getThen() && exitsScope(is->getThen()) && is->getCond())
            guards_.push_back(IndexExpr::make(ExprOp::Not, {tr_.index(is->getCond())}));
      }
      guards_.resize(guardsBefore);
      statement_ = savedStatement;
      return;
    }
    if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d)) {
          declareArray(v);
          // The value from those before the initializer runs (a call in it
          // may change the locals it takes by reference).
          ExprRef value = !values_.tracked(v)                       ? nullptr
                          : v->getInit() && v->getType()->isPointerType() ? IndexExpr::constant(0) // from its initializer
                          : v->getInit()                                  ? tr_.index(v->getInit())
                                              : IndexExpr::unknown("'" + v->getNameAsString() + "' has no initializer");
          if (v->getInit())
            expr(v->getInit(), Use::Read);
          if (value)
            values_.assign(v, value);
        }
      return;
    }
    if (auto *is = dyn_cast<IfStmt>(s)) {
      if (is->getInit())
        stmt(is->getInit());
      if (!is->getCond())
        return;
      countOperation(1); // the branch
      expr(is->getCond(), Use::Read);
      ExprRef c = tr_.index(is->getCond());
      noteDataExit(is, c);
      auto before = values_.now();
      guards_.push_back(c);
      inNewRegion(is->getThen());
      auto afterThen = values_.now();
      values_.restore(before);
      guards_.back() = IndexExpr::make(ExprOp::Not, {c});
      inNewRegion(is->getElse());
      guards_.pop_back();
      // Straight-line code after the `if` sees the reaching values.
      values_.afterIf(c, afterThen, is->getThen() && exitsScope(is->getThen()),
                      is->getElse() && exitsScope(is->getElse()));
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
      values_.forgetWrittenIn(s, "is assigned in a switch");
      bool savedSwitch = inSwitch_;
      inSwitch_ = inSwitch_ || isa<SwitchStmt>(s);
      for (const Stmt *child : s->children())
        stmt(child);
      inSwitch_ = savedSwitch;
      values_.forgetWrittenIn(s, "is assigned in a switch");
      return;
    }
    if (auto *e = dyn_cast<Expr>(s)) {
      expr(e, Use::Read);
      return;
    }
    if (auto *as = dyn_cast<AsmStmt>(s)) {
      // Inline PTX `bar.sync` / `barrier.sync` is a barrier.
      std::string text = sourceText(ctx_, as->getSourceRange());
      if (text.find("bar.sync") != std::string::npos || text.find("barrier.sync") != std::string::npos ||
          text.find("bar.arrive") != std::string::npos || text.find("barrier.") != std::string::npos)
        event(ProgramEvent::Kind::Barrier, -1, as->getBeginLoc());
      return;
    }
    if (isa<CXXForRangeStmt>(s))
      return; // range-for over containers does not occur in kernels we model
    for (const Stmt *child : s->children())
      stmt(child);
  }

  // A statement whose accesses share no straight-line region with those
  // around it (a branch, a loop body): narrow-access siblings are grouped
  // only within one region.
  void inNewRegion(const Stmt *s) {
    int saved = region_, savedStatement = statement_;
    region_ = ++state_.nextRegion;
    statement_ = ++state_.nextStatement;
    stmt(s);
    region_ = saved;
    statement_ = savedStatement;
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
        recognized = parseLoopStep(fs->getInc(), var, tr_, *rec, [&](const VarDecl *v) {
          return inLoop.writes.lookup(v) > 0 || inCond.writes.lookup(v) > 0;
        });
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
        values_.enterLoopBody(fs, fs->getBody(), rec->loopId, nullptr, recognized ? var : nullptr);
    std::shared_ptr<LoopConditions> conditions = loopConditions(recognized ? rec : nullptr, carried);
    if (recognized) {
      values_.bindInduction(var, IndexExpr::loopVar(rec));
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
    std::shared_ptr<const LoopRecurrence> counted;
    if (recognized)
      counted = rec;
    else if (!carried.empty())
      counted = carried.front().beforeRec;
    enterLoop(li, ownedCounter(counted, conditions));
    if (fs->getCond())
      expr(fs->getCond(), Use::Read);
    if (condGuard)
      guards_.push_back(condGuard);
    bool savedSwitch = inSwitch_;
    inSwitch_ = false;
    inNewRegion(fs->getBody());
    inSwitch_ = savedSwitch;
    if (fs->getInc())
      expr(fs->getInc(), Use::Read);
    if (condGuard)
      guards_.pop_back();
    loopStack_.pop_back();
    values_.leaveLoop(fs, carried, recognized ? var : nullptr, recognized ? rec.get() : nullptr);
  }

  // `while (cond) body` and `do body while (cond)`: a variable the body
  // updates once per iteration by a step (`++k`, `k += 32`, `s >>= 1`) is
  // the loop's counter, its iterations those where the condition holds.
  void conditionLoop(const Stmt *loop, const Expr *cond, const Stmt *body, clang::SourceLocation at) {
    int loopId = state_.nextLoopId++;
    std::vector<CarriedVariable> carried = values_.enterLoopBody(loop, body, loopId, nullptr, nullptr);
    std::shared_ptr<LoopConditions> conditions = loopConditions(nullptr, carried);
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
    enterLoop(li, ownedCounter(carried.empty() ? nullptr : carried.front().beforeRec, conditions));
    if (cond)
      expr(cond, Use::Read);
    bool guarded = c && c->isKnown() && c->dependsOn(SymbolKind::ThreadIdx);
    if (guarded)
      guards_.push_back(c);
    bool savedSwitch = inSwitch_;
    inSwitch_ = false;
    inNewRegion(body);
    inSwitch_ = savedSwitch;
    if (guarded)
      guards_.pop_back();
    loopStack_.pop_back();
    values_.leaveLoop(loop, carried);
  }

  // The statement of an if's branch that leaves the loop around it: a
  // `return`, or a `break` that is not a switch's, alone or at the top level
  // of the branch's block (`if (x) { found = i; break; }`).
  static const Stmt *loopExitIn(const Stmt *s, bool breakLeavesLoop) {
    if (!s)
      return nullptr;
    if (isa<ReturnStmt>(s) || (breakLeavesLoop && isa<BreakStmt>(s)))
      return s;
    if (auto *cs = dyn_cast<CompoundStmt>(s))
      for (const Stmt *child : cs->body())
        if (const Stmt *e = loopExitIn(child, breakLeavesLoop))
          return e;
    return nullptr;
  }

  // An exit from the loops around an if whose condition the analyzer cannot
  // evaluate (data: `if (state < 0) break;`): those loops may stop before
  // their bound (ModeledKernel::loopDataExits).
  void noteDataExit(const IfStmt *is, const ExprRef &c) {
    if (!c || c->isKnown() || loopStack_.size() <= loopBase_)
      return;
    for (const Stmt *branch : {is->getThen(), is->getElse()}) {
      const Stmt *exit = loopExitIn(branch, !inSwitch_);
      if (!exit)
        continue;
      ModeledKernel::LoopDataExit e;
      e.kind = isa<ReturnStmt>(exit) ? "return" : "break";
      e.condition = sourceText(ctx_, is->getCond()->getSourceRange());
      e.why = c->firstUnknownReason();
      e.loc = toLocation(ctx_.getSourceManager(), exit->getBeginLoc());
      // A break leaves the innermost loop; a return every loop of its function.
      for (size_t i = e.kind == "return" ? loopBase_ : loopStack_.size() - 1; i < loopStack_.size(); ++i) {
        e.loop = loopStack_[i];
        out_.loopDataExits.push_back(e);
      }
    }
  }

  // A loop's facts and counter; its body runs inside it (loopStack_), and
  // each iteration costs a compare and a branch.
  void enterLoop(const LoopInfo &li, std::shared_ptr<const LoopRecurrence> counter) {
    out_.info.loops.push_back(li);
    out_.loopRecurrences.push_back(std::move(counter));
    loopStack_.push_back(static_cast<int>(out_.info.loops.size()) - 1);
    // A compare and a branch an iteration, but for the short constant loops
    // nvcc unrolls fully.
    if (!li.tripCount || *li.tripCount > 32)
      countOperation(2);
  }

  // Operations of the current loop nest, for the instruction estimate.
  void countOperation(int n, int sfu = 0, int fp64 = 0) {
    for (OperationCount &c : out_.operations)
      if (c.loops == loopStack_) {
        c.operations += n;
        c.sfuOperations += sfu;
        c.fp64Operations += fp64;
        return;
      }
    out_.operations.push_back({n, sfu, fp64, loopStack_});
  }

  // The expression node's instructions (OperationCost.h), in the current loop
  // nest; address arithmetic is not counted.
  void countExpression(const Expr *e) {
    if (inAddress_)
      return; // folded into the access's addressing or strength-reduced
    OperationCost c = operationCost(e);
    if (c.barrier)
      ++out_.barriers;
    if (c.operations)
      countOperation(c.operations, c.sfu, c.fp64);
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
    bool saved = inAddress_;
    inAddress_ = true;
    for (const Stmt *child : e->children())
      if (auto *ce = dyn_cast_or_null<Expr>(child))
        expr(ce, Use::None);
    inAddress_ = saved;
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
    // An index the analyzer cannot express is told apart by its text
    // (`c[p.x]` and `c[p.y]` are two reads).
    std::string key = f.base + "|" + (f.indexKnown ? f.indexText : f.text) + "|" + std::to_string(f.loc.line) + "|" +
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
    a.guarded.store = f.isWrite && !f.isRead && !atomic_;
    for (auto &g : guards_) {
      if (g->isKnown())
        a.guarded.guards.push_back(g);
      else
        a.unknownGuard = true;
    }
    a.region = region_;
    a.enclosingLoops = loopStack_;
    if (auto *v = dyn_cast_or_null<VarDecl>(ref.root); v && ref.space == AddressSpace::Constant) {
      auto *attr = v->getAttr<CUDAConstantAttr>();
      a.foldedConstant = v->isConstexpr() || (attr && attr->isImplicit());
    }
    a.isVolatile = target->getType().isVolatileQualified();
    a.atomic = atomic_;
    out_.accesses.push_back(std::move(a));
    event(ProgramEvent::Kind::Access, static_cast<int>(out_.accesses.size()) - 1, target->getBeginLoc());
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
    atomic_ = use == Use::ReadWrite;
    int64_t width = tr_.sizeOf(ptr->getType()->getPointeeType());
    // Reported at what is accessed: `in[i]` in `__ldg(&in[i])`.
    const Expr *shown = ptr->IgnoreParenImpCasts();
    if (auto *uo = dyn_cast<UnaryOperator>(shown); uo && uo->getOpcode() == UO_AddrOf)
      shown = uo->getSubExpr()->IgnoreParens();
    if (!ptr->containsErrors())
      if (auto ref = tr_.pointee(ptr))
        record(shown, *ref, use, width);
    atomic_ = false;
    addressOperands(ptr->IgnoreParenImpCasts());
    for (unsigned i = 1; i < call->getNumArgs(); ++i)
      expr(call->getArg(i), Use::Read);
    return true;
  }

  // Walks an expression, recording memory lvalues where they are read or written.
  void expr(const Expr *e, Use use) {
    // Clang's error recovery leaves expressions with no type at all (a
    // ParenListExpr in `int v = (a, b.size)` gone wrong): nothing to model,
    // and operationCost() dereferenced the null type (SIGSEGV; found by the
    // mutation fuzzer, tests/fuzz/regressions/).
    if (!e || e->getType().isNull())
      return;
    e = e->IgnoreParens();
    if (isa<LambdaExpr>(e))
      return;
    countExpression(e);
    if (auto *ice = dyn_cast<ImplicitCastExpr>(e); ice && ice->getCastKind() == CK_LValueToRValue) {
      // The value of an assignment or a prefix ++/-- (`int t = s[i] = v;`):
      // the store happens; walk it as one.
      const Expr *sub = ice->getSubExpr()->IgnoreParens();
      auto *assign = dyn_cast<BinaryOperator>(sub);
      auto *step = dyn_cast<UnaryOperator>(sub);
      if ((assign && assign->isAssignmentOp()) || (step && step->isIncrementDecrementOp())) {
        expr(sub, Use::Read);
        return;
      }
      access(ice->getSubExpr(), Use::Read);
      return;
    }
    if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->isAssignmentOp()) {
      ReachingValues::PendingWrite write = values_.writeOf(bo); // from the values before it
      access(bo->getLHS(), bo->getOpcode() == BO_Assign ? Use::Write : Use::ReadWrite);
      expr(bo->getRHS(), Use::Read);
      values_.commit(write);
      return;
    }
    if (auto *co = dyn_cast<ConditionalOperator>(e)) {
      expr(co->getCond(), Use::Read);
      values_.enterConditional(); // assignments in a branch happen on some paths only
      expr(co->getTrueExpr(), Use::Read);
      expr(co->getFalseExpr(), Use::Read);
      values_.leaveConditional();
      return;
    }
    if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->isLogicalOp()) {
      expr(bo->getLHS(), Use::Read);
      values_.enterConditional();
      expr(bo->getRHS(), Use::Read);
      values_.leaveConditional();
      return;
    }
    if (auto *uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->isIncrementDecrementOp()) {
        ReachingValues::PendingWrite write = values_.writeOf(uo);
        access(uo->getSubExpr(), Use::ReadWrite);
        values_.commit(write);
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
    if (auto *call = dyn_cast<CallExpr>(e))
      if (auto kind = synchronization(call))
        event(*kind, -1, call->getBeginLoc());
    if (auto *call = dyn_cast<CallExpr>(e); call && pointerArgumentAccess(call))
      return;
    if (auto *call = dyn_cast<CallExpr>(e)) {
      std::vector<LocalValue> left = inlineCall(call);
      operands(e); // its arguments, as reads
      for (const LocalValue &l : left)
        if (values_.tracked(l.local))
          values_.assign(l.local, l.value);
      return;
    }
    operands(e);
  }

  void event(ProgramEvent::Kind kind, int access, clang::SourceLocation at) {
    ProgramEvent ev;
    ev.kind = kind;
    ev.access = access;
    ev.statement = statement_;
    ev.loops = loopStack_;
    ev.loc = toLocation(ctx_.getSourceManager(), at);
    out_.events.push_back(std::move(ev));
  }

  // A barrier of the block (or grid), a warp's __syncwarp, or neither.
  // Cooperative groups: a group's sync() (member or cg::sync(g)) is a
  // barrier for a thread_block or grid_group, a warp sync for a tile or a
  // coalesced group.
  static std::optional<ProgramEvent::Kind> synchronization(const CallExpr *call) {
    const FunctionDecl *fd = call->getDirectCallee();
    if (!fd || !fd->getIdentifier())
      return std::nullopt;
    std::string name = fd->getName().str();
    if (name.rfind("__syncthreads", 0) == 0 || name == "__barrier_sync" || name == "__syncblock")
      return ProgramEvent::Kind::Barrier;
    if (name == "__syncwarp")
      return ProgramEvent::Kind::WarpSync;
    if (name != "sync" && name != "arrive_and_wait")
      return std::nullopt;
    QualType group;
    if (auto *mc = dyn_cast<CXXMemberCallExpr>(call))
      group = mc->getObjectType();
    else if (call->getNumArgs() == 1)
      group = call->getArg(0)->getType();
    else
      return std::nullopt;
    std::string type = group.getNonReferenceType().getUnqualifiedType().getAsString();
    if (type.find("tile") != std::string::npos || type.find("coalesced") != std::string::npos)
      return ProgramEvent::Kind::WarpSync;
    if (type.find("thread_block") != std::string::npos || type.find("grid_group") != std::string::npos ||
        type.find("barrier") != std::string::npos)
      return ProgramEvent::Kind::Barrier;
    return std::nullopt;
  }

  // The operands of `e` as reads; a class's assignment operator writes its left side.
  void operands(const Expr *e) {
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
  ReachingValues values_; // what the tracked locals hold at the current point
  ModeledKernel &out_;
  std::vector<ExprRef> guards_;
  std::vector<int> loopStack_; // the loops around the current point (indices into info.loops)
  size_t loopBase_ = 0;        // loops around this function's call (an inlined callee's return leaves none of them)
  bool inSwitch_ = false;      // inside a switch of the innermost loop: a `break` leaves the switch
  bool inAddress_ = false;     // walking an access's address operands (not counted as operations)
  int region_ = 0; // see ModeledAccess::region
  int statement_ = 0; // see ProgramEvent::statement
  bool atomic_ = false; // recording an atomic's access
  WalkState &state_;
  std::vector<SourceLocation> callChain_;
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
  // After the walk: where the index is not spelled W*E+k, the accesses'
  // modeled byte offsets prove (or not) the bytes a thread packs.
  m.info.bytePackWindows = findBytePackWindows(ctx, fn, m.accesses, &state.parents);
  m.info.privateMemory = std::make_shared<PrivateMemoryFacts>();
  m.info.privateMemory->arrays = describePrivateArrays(ctx, fn, &state.parents);
  for (auto &a : m.accesses)
    m.threadDims = std::max(m.threadDims, threadDimsOf(*a.guarded.byteOffset));
  return m;
}

} // namespace warplint
