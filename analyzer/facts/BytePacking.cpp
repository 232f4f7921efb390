// Finds the statements where each thread moves W = 16 or 4 consecutive bytes
// of a byte-typed pointer parameter one byte at a time (`out[W*i+k] =
// f(in[W*i+k])` for k = 0..W-1 in W consecutive statements, or a constant
// loop over k), the shape a uint4 or char4/uchar4 access replaces (G_2). See
// RewriteFacts.h.
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>

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
  bool other; // neither a plain read nor the target of a plain assignment
};

class AccessFinder : public RecursiveASTVisitor<AccessFinder> {
public:
  AccessFinder(const ASTContext &ctx, const ParentMap &pm, const Stmt *stmt, int64_t width = 4,
               const VarDecl *loopVar = nullptr)
      : ctx_(ctx), pm_(pm), stmt_(stmt), width_(width), loopVar_(loopVar) {}
  std::vector<ByteAccess> found;
  std::vector<const DeclRefExpr *> assigned; // variables assigned in the statement
  bool globalWrite = false;                   // a write to memory that is not a byte access
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ase) {
    auto *dre = dyn_cast<DeclRefExpr>(ase->getBase()->IgnoreParenImpCasts());
    auto *param = dre ? dyn_cast<ParmVarDecl>(dre->getDecl()) : nullptr;
    if (!param || !param->getType()->isPointerType() || !isByteType(param->getType()->getPointeeType()))
      return true;
    ByteAccess a{ase, param, nullptr, 0, false, false};
    if (!splitIndex(ctx_, ase->getIdx(), width_, loopVar_, a.vec, a.k)) {
      a.other = true;
    } else {
      const Stmt *p = pm_.getParentIgnoreParens(ase);
      if (auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_LValueToRValue) {
      } else if (auto *bo = dyn_cast_or_null<BinaryOperator>(p);
                 bo && bo->getOpcode() == BO_Assign && bo->getLHS()->IgnoreParens() == ase && bo == stmt_) {
        a.write = true;
      } else {
        a.other = true;
      }
    }
    found.push_back(a);
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
  bool VisitUnaryOperator(UnaryOperator *uo) {
    if (uo->isIncrementDecrementOp()) {
      if (auto *dre = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParenImpCasts()))
        assigned.push_back(dre);
      else
        globalWrite = true;
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
  WindowFinder(ASTContext &ctx, const FunctionDecl *fn) : ctx_(ctx), fn_(fn), pm_(fn->getBody()) {}
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
    for (const Stmt *st : stmts) {
      const Stmt *top = st;
      if (auto *ewc = dyn_cast<ExprWithCleanups>(top))
        top = ewc->getSubExpr();
      AccessFinder f(ctx_, pm_, top, *width, var);
      f.TraverseStmt(const_cast<Stmt *>(st));
      all.insert(all.end(), f.found.begin(), f.found.end());
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
    BytePackWindow w;
    w.width = *width;
    w.loopVar = var->getNameAsString();
    std::map<const ParmVarDecl *, BytePackWindow::Group> groups;
    for (const ByteAccess &a : all) {
      if (a.other) {
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
    if (w.groups.empty()) // only accesses that are not plain: nothing to pack
      return;
    std::sort(w.groups.begin(), w.groups.end(),
              [](const BytePackWindow::Group &a, const BytePackWindow::Group &b) { return a.paramIndex < b.paramIndex; });
    w.unsafeReason = unsafe;
    placeEdits(fs, fs->getBody(), w);
    windows.push_back(w);
  }

  std::string text(const Expr *e) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), ctx_.getSourceManager(),
                                ctx_.getLangOpts())
        .str();
  }

  // `width` consecutive statements from body[first] moving bytes width*E+k,
  // k = 0..width-1 (width = 16 or 4).
  bool window(const std::vector<const Stmt *> &body, size_t first, int64_t width) {
    std::vector<ByteAccess> all;
    std::vector<const DeclRefExpr *> assigned;
    bool otherWrite = false;
    for (size_t s = first; s < first + width; ++s) {
      const Stmt *stmt = body[s];
      if (auto *ewc = dyn_cast<ExprWithCleanups>(stmt))
        stmt = ewc->getSubExpr();
      AccessFinder f(ctx_, pm_, stmt, width);
      f.TraverseStmt(const_cast<Stmt *>(body[s]));
      if (f.found.empty())
        return false; // every statement of the window moves some of the bytes
      all.insert(all.end(), f.found.begin(), f.found.end());
      assigned.insert(assigned.end(), f.assigned.begin(), f.assigned.end());
      otherWrite = otherWrite || f.globalWrite;
    }
    // Per pointer and direction (reads, then writes): which of bytes
    // 0..width-1 are touched, at which index.
    std::map<const ParmVarDecl *, std::vector<const ArraySubscriptExpr *>> slots;
    std::string vecText;
    std::string unsafe;
    const std::string widthText = std::to_string(width);
    for (const ByteAccess &a : all) {
      if (a.other) {
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
      return false;
    BytePackWindow w;
    w.width = width;
    w.vectorIndex = vecText;
    for (auto &[param, slot] : slots) {
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
          unsafe = "only " + std::to_string(count) + " of the " + widthText + " bytes of '" + g.pointer + "' are " +
                   (dir ? "written" : "read");
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
      if (g.reads || g.writes)
        w.groups.push_back(g);
    }
    if (w.groups.empty())
      return false;
    std::sort(w.groups.begin(), w.groups.end(),
              [](const BytePackWindow::Group &a, const BytePackWindow::Group &b) { return a.paramIndex < b.paramIndex; });
    // The index must mean the same in all the statements.
    for (const DeclRefExpr *dre : assigned)
      if (vecText.find(dre->getDecl()->getNameAsString()) != std::string::npos)
        unsafe = "'" + dre->getDecl()->getNameAsString() + "' changes between the accesses";
    if (otherWrite)
      unsafe = "the statements also write other memory";
    w.unsafeReason = unsafe;
    placeEdits(body[first], body[first + width - 1], w);
    windows.push_back(w);
    return true;
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
  ParentMap pm_;
};

} // namespace

std::vector<BytePackWindow> findBytePackWindows(ASTContext &ctx, const FunctionDecl *fn) {
  if (!fn->getBody() || !fn->hasAttr<CUDAGlobalAttr>())
    return {};
  WindowFinder f(ctx, fn);
  f.TraverseStmt(fn->getBody());
  return f.windows;
}

} // namespace warplint
