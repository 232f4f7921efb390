// The analysis behind describePrivateArrays (PrivateArrays.h), shared by the
// files that implement it; not for use outside analyzer/facts:
//   PrivateArrays.cpp          the walk over the kernel and the functions it
//                              calls, each array's record, result assembly
//   PrivateArrayAddress.cpp    where an array's address goes: element
//                              accesses, aliases, calls, escapes
//   PrivateArraySubscripts.cpp whether a subscript's value is a compile-time
//                              constant once loops are unrolled
//   PrivateArrayLoops.cpp      which loops are unrolled fully, their
//                              induction variables and trip counts
#pragma once

#include "analyzer/facts/BodyParents.h"
#include "analyzer/facts/RewriteFacts.h"
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/results/PrivateMemory.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warplint::private_arrays {

constexpr int kMaxCallDepth = 4;
// An array passed by pointer or reference is followed further: library
// templates (CUB's BlockScan, CUTLASS-style helpers) pass it down through
// many `__forceinline__` layers before indexing it.
constexpr int kMaxArrayCallDepth = 16;

// What a value (a subscript, a loop bound) is once every loop with a constant
// trip count is fully unrolled. Ordered: joining keeps the worse.
enum class Kind { Constant = 0, Undetermined = 1, Dynamic = 2 };

struct Verdict {
  Kind kind = Kind::Constant;
  std::string cause, why;
  clang::SourceLocation loop;
  std::set<const clang::VarDecl *> loopVars;     // induction variables read
  std::set<const clang::LoopHintAttr *> rolling; // pragmas keeping constant-trip loops rolled
  bool otherDynamic = false;                     // a dynamic reason other than such a pragma

  static Verdict dynamic(std::string cause, std::string why, clang::SourceLocation loop = {}) {
    Verdict v;
    v.kind = Kind::Dynamic;
    v.otherDynamic = cause != "unroll-pragma";
    v.cause = std::move(cause);
    v.why = std::move(why);
    v.loop = loop;
    return v;
  }
  static Verdict undetermined(std::string why) {
    Verdict v;
    v.kind = Kind::Undetermined;
    v.why = std::move(why);
    return v;
  }
};

inline Verdict join(Verdict a, const Verdict &b) {
  bool takeB = b.kind > a.kind ||
               (b.kind == Kind::Dynamic && a.kind == Kind::Dynamic && a.cause == "unroll-pragma" && b.otherDynamic);
  if (takeB) {
    a.kind = b.kind;
    a.cause = b.cause;
    a.why = b.why;
    a.loop = b.loop;
  }
  a.loopVars.insert(b.loopVars.begin(), b.loopVars.end());
  a.rolling.insert(b.rolling.begin(), b.rolling.end());
  a.otherDynamic = a.otherDynamic || b.otherDynamic;
  return a;
}

inline std::string shortText(const clang::ASTContext &ctx, const clang::Stmt *s) {
  std::string t = sourceText(ctx, s->getSourceRange());
  return t.size() > 40 ? t.substr(0, 37) + "..." : t;
}

inline const clang::VarDecl *varOf(const clang::Expr *e) {
  if (auto *dre = clang::dyn_cast_or_null<clang::DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr))
    return clang::dyn_cast<clang::VarDecl>(dre->getDecl());
  return nullptr;
}

template <typename T> struct Collector : clang::RecursiveASTVisitor<Collector<T>> {
  std::vector<const T *> found;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitStmt(clang::Stmt *s) {
    if (auto *t = clang::dyn_cast<T>(s))
      found.push_back(t);
    return true;
  }
};
template <typename T> std::vector<const T *> collect(const clang::Stmt *body) {
  Collector<T> c;
  if (body)
    c.TraverseStmt(const_cast<clang::Stmt *>(body));
  return c.found;
}

