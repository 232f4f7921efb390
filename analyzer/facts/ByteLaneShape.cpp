// Recognizes the one-byte-a-lane kernel that --fix-launch restructures:
//   int i = blockIdx.x * blockDim.x + threadIdx.x;
//   if (i < N) out[i] = E;
// and nothing else in the body, E reading byte-typed pointer parameters at [i].
// See RewriteFacts.h.
#include "analyzer/model/KernelWalker.h"
#include "analyzer/facts/RewriteFacts.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace warplint {

using namespace clang;

namespace {

std::string text(const ASTContext &ctx, SourceRange r) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(r), ctx.getSourceManager(), ctx.getLangOpts()).str();
}

std::string withoutSpaces(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; }), s.end());
  return s;
}

bool isLinearThreadIndex(const ASTContext &ctx, const Expr *e) {
  std::string t = withoutSpaces(text(ctx, e->getSourceRange()));
  return t == "blockIdx.x*blockDim.x+threadIdx.x" || t == "blockDim.x*blockIdx.x+threadIdx.x" ||
         t == "threadIdx.x+blockIdx.x*blockDim.x" || t == "threadIdx.x+blockDim.x*blockIdx.x";
}

const ParmVarDecl *bytePointer(const Expr *e) {
  auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  auto *p = dre ? dyn_cast<ParmVarDecl>(dre->getDecl()) : nullptr;
  if (!p || !p->getType()->isPointerType())
    return nullptr;
  QualType t = p->getType()->getPointeeType().getCanonicalType().getUnqualifiedType();
  return t->isCharType() ? p : nullptr;
}

bool refersTo(const Expr *e, const VarDecl *v) {
  auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return dre && dre->getDecl() == v;
}

class ValueScan : public RecursiveASTVisitor<ValueScan> {
public:
  ValueScan(const ASTContext &ctx, const VarDecl *index, unsigned base, ByteLaneKernel &out)
      : ctx_(ctx), index_(index), base_(base), out_(out) {}
  std::string problem;
  std::vector<const ParmVarDecl *> pointers;

  bool TraverseArraySubscriptExpr(ArraySubscriptExpr *ase) {
    if (const ParmVarDecl *p = bytePointer(ase->getBase())) {
      if (!refersTo(ase->getIdx(), index_)) {
        problem = "'" + text(ctx_, ase->getSourceRange()) + "' is not indexed by '" + index_->getNameAsString() + "'";
        return true;
      }
      add(ase->getSourceRange(), p->getNameAsString());
      if (std::find(pointers.begin(), pointers.end(), p) == pointers.end())
        pointers.push_back(p);
      return true; // not into the subscript: its `i` is replaced with the access
    }
    return RecursiveASTVisitor::TraverseArraySubscriptExpr(ase);
  }
  bool VisitDeclRefExpr(DeclRefExpr *dre) {
    if (dre->getDecl() == index_)
      add(dre->getSourceRange(), "");
    else if (auto *p = dyn_cast<ParmVarDecl>(dre->getDecl()); p && p->getType()->isPointerType())
      problem = "the value uses the pointer '" + p->getNameAsString() + "' other than as a byte read at [i]";
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *bo) {
    if (bo->isAssignmentOp())
      problem = "the value assigns";
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *uo) {
    if (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf)
      problem = "the value modifies or takes an address";
    return true;
  }
  bool VisitCallExpr(CallExpr *call) {
    for (unsigned i = 0; i < call->getNumArgs(); ++i)
      if (call->getArg(i)->getType()->isPointerType())
        problem = "the value passes a pointer to a call";
    return true;
  }

private:
  void add(SourceRange r, const std::string &pointer) {
    const SourceManager &sm = ctx_.getSourceManager();
    CharSourceRange cr = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm, ctx_.getLangOpts());
    if (cr.isInvalid()) {
      problem = "the value is written with macros";
      return;
    }
    unsigned begin = sm.getFileOffset(cr.getBegin()), end = sm.getFileOffset(cr.getEnd());
    out_.uses.push_back({begin - base_, end - begin, pointer});
  }

  const ASTContext &ctx_;
  const VarDecl *index_;
  unsigned base_;
  ByteLaneKernel &out_;
};

bool mentionsIndexIn(const Stmt *s, const VarDecl *v) {
  if (auto *dre = dyn_cast_or_null<DeclRefExpr>(s); dre && dre->getDecl() == v)
    return true;
  if (s)
    for (const Stmt *c : s->children())
      if (mentionsIndexIn(c, v))
        return true;
  return false;
}

} // namespace

