// Finds the statements where each thread moves W = 16 or 4 consecutive bytes
// of a byte-typed pointer parameter one byte at a time (`out[W*i+k] =
// f(in[W*i+k])` for k = 0..W-1 in W consecutive statements, or a constant
// loop over k), the shape a uint4 or char4/uchar4 access replaces (G_2). See
// RewriteFacts.h. Statements whose index is spelled otherwise (`out[i]` ..
// `out[i + 3]` through a local, a grid-stride loop variable) are taken from
// the kernel model instead: its byte offsets, as polynomials, prove the
// bytes W*E+0..W-1 for every thread (BytePackingModel.h).
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/facts/BytePackingModel.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/model/OffsetPolynomial.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace warplint {

using namespace clang;

namespace {

bool isByteType(QualType t) {
  t = t.getCanonicalType().getUnqualifiedType();
  return t->isCharType() && !t->isBooleanType();
}

std::optional<int64_t> integer(const ASTContext &ctx, const Expr *e) {
  Expr::EvalResult r;
  if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx))
    return std::nullopt;
  return r.Val.getInt().getExtValue();
}

// `W * E + k`, `E * W + k`, `W * E` (k = 0): E and k, for a constant k in
// [0, W); with `loopVar`, k must be that variable (reported as -1).
bool splitIndex(const ASTContext &ctx, const Expr *idx, int64_t width, const VarDecl *loopVar, const Expr *&vec,
                int64_t &k) {
  idx = idx->IgnoreParenImpCasts();
  k = 0;
  if (auto *bo = dyn_cast<BinaryOperator>(idx); bo && bo->getOpcode() == BO_Add) {
    if (loopVar) {
      auto *dre = dyn_cast<DeclRefExpr>(bo->getRHS()->IgnoreParenImpCasts());
      if (!dre || dre->getDecl() != loopVar)
        return false;
      k = -1;
    } else {
      auto c = integer(ctx, bo->getRHS());
      if (!c)
        return false;
      k = *c;
    }
    idx = bo->getLHS()->IgnoreParenImpCasts();
  } else if (loopVar) {
    return false;
  }
  auto *mul = dyn_cast<BinaryOperator>(idx);
  if (!mul || mul->getOpcode() != BO_Mul)
    return false;
  if (integer(ctx, mul->getLHS()) == width)
    vec = mul->getRHS();
  else if (integer(ctx, mul->getRHS()) == width)
    vec = mul->getLHS();
  else
    return false;
  // -1 stands for the loop variable only with `loopVar`: a constant -1
  // (`in[4 * i + -1]`) is out of [0, W) like any other, and taking it for
  // the sentinel wrote byte slot -1 in window() (heap corruption, abort;
  // found by the mutation fuzzer, tests/fuzz/regressions/).
  return loopVar ? k == -1 : k >= 0 && k < width;
}

bool mentions(const Stmt *s, const VarDecl *v) {
  if (auto *dre = dyn_cast_or_null<DeclRefExpr>(s); dre && dre->getDecl() == v)
    return true;
  for (const Stmt *c : s ? s->children() : Stmt::const_child_range(Stmt::const_child_iterator(), Stmt::const_child_iterator()))
    if (c && mentions(c, v))
      return true;
  return false;
}

struct ByteAccess {
  const ArraySubscriptExpr *ase;
  const ParmVarDecl *param;
  const Expr *vec;
  int64_t k;
  bool write;
  bool other;   // neither a plain read nor the target of a plain assignment
  bool spelled; // the index is written W*E+k (vec and k are set)
};