// The call argument that binds the callee's first parameter: a member
// operator call (`op(a, b)` on a functor) lists the object first.
inline unsigned firstArgument(const clang::CallExpr *call, const clang::FunctionDecl *callee) {
  auto *method = clang::dyn_cast<clang::CXXMethodDecl>(callee);
  return clang::isa<clang::CXXOperatorCallExpr>(call) && method && !method->isStatic() ? 1 : 0;
}

// One function's body as the analysis sees it: its writes, its loops, and
// for a call analyzed in place, what its scalar parameters stand for.
struct Frame {
  const clang::FunctionDecl *fn = nullptr;
  LocalWrites writes;
  const clang::ParentMap *parents = nullptr; // Analysis::parents_'s
  std::map<const clang::ParmVarDecl *, std::pair<const clang::Expr *, const Frame *>> args;
  std::map<const clang::VarDecl *, const clang::ForStmt *> inductionLoops;
  std::map<const clang::ForStmt *, const clang::LoopHintAttr *> hints;
  std::vector<SourceLocation> callChain;
  int depth = 0;
  // For a call analyzed in place: the frame that calls it and the call, so
  // that the loops around the call count as loops around its accesses.
  const Frame *caller = nullptr;
  const clang::CallExpr *call = nullptr;

  // The parent, past parentheses and implicit conversions other than a read.
  const clang::Stmt *parent(const clang::Stmt *s) const {
    const clang::Stmt *p = parents->getParent(s);
    while (p && (clang::isa<clang::ParenExpr>(p) ||
                 (clang::isa<clang::ImplicitCastExpr>(p) &&
                  clang::cast<clang::ImplicitCastExpr>(p)->getCastKind() != clang::CK_LValueToRValue)))
      p = parents->getParent(p);
    return p;
  }
};

using CallStack = std::vector<const clang::FunctionDecl *>;
using FieldPath = std::vector<const clang::FieldDecl *>;

class Analysis {
public:
  Analysis(clang::ASTContext &ctx, BodyParents &parents) : ctx_(ctx), parents_(parents) {}

  std::vector<PrivateArray> run(const clang::FunctionDecl *kernel);

private:
  // ---- the walk and the records (PrivateArrays.cpp) ----
  Frame &frame(const clang::FunctionDecl *fn, const Frame *caller, const clang::CallExpr *call,
               std::vector<SourceLocation> chain);
  static bool inlinable(const clang::FunctionDecl *def, const Frame &caller, const CallStack &stack,
                        int maxDepth = kMaxCallDepth);
  void scanFunction(Frame &f, CallStack stack);
  // The count of `#pragma unroll N` with the blanks before it, so that
  // deleting the span leaves `#pragma unroll`.
  SourceSpan countSpan(const clang::LoopHintAttr *h);
  PrivateArray &record(const clang::VarDecl *v, const Frame &f);
  void scanArray(const clang::VarDecl *v, const Frame &f);
  // A local object whose class (outside system headers) holds an array,
  // directly or in a member object: `Cipher c; c.run(..)` with
  // `uint8_t buf[64]` in Cipher. Each array field is recorded as
  // "object.field" and followed through the object's member accesses, the
  // methods called on it (`this`) and the calls it is passed to.
  void scanObject(const clang::VarDecl *v, const Frame &f);
  // `e` denotes the object (or a pointer to it) whose field path[at..] leads
  // to the array being scanned: what does its parent do with it?
  void useObject(const clang::Expr *e, const FieldPath &path, size_t at, const Frame &f, CallStack stack);
  // The object passed to `call` (as an argument, or as `this` of a method).
  void objectCall(const clang::CallExpr *call, const clang::FunctionDecl *callee, const clang::Expr *e, bool asThis,
                  const FieldPath &path, size_t at, const Frame &f, CallStack stack);
  PrivateArray &array() { return arrays_[current_]; }