std::optional<ByteLaneKernel> findByteLaneKernel(ASTContext &ctx, const FunctionDecl *fn) {
  auto *body = dyn_cast_or_null<CompoundStmt>(fn->getBody());
  if (!body || !fn->hasAttr<CUDAGlobalAttr>() || body->size() != 2)
    return std::nullopt;
  auto *decl = dyn_cast<DeclStmt>(body->body_front());
  auto *index = decl && decl->isSingleDecl() ? dyn_cast<VarDecl>(decl->getSingleDecl()) : nullptr;
  if (!index || !index->getInit() || !index->getType()->isIntegerType() || !isLinearThreadIndex(ctx, index->getInit()))
    return std::nullopt;
  auto *guard = dyn_cast<IfStmt>(body->body_back());
  if (!guard || guard->getElse() || guard->getInit() || guard->getConditionVariable())
    return std::nullopt;
  auto *cond = dyn_cast<BinaryOperator>(guard->getCond()->IgnoreParenImpCasts());
  if (!cond || cond->getOpcode() != BO_LT || !refersTo(cond->getLHS(), index))
    return std::nullopt;
  const Stmt *then = guard->getThen();
  if (auto *cs = dyn_cast<CompoundStmt>(then)) {
    if (cs->size() != 1)
      return std::nullopt;
    then = cs->body_front();
  }
  auto *store = dyn_cast<BinaryOperator>(then);
  auto *target = store && store->getOpcode() == BO_Assign ? dyn_cast<ArraySubscriptExpr>(store->getLHS()->IgnoreParens()) : nullptr;
  const ParmVarDecl *out = target ? bytePointer(target->getBase()) : nullptr;
  if (!out || !refersTo(target->getIdx(), index))
    return std::nullopt;

  ByteLaneKernel k;
  k.indexVar = index->getNameAsString();
  k.boundText = text(ctx, cond->getRHS()->getSourceRange());
  k.outPointer = out->getNameAsString();
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange value = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(store->getRHS()->getSourceRange()),
                                                   sm, ctx.getLangOpts());
  if (value.isInvalid()) {
    k.unsafeReason = "the stored value is written with macros";
    return k;
  }
  k.valueText = Lexer::getSourceText(value, sm, ctx.getLangOpts()).str();
  ValueScan scan(ctx, index, sm.getFileOffset(value.getBegin()), k);
  scan.TraverseStmt(const_cast<Expr *>(store->getRHS()));
  k.unsafeReason = scan.problem;
  std::vector<const ParmVarDecl *> pointers{out};
  for (const ParmVarDecl *p : scan.pointers)
    if (p != out)
      pointers.push_back(p);
  for (const ParmVarDecl *p : pointers) {
    k.pointers.push_back(p->getNameAsString());
    k.elementTypes.push_back(p->getType()->getPointeeType().getUnqualifiedType().getAsString());
    k.paramIndices.push_back(p->getFunctionScopeIndex());
  }
  if (mentionsIndexIn(cond->getRHS(), index))
    k.unsafeReason = "the bound depends on '" + k.indexVar + "'";
  clang::SourceLocation begin = guard->getBeginLoc();
  clang::SourceLocation past = Lexer::findLocationAfterToken(then->getEndLoc(), tok::semi, sm, ctx.getLangOpts(), false);
  if (isa<CompoundStmt>(guard->getThen()))
    past = Lexer::getLocForEndOfToken(guard->getThen()->getEndLoc(), 0, sm, ctx.getLangOpts());
  if (begin.isMacroID() || past.isInvalid() || past.isMacroID()) {
    k.unsafeReason = "the statement comes from a macro";
    return k;
  }
  k.statement = fileSpan(ctx, CharSourceRange::getCharRange(begin, past));
  bool invalid = false;
  llvm::StringRef buffer = sm.getBufferData(sm.getFileID(begin), &invalid);
  unsigned offset = sm.getFileOffset(begin), lineStart = offset;
  while (!invalid && lineStart > 0 && buffer[lineStart - 1] != '\n')
    --lineStart;
  k.indent = invalid ? "" : buffer.substr(lineStart, offset - lineStart).str();
  if (!k.statement.valid() || k.indent.find_first_not_of(" \t") != std::string::npos)
    k.unsafeReason = "the statement does not start its line in the file";
  return k;
}

} // namespace warplint