class AccessFinder : public RecursiveASTVisitor<AccessFinder> {
public:
  AccessFinder(const ASTContext &ctx, const ParentMap &pm, const Stmt *stmt, int64_t width = 4,
               const VarDecl *loopVar = nullptr)
      : ctx_(ctx), pm_(pm), stmt_(stmt), width_(width), loopVar_(loopVar) {}
  std::vector<ByteAccess> found;
  std::vector<const DeclRefExpr *> assigned; // variables assigned in the statement
  bool globalWrite = false;                   // a write to memory that is not a byte access
  bool otherMemory = false;                   // an access to memory that is not a byte access
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ase) {
    auto *dre = dyn_cast<DeclRefExpr>(ase->getBase()->IgnoreParenImpCasts());
    auto *param = dre ? dyn_cast<ParmVarDecl>(dre->getDecl()) : nullptr;
    if (!param || !param->getType()->isPointerType() || !isByteType(param->getType()->getPointeeType())) {
      otherMemory = true;
      return true;
    }
    ByteAccess a{ase, param, nullptr, 0, false, false, false};
    a.spelled = splitIndex(ctx_, ase->getIdx(), width_, loopVar_, a.vec, a.k);
    const Stmt *p = pm_.getParentIgnoreParens(ase);
    if (auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_LValueToRValue) {
    } else if (auto *bo = dyn_cast_or_null<BinaryOperator>(p);
               bo && bo->getOpcode() == BO_Assign && bo->getLHS()->IgnoreParens() == ase && bo == stmt_) {
      a.write = true;
    } else {
      a.other = true;
    }
    found.push_back(a);
    return true;
  }
  // Memory read other than bytes of a byte-typed parameter: another
  // pointer's or array's element, `*p`, `p->f`. A store moved after the
  // statements could have changed what it reads.
  bool VisitUnaryOperator(UnaryOperator *uo) {
    if (uo->getOpcode() == UO_Deref)
      otherMemory = true;
    if (uo->isIncrementDecrementOp()) {
      if (auto *dre = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParenImpCasts()))
        assigned.push_back(dre);
      else
        globalWrite = true;
    }
    return true;
  }
  bool VisitMemberExpr(MemberExpr *me) {
    if (me->isArrow())
      otherMemory = true;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *bo) {
    if (bo->isAssignmentOp()) {
      const Expr *lhs = bo->getLHS()->IgnoreParens();
      if (auto *dre = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts()))
        assigned.push_back(dre);
      else if (bo != stmt_ || bo->getOpcode() != BO_Assign || !isByteParamElement(lhs))
        globalWrite = true; // memory the packed bytes might alias, or a byte read-modify-write
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *call) {
    // A callee handed a mutable pointer may write what the packed reads see.
    const FunctionDecl *fd = call->getDirectCallee();
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      QualType t = call->getArg(i)->getType();
      if (!t->isPointerType() || t->getPointeeType().isConstQualified())
        continue;
      if (!fd || i >= fd->getNumParams() || !fd->getParamDecl(i)->getType()->isPointerType() ||
          !fd->getParamDecl(i)->getType()->getPointeeType().isConstQualified())
        globalWrite = true;
    }
    return true;
  }

  static bool isByteParamElement(const Expr *e) {
    auto *ase = dyn_cast<ArraySubscriptExpr>(e);
    auto *dre = ase ? dyn_cast<DeclRefExpr>(ase->getBase()->IgnoreParenImpCasts()) : nullptr;
    auto *param = dre ? dyn_cast<ParmVarDecl>(dre->getDecl()) : nullptr;
    return param && param->getType()->isPointerType() && isByteType(param->getType()->getPointeeType());
  }

private:
  const ASTContext &ctx_;
  const ParentMap &pm_;
  const Stmt *stmt_;
  int64_t width_;
  const VarDecl *loopVar_;
};

class WindowFinder : public RecursiveASTVisitor<WindowFinder> {
public:
  WindowFinder(ASTContext &ctx, const FunctionDecl *fn, const std::vector<ModeledAccess> *model,
               BodyParents &parents)
      : ctx_(ctx), fn_(fn), pm_(parents.of(fn->getBody())), model_(model) {}
  std::vector<BytePackWindow> windows;

  bool VisitCompoundStmt(CompoundStmt *cs) {
    std::vector<const Stmt *> body(cs->body_begin(), cs->body_end());
    for (size_t i = 0; i < body.size(); ++i)
      for (int64_t width : {16, 4}) // the wider window first
        if (i + width <= body.size() && window(body, i, width)) {
          i += width - 1;
          break;
        }
    return true;
  }

  bool VisitForStmt(ForStmt *fs) {
    loop(fs);
    return true;
  }

private:
  // What the statements of a candidate window hold.
  struct Statements {
    std::vector<ByteAccess> all;
    std::vector<const DeclRefExpr *> assigned; // variables assigned in them
    bool otherWrite = false;                   // a write to other memory
    bool otherMemory = false;                  // an access to other memory
  };

  static bool containsJump(const Stmt *s) {
    if (!s)
      return false;
    if (isa<BreakStmt>(s) || isa<ContinueStmt>(s) || isa<ReturnStmt>(s) || isa<GotoStmt>(s))
      return true;
    for (const Stmt *c : s->children())
      if (containsJump(c))
        return true;
    return false;
  }