  // ---- where the address goes (PrivateArrayAddress.cpp) ----
  void undetermined(const std::string &why);
  void escape(const clang::Stmt *at, const std::string &why);
  // `e` is the array, or a pointer into it `offset` elements on: what does
  // its parent do with it?
  void usePointer(const clang::Expr *e, const Verdict &offset, const Frame &f, CallStack stack);
  // The array passed to a call: analyzed inside the callee when it is inlined.
  void passed(const clang::CallExpr *call, const clang::Expr *e, const Verdict &offset, const Frame &f,
              CallStack stack);
  // One element access `t[i]` / `*p` with its subscript's verdict.
  void element(const clang::Expr *access, const Verdict &v, const Frame &f, const CallStack &stack);

  // ---- what a value is after full unrolling (PrivateArraySubscripts.cpp) ----
  Verdict classify(const clang::Expr *e, const Frame &f);
  Verdict callResult(const clang::CallExpr *call, const Frame &f);
  // A value read from memory: run-time data, unless it is an element of a
  // private array whose contents the analysis cannot tell apart from constants.
  Verdict load(const clang::Expr *e, const Frame &f);
  // Some element of the private array `v` is assigned a run-time value.
  bool arrayHoldsData(const clang::VarDecl *v, const Frame &f);
  Verdict variable(const clang::DeclRefExpr *dre, const Frame &f);
  Verdict variable(const clang::VarDecl *v, const Frame &f);
  Verdict decideVariable(const clang::VarDecl *v, const Frame &f);
  // A local assigned after its declaration: each write's value, and the loops
  // and conditions around it.
  Verdict mutableVariable(const clang::VarDecl *v, const Frame &f);

  // ---- loops and unrolling (PrivateArrayLoops.cpp) ----
  // `for (v = init; cond; inc)` with v written nowhere else.
  static const clang::VarDecl *inductionVar(const Frame &f, const clang::ForStmt *fs);
  // `for (v = init; cond; v step)` over a counter that other code writes too
  // (`int i; for (i = 0; ..) ..; for (i = 0; ..) ..`): inside the loop only
  // its init and step write v, so there v is this loop's counter.
  const clang::VarDecl *reusedCounter(const Frame &f, const clang::ForStmt *fs);
  // The counter of `fs`, either kind; null when it has none.
  const clang::VarDecl *loopCounter(const Frame &f, const clang::ForStmt *fs);
  // The innermost loop enclosing `use` (outside its init) whose reused
  // counter is `v`; null when none.
  const clang::ForStmt *reusedCounterLoop(const clang::Expr *use, const clang::VarDecl *v, const Frame &f);
  static bool isLoop(const clang::Stmt *s);
  // Does the loop `s` run a number of times known once the loops around it
  // are unrolled, and is it unrolled fully?
  Verdict loopTrips(const clang::Stmt *s, const Frame &f);
  // The counter of a recognized `for` loop: constant after unrolling when its
  // start, bound and step are, and the loop is unrolled fully.
  Verdict inductionVariable(const clang::VarDecl *v, const clang::ForStmt *fs, const Frame &f);
  // Iterations of `for (v = init; v op bound; v step)` when all are literal
  // constants; nullopt otherwise.
  std::optional<int64_t> tripCount(const clang::VarDecl *v, const clang::Expr *init, const clang::ForStmt *fs);

  clang::ASTContext &ctx_;
  BodyParents &parents_;
  std::deque<Frame> frames_;
  std::vector<PrivateArray> arrays_;
  std::map<const clang::VarDecl *, size_t> order_;
  std::set<size_t> rollingBlocked_;
  std::map<size_t, std::set<const clang::LoopHintAttr *>> rolling_;
  size_t current_ = 0;
  // The array being scanned: its declaration and the frame that declares it.
  const clang::DeclStmt *currentDecl_ = nullptr;
  const Frame *currentFrame_ = nullptr;
  std::set<std::pair<const clang::VarDecl *, const Frame *>> inProgress_;
  std::map<std::pair<const clang::VarDecl *, const Frame *>, Verdict> memo_;
  std::map<std::pair<const clang::VarDecl *, const Frame *>, bool> holdsData_;
  std::map<std::pair<const clang::ForStmt *, const Frame *>, const clang::VarDecl *> reusedCounters_;
};

} // namespace warplint::private_arrays