  // `for (int k = 0; k < W; ++k) body`, W = 4 or 16, whose body reads and/or
  // writes bytes P[W*E + k]: packed without unrolling, through a byte view of
  // one vector.
  void loop(const ForStmt *fs) {
    auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit());
    auto *var = ds && ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
    if (!var || !var->getInit() || integer(ctx_, var->getInit()) != 0 || !fs->getCond() || !fs->getInc())
      return;
    auto *cond = dyn_cast<BinaryOperator>(fs->getCond()->IgnoreParenImpCasts());
    if (!cond || cond->getOpcode() != BO_LT || !mentions(cond->getLHS(), var))
      return;
    auto width = integer(ctx_, cond->getRHS());
    if (!width || (*width != 4 && *width != 16))
      return;
    const Expr *inc = fs->getInc()->IgnoreParens();
    bool stepOne = false;
    if (auto *uo = dyn_cast<UnaryOperator>(inc))
      stepOne = uo->isIncrementOp() && mentions(uo->getSubExpr(), var);
    else if (auto *bo = dyn_cast<BinaryOperator>(inc))
      stepOne = bo->getOpcode() == BO_AddAssign && mentions(bo->getLHS(), var) && integer(ctx_, bo->getRHS()) == 1;
    if (!stepOne)
      return;
    std::vector<const Stmt *> stmts;
    if (auto *cs = dyn_cast<CompoundStmt>(fs->getBody()))
      stmts.assign(cs->body_begin(), cs->body_end());
    else
      stmts.push_back(fs->getBody());
    std::vector<ByteAccess> all;
    std::string unsafe;
    Statements body;
    for (const Stmt *st : stmts) {
      const Stmt *top = st;
      if (auto *ewc = dyn_cast<ExprWithCleanups>(top))
        top = ewc->getSubExpr();
      AccessFinder f(ctx_, pm_, top, *width, var);
      f.TraverseStmt(const_cast<Stmt *>(st));
      all.insert(all.end(), f.found.begin(), f.found.end());
      body.assigned.insert(body.assigned.end(), f.assigned.begin(), f.assigned.end());
      body.otherMemory = body.otherMemory || f.otherMemory;
      for (const DeclRefExpr *dre : f.assigned)
        if (dre->getDecl() == var)
          unsafe = "the loop variable changes inside the loop";
      if (f.globalWrite)
        unsafe = "the loop also writes other memory";
      if (containsJump(st))
        unsafe = "the loop may leave early (break, continue, return or goto)";
    }
    if (all.empty())
      return;
    body.all = all;
    const std::string bodyUnsafe = unsafe;
    BytePackWindow w;
    w.width = *width;
    w.loopVar = var->getNameAsString();
    std::map<const ParmVarDecl *, BytePackWindow::Group> groups;
    for (const ByteAccess &a : all) {
      if (a.other || !a.spelled) {
        unsafe = "'" + text(a.ase) + "' is not a plain read or a plain assignment of " + std::to_string(*width) +
                 "*E+" + w.loopVar;
        continue;
      }
      std::string v = text(a.vec);
      if (w.vectorIndex.empty())
        w.vectorIndex = v;
      if (v != w.vectorIndex || mentions(a.vec, var))
        unsafe = "the bytes are not indexed from one expression that stays fixed in the loop";
      BytePackWindow::Group &g = groups[a.param];
      g.pointer = a.param->getNameAsString();
      g.paramIndex = a.param->getFunctionScopeIndex();
      g.elementType = a.param->getType()->getPointeeType().getUnqualifiedType().getAsString();
      SourceSpan span = fileSpan(ctx_, CharSourceRange::getTokenRange(a.ase->getSourceRange()));
      if (!span.valid())
        unsafe = "an access is written inside a macro";
      (a.write ? g.writes : g.reads) = true;
      (a.write ? g.writeSpans : g.readSpans).push_back(span);
      if (!g.loc.valid())
        g.loc = toLocation(ctx_.getSourceManager(), a.ase->getBeginLoc());
    }
    for (auto &[param, g] : groups)
      w.groups.push_back(g);
    std::optional<BytePackWindow> spelled;
    if (!w.groups.empty()) { // else only accesses that are not plain W*E+k
      std::sort(w.groups.begin(), w.groups.end(),
                [](const BytePackWindow::Group &a, const BytePackWindow::Group &b) { return a.paramIndex < b.paramIndex; });
      w.unsafeReason = unsafe;
      placeEdits(fs, fs->getBody(), w);
      spelled = w;
    }
    if (model_ && (!spelled || !spelled->unsafeReason.empty())) {
      if (std::optional<BytePackWindow> proven = modelLoop(fs, var, *width, body, bodyUnsafe)) {
        placeEdits(fs, fs->getBody(), *proven);
        if (proven->unsafeReason.empty() || !spelled) {
          windows.push_back(*proven);
          return;
        }
      }
    }
    if (spelled)
      windows.push_back(*spelled);
  }

  // The loop form as the model proves it: every access is P[X + k] (or
  // P[k + X]) with one X, and the model's offset of each is Q + k, k the
  // loop's iteration, with Q the same for each pointer, a multiple of width
  // for every thread and moving by width from lane to lane. nullopt where
  // that is not proven; a window with a reason where the loop cannot be
  // packed as it is.
  std::optional<BytePackWindow> modelLoop(const ForStmt *fs, const VarDecl *var, int64_t width,
                                          const Statements &body, const std::string &bodyUnsafe) {
    auto isVar = [&](const Expr *e) {
      auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return dre && dre->getDecl() == var;
    };
    BytePackWindow w;
    w.width = width;
    w.loopVar = var->getNameAsString();
    std::map<const ParmVarDecl *, BytePackWindow::Group> groups;
    std::map<const ParmVarDecl *, OffsetPolynomial> bases;
    const Expr *index = nullptr;
    std::string indexKey;
    for (const ByteAccess &a : body.all) {
      if (a.other)
        return std::nullopt;
      auto *add = dyn_cast<BinaryOperator>(a.ase->getIdx()->IgnoreParenImpCasts());
      if (!add || add->getOpcode() != BO_Add)
        return std::nullopt;
      const Expr *x = isVar(add->getRHS()) ? add->getLHS() : isVar(add->getLHS()) ? add->getRHS() : nullptr;
      if (!x || mentions(x, var))
        return std::nullopt;
      std::string key = squeezed(text(x));
      if (!index) {
        index = x;
        indexKey = key;
      } else if (key != indexKey) {
        return std::nullopt;
      }
      const ModeledAccess *m = modeledByte(a);
      auto p = m ? offsetPolynomial(*m->guarded.byteOffset) : std::nullopt;
      if (!p)
        return std::nullopt;
      // This loop in the model: its variable counts 0, 1, ... by +1.
      std::vector<std::shared_ptr<const LoopRecurrence>> loops;
      m->guarded.byteOffset->collectLoops(loops);
      std::string atom;
      for (const auto &rec : loops) {
        bool counts = rec->var == w.loopVar && rec->init->op == ExprOp::Const && rec->init->value == 0 &&
                      rec->stepOp == ExprOp::Add && rec->step->op == ExprOp::Const && rec->step->value == 1;
        if (counts && !atom.empty())
          return std::nullopt;
        if (counts)
          atom = loopIterationAtom(rec->loopId);
      }
      auto own = p->terms.find({atom});
      if (atom.empty() || own == p->terms.end() || own->second != 1)
        return std::nullopt;
      p->terms.erase(own);
      for (const auto &[monomial, c] : p->terms)
        if (std::find(monomial.begin(), monomial.end(), atom) != monomial.end())
          return std::nullopt;
      auto [base, fresh] = bases.emplace(a.param, *p);
      if (!fresh) {
        auto d = difference(*p, base->second);
        if (!d || d->constant() != 0)
          return std::nullopt;
      }
      BytePackWindow::Group &g = groups[a.param];
      g.pointer = a.param->getNameAsString();
      g.paramIndex = a.param->getFunctionScopeIndex();
      g.elementType = a.param->getType()->getPointeeType().getUnqualifiedType().getAsString();
      SourceSpan span = fileSpan(ctx_, CharSourceRange::getTokenRange(a.ase->getSourceRange()));
      if (!span.valid())
        return std::nullopt;
      (a.write ? g.writes : g.reads) = true;
      (a.write ? g.writeSpans : g.readSpans).push_back(span);
      if (!g.loc.valid())
        g.loc = toLocation(ctx_.getSourceManager(), a.ase->getBeginLoc());
    }
    for (auto &[param, q] : bases) {
      if (pointerChanges(param))
        return std::nullopt;
      auto lane = q.laneCoefficient();
      if (!q.divisibleBy(width) || !lane || std::llabs(*lane) != width)
        return std::nullopt;
    }
    if (!index || index->HasSideEffects(ctx_))
      return std::nullopt;
    std::set<const ValueDecl *> reads;
    if (!declsRead(index, fs, reads))
      return std::nullopt;
    for (auto &[param, g] : groups)
      w.groups.push_back(g);
    std::sort(w.groups.begin(), w.groups.end(),
              [](const BytePackWindow::Group &a, const BytePackWindow::Group &b) { return a.paramIndex < b.paramIndex; });
    std::string unsafe = bodyUnsafe;
    for (const DeclRefExpr *dre : body.assigned) {
      if (reads.count(dre->getDecl()))
        unsafe = "'" + dre->getDecl()->getNameAsString() + "' changes inside the loop";
      if (dre->getDecl()->getType()->isReferenceType())
        unsafe = "'" + dre->getDecl()->getNameAsString() + "', a reference, changes inside the loop";
    }
    bool writes = std::any_of(w.groups.begin(), w.groups.end(), [](const auto &g) { return g.writes; });
    if (writes && body.otherMemory)
      unsafe = "the loop also reads memory other than the packed bytes, which the stores moved after it could change";
    if (!bodyUnsafe.empty())
      unsafe = bodyUnsafe;
    std::string i = text(index);
    bool simple = isa<DeclRefExpr>(index->IgnoreParenImpCasts()) || isa<IntegerLiteral>(index->IgnoreParenImpCasts());
    w.vectorIndex = (simple ? i : "(" + i + ")") + " / " + std::to_string(width);
    w.unsafeReason = unsafe;
    return w;
  }

  std::string text(const Expr *e) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), ctx_.getSourceManager(),
                                ctx_.getLangOpts())
        .str();
  }

  // `width` consecutive statements from body[first] moving bytes width*E+k,
  // k = 0..width-1 (width = 16 or 4): spelled so, or proven by the model.
  bool window(const std::vector<const Stmt *> &body, size_t first, int64_t width) {
    Statements st;
    for (size_t s = first; s < first + width; ++s) {
      const Stmt *stmt = body[s];
      if (auto *ewc = dyn_cast<ExprWithCleanups>(stmt))
        stmt = ewc->getSubExpr();
      AccessFinder f(ctx_, pm_, stmt, width);
      f.TraverseStmt(const_cast<Stmt *>(body[s]));
      if (f.found.empty())
        return false; // every statement of the window moves some of the bytes
      st.all.insert(st.all.end(), f.found.begin(), f.found.end());
      st.assigned.insert(st.assigned.end(), f.assigned.begin(), f.assigned.end());
      st.otherWrite = st.otherWrite || f.globalWrite;
      st.otherMemory = st.otherMemory || f.otherMemory;
    }
    std::optional<BytePackWindow> spelled = spelledWindow(st, width);
    if (spelled)
      placeEdits(body[first], body[first + width - 1], *spelled);
    // The model speaks where the spelling does not prove a safe packing; a
    // refusal of its own only where the spelling found no window at all.
    if (model_ && (!spelled || !spelled->unsafeReason.empty())) {
      if (std::optional<BytePackWindow> proven = modelWindow(body[first], st, width)) {
        placeEdits(body[first], body[first + width - 1], *proven);
        if (proven->unsafeReason.empty() || !spelled) {
          windows.push_back(*proven);
          return true;
        }
      }
    }
    if (!spelled)
      return false;
    windows.push_back(*spelled);
    return true;
  }

  // The window as spelled: every access p[width*E+k] with one E.
  std::optional<BytePackWindow> spelledWindow(const Statements &st, int64_t width) {
    // Per pointer and direction (reads, then writes): which of bytes
    // 0..width-1 are touched, at which index.
    std::map<const ParmVarDecl *, std::vector<const ArraySubscriptExpr *>> slots;
    std::string vecText;
    std::string unsafe;
    const std::string widthText = std::to_string(width);
    for (const ByteAccess &a : st.all) {
      if (a.other || !a.spelled) {
        unsafe = "'" + text(a.ase) + "' is not a plain read or a plain assignment of " + widthText + "*E+k";
        continue;
      }
      std::string v = text(a.vec);
      if (vecText.empty())
        vecText = v;
      if (v != vecText) {
        unsafe = "the bytes are indexed from different expressions ('" + vecText + "' and '" + v + "')";
        continue;
      }
      auto &perParam = slots[a.param];
      perParam.resize(2 * width, nullptr);
      auto &slot = perParam[(a.write ? width : 0) + a.k];
      if (slot)
        unsafe = "byte " + std::to_string(a.k) + " of '" + a.param->getNameAsString() + "' is " +
                 (a.write ? "written" : "read") + " twice";
      slot = a.ase;
    }
    if (vecText.empty())
      return std::nullopt;
    BytePackWindow w;
    w.width = width;
    w.vectorIndex = vecText;
    for (auto &[param, slot] : slots)
      if (auto g = group(param, slot, width, unsafe))
        w.groups.push_back(*g);
    if (w.groups.empty())
      return std::nullopt;
    std::sort(w.groups.begin(), w.groups.end(),
              [](const BytePackWindow::Group &a, const BytePackWindow::Group &b) { return a.paramIndex < b.paramIndex; });
    // The index must mean the same in all the statements.
    for (const DeclRefExpr *dre : st.assigned)
      if (vecText.find(dre->getDecl()->getNameAsString()) != std::string::npos)
        unsafe = "'" + dre->getDecl()->getNameAsString() + "' changes between the accesses";
    if (st.otherWrite)
      unsafe = "the statements also write other memory";
    w.unsafeReason = unsafe;
    return w;
  }

  // The group of `param` from its byte slots (reads 0..width-1, then writes);
  // nullopt when it moves none, and a reason in `unsafe` when it moves some
  // but not all of one direction's bytes.
  std::optional<BytePackWindow::Group> group(const ParmVarDecl *param,
                                             const std::vector<const ArraySubscriptExpr *> &slot, int64_t width,
                                             std::string &unsafe) {
    BytePackWindow::Group g;
    g.pointer = param->getNameAsString();
    g.paramIndex = param->getFunctionScopeIndex();
    g.elementType = param->getType()->getPointeeType().getUnqualifiedType().getAsString();
    for (int dir = 0; dir < 2; ++dir) {
      int count = 0;
      for (int64_t k = 0; k < width; ++k)
        count += slot[dir * width + k] != nullptr;
      if (count == 0)
        continue;
      if (count != width) {
        unsafe = "only " + std::to_string(count) + " of the " + std::to_string(width) + " bytes of '" + g.pointer +
                 "' are " + (dir ? "written" : "read");
        continue;
      }
      (dir ? g.writes : g.reads) = true;
      for (int64_t k = 0; k < width; ++k) {
        SourceSpan span = fileSpan(ctx_, CharSourceRange::getTokenRange(slot[dir * width + k]->getSourceRange()));
        if (!span.valid())
          unsafe = "an access is written inside a macro";
        (dir ? g.writeSpans : g.readSpans).push_back(span);
      }
      if (!g.loc.valid())
        g.loc = toLocation(ctx_.getSourceManager(), slot[dir * width]->getBeginLoc());
    }
    if (!g.reads && !g.writes)
      return std::nullopt;
    return g;
  }

  // The window as the model proves it, whatever the spelling: for each
  // pointer, the accesses' byte offsets differ by the constants 0..width-1
  // (each once a direction), the lowest is a multiple of width for every
  // thread and moves by width from one lane to the next (E warp-linear), and
  // the lowest is written with one index I shared by every pointer, so that
  // the vector index is I / width, exact. nullopt where the model does not
  // prove that (the spelled window's verdict, if any, stands); a window with
  // a reason where the bytes are proven but the statements cannot be packed.
  std::optional<BytePackWindow> modelWindow(const Stmt *firstStmt, const Statements &st, int64_t width) {
    std::map<const ParmVarDecl *, std::vector<std::pair<const ByteAccess *, OffsetPolynomial>>> byParam;
    for (const ByteAccess &a : st.all) {
      if (a.other)
        return std::nullopt;
      const ModeledAccess *m = modeledByte(a);
      auto p = m ? offsetPolynomial(*m->guarded.byteOffset) : std::nullopt;
      if (!p)
        return std::nullopt;
      byParam[a.param].push_back({&a, *p});
    }
    BytePackWindow w;
    w.width = width;
    std::string unsafe;
    const Expr *index = nullptr;
    std::string indexKey;
    for (auto &[param, placed] : byParam) {
      if (pointerChanges(param))
        return std::nullopt; // the offsets are from its value at entry, the index from its value here
      std::vector<int64_t> distance;
      for (auto &[a, p] : placed) {
        auto d = difference(p, placed.front().second);
        auto c = d ? d->constant() : std::nullopt;
        if (!c)
          return std::nullopt;
        distance.push_back(*c);
      }
      size_t low = std::min_element(distance.begin(), distance.end()) - distance.begin();
      const OffsetPolynomial &base = placed[low].second;
      auto lane = base.laneCoefficient();
      if (!base.divisibleBy(width) || !lane || std::llabs(*lane) != width)
        return std::nullopt;
      std::vector<const ArraySubscriptExpr *> slot(2 * width, nullptr);
      std::vector<const ByteAccess *> firstBytes;
      for (size_t i = 0; i < placed.size(); ++i) {
        int64_t k = distance[i] - distance[low];
        const ByteAccess &a = *placed[i].first;
        auto &s = slot[(a.write ? width : 0) + k];
        if (k >= width || s)
          return std::nullopt;
        s = a.ase;
        if (k == 0)
          firstBytes.push_back(&a);
      }
      std::string partial;
      auto g = group(param, slot, width, partial);
      if (!g || !partial.empty())
        return std::nullopt; // not all of one direction's bytes, or in a macro
      for (const ByteAccess *a : firstBytes) {
        std::string key = squeezed(text(a->ase->getIdx()));
        if (!index) {
          index = a->ase->getIdx();
          indexKey = key;
        } else if (key != indexKey) {
          return std::nullopt;
        }
      }
      w.groups.push_back(*g);
    }
    if (!index || index->HasSideEffects(ctx_))
      return std::nullopt;
    // I is evaluated before the first statement and after the last: every
    // variable it reads must exist there and keep its value in between.
    std::set<const ValueDecl *> reads;
    if (!declsRead(index, firstStmt, reads))
      return std::nullopt;
    for (const DeclRefExpr *dre : st.assigned) {
      if (reads.count(dre->getDecl()))
        unsafe = "'" + dre->getDecl()->getNameAsString() + "' changes between the accesses";
      if (dre->getDecl()->getType()->isReferenceType())
        unsafe = "'" + dre->getDecl()->getNameAsString() + "', a reference, changes between the accesses";
    }
    bool writes = std::any_of(w.groups.begin(), w.groups.end(), [](const auto &g) { return g.writes; });
    if (writes && st.otherMemory)
      unsafe = "the statements also read memory other than the packed bytes, which the stores moved after them "
               "could change";
    if (st.otherWrite)
      unsafe = "the statements also write other memory";
    std::sort(w.groups.begin(), w.groups.end(),
              [](const BytePackWindow::Group &a, const BytePackWindow::Group &b) { return a.paramIndex < b.paramIndex; });
    std::string i = text(index);
    bool simple = isa<DeclRefExpr>(index->IgnoreParenImpCasts()) || isa<IntegerLiteral>(index->IgnoreParenImpCasts());
    w.vectorIndex = (simple ? i : "(" + i + ")") + " / " + std::to_string(width);
    w.unsafeReason = unsafe;
    return w;
  }

  static std::string squeezed(std::string t) {
    t.erase(std::remove_if(t.begin(), t.end(), [](unsigned char c) { return std::isspace(c); }), t.end());
    return t;
  }

  // The variables `e` reads, each declared before `at`; false when one is
  // declared later or `e` reads something other than variables, constants
  // and operators.
  bool declsRead(const Stmt *e, const Stmt *at, std::set<const ValueDecl *> &out) {
    if (!e)
      return true;
    if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
      const ValueDecl *d = dre->getDecl();
      if (isa<EnumConstantDecl>(d))
        return true;
      auto *v = dyn_cast<VarDecl>(d);
      if (!v)
        return false;
      if (!isa<ParmVarDecl>(v) && v->isLocalVarDecl() &&
          !ctx_.getSourceManager().isBeforeInTranslationUnit(v->getLocation(), at->getBeginLoc()))
        return false;
      out.insert(v);
      return true;
    }
    if (isa<CallExpr>(e) || isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) || isa<LambdaExpr>(e))
      return false;
    for (const Stmt *c : e->children())
      if (!declsRead(c, at, out))
        return false;
    return true;
  }

  // Whether the kernel assigns `p` or takes its address anywhere.
  bool pointerChanges(const ParmVarDecl *p) {
    auto it = pointerChanges_.find(p);
    if (it != pointerChanges_.end())
      return it->second;
    struct Finder : RecursiveASTVisitor<Finder> {
      const ParmVarDecl *p;
      bool found = false;
      bool names(const Expr *e) {
        auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
        return dre && dre->getDecl() == p;
      }
      bool VisitBinaryOperator(BinaryOperator *bo) {
        found = found || (bo->isAssignmentOp() && names(bo->getLHS()));
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *uo) {
        found = found || ((uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf) && names(uo->getSubExpr()));
        return true;
      }
    } f;
    f.p = p;
    f.TraverseStmt(fn_->getBody());
    return pointerChanges_[p] = f.found;
  }

  // The model's access for the byte access `a` of the kernel's own body.
  const ModeledAccess *modeled(const ByteAccess &a) {
    if (modeledAt_.empty())
      for (const ModeledAccess &m : *model_)
        if (m.fact.callChain.empty())
          modeledAt_.emplace(locationKey(m.fact.loc, m.fact.isWrite), &m);
    SourceLocation loc = toLocation(ctx_.getSourceManager(), a.ase->getBeginLoc());
    auto range = modeledAt_.equal_range(locationKey(loc, a.write));
    const ModeledAccess *found = nullptr;
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second->fact.base != a.param->getNameAsString() || found)
        return nullptr; // another access starts here too: not told apart
      found = it->second;
    }
    return found;
  }

  // The model's access for `a` when it is a one-byte global access whose
  // address the model knows: what a window proven from the model needs.
  const ModeledAccess *modeledByte(const ByteAccess &a) {
    const ModeledAccess *m = modeled(a);
    if (!m || !m->fact.indexKnown || m->fact.space != AddressSpace::Global || m->fact.widthBytes != 1)
      return nullptr;
    return m;
  }

  static std::string locationKey(const SourceLocation &l, bool write) {
    return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column) + (write ? "w" : "r");
  }

  void placeEdits(const Stmt *firstStmt, const Stmt *lastStmt, BytePackWindow &w) {
    const SourceManager &sm = ctx_.getSourceManager();
    clang::SourceLocation begin = firstStmt->getBeginLoc();
    clang::SourceLocation end = lastStmt->getEndLoc();
    if (begin.isMacroID() || end.isMacroID()) {
      w.unsafeReason = "the statements come from a macro";
      return;
    }
    w.before = fileSpan(ctx_, CharSourceRange::getCharRange(begin, begin));
    clang::SourceLocation past = isa<Expr>(lastStmt) || isa<ReturnStmt>(lastStmt)
                                     ? Lexer::findLocationAfterToken(end, tok::semi, sm, ctx_.getLangOpts(), false)
                                     : Lexer::getLocForEndOfToken(end, 0, sm, ctx_.getLangOpts());
    if (past.isValid())
      w.after = fileSpan(ctx_, CharSourceRange::getCharRange(past, past));
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(sm.getFileID(begin), &invalid);
    unsigned offset = sm.getFileOffset(begin);
    unsigned lineStart = offset;
    while (!invalid && lineStart > 0 && buffer[lineStart - 1] != '\n')
      --lineStart;
    w.indent = invalid ? "" : buffer.substr(lineStart, offset - lineStart).str();
    if (w.indent.find_first_not_of(" \t") != std::string::npos)
      w.unsafeReason = "the first statement does not start its line";
    if (!w.before.valid() || !w.after.valid())
      w.unsafeReason = "the statements' edges are not plain file text";
  }

  ASTContext &ctx_;
  const FunctionDecl *fn_;
  const ParentMap &pm_;
  const std::vector<ModeledAccess> *model_; // null: the spelled windows only
  std::multimap<std::string, const ModeledAccess *> modeledAt_;
  std::map<const ParmVarDecl *, bool> pointerChanges_;
};

} // namespace

static std::vector<BytePackWindow> windowsOf(ASTContext &ctx, const FunctionDecl *fn,
                                             const std::vector<ModeledAccess> *model, BodyParents *parents) {
  if (!fn->getBody() || !fn->hasAttr<CUDAGlobalAttr>())
    return {};
  BodyParents own;
  WindowFinder f(ctx, fn, model, parents ? *parents : own);
  f.TraverseStmt(fn->getBody());
  return f.windows;
}

std::vector<BytePackWindow> findBytePackWindows(ASTContext &ctx, const FunctionDecl *fn) {
  return windowsOf(ctx, fn, nullptr, nullptr);
}

std::vector<BytePackWindow> findBytePackWindows(ASTContext &ctx, const FunctionDecl *fn,
                                                const std::vector<ModeledAccess> &model, BodyParents *parents) {
  return windowsOf(ctx, fn, &model, parents);
}

} // namespace warplint
