// Translates Clang expressions inside a device function into symbolic index
// expressions and memory locations (root variable, address space, byte
// offset). Locals are followed through their initializers when nothing else
// writes them, and through the value the walker bound them to at the current
// point (flow-sensitive) otherwise. Values every lane computes alike that
// cannot be pinned down (a load from a warp-uniform address, a call on
// warp-uniform arguments, a local every assignment of which is warp-uniform)
// become Uniform symbols; anything else ambiguous becomes an Unknown leaf.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/model/IndexExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "analyzer/model/UnfoldableExprs.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

class BodyParents; // analyzer/facts/BodyParents.h

struct AssignmentIndex; // Assignments.h

// Which locals and parameters the function body writes after their
// declaration, or lets escape (address taken, bound to a non-const reference).
// A local passed to a call's non-const reference parameter (`load(s, ai)`)
// escapes and counts as written there; when that is its only escape it is an
// out-argument, whose value the walker can still follow (OutParameters.h).
struct LocalWrites {
  llvm::DenseMap<const clang::VarDecl *, int> writes;
  llvm::DenseSet<const clang::VarDecl *> escaped;
  llvm::DenseSet<const clang::VarDecl *> boundToCallReference; // escaped through a call argument
  llvm::DenseSet<const clang::VarDecl *> aliased;              // address taken, or a reference local binds it
  static LocalWrites collect(const clang::Stmt *body);
  bool isStable(const clang::VarDecl *v) const { return !escaped.count(v) && !writes.lookup(v); }
  bool onlyOutArgument(const clang::VarDecl *v) const {
    return boundToCallReference.count(v) && !aliased.count(v);
  }
};

struct MemoryRef {
  const clang::ValueDecl *root = nullptr;
  std::string rootName;
  AddressSpace space = AddressSpace::Generic;
  ExprRef byteOffset;
  int64_t rootElementSize = 0; // size of the root array's or pointer's element
  int64_t rootExtentBytes = 0; // size of the root variable when it is an array of known size; 0 otherwise
  std::string rootElementType;
};

class ExprTranslator {
public:
  ExprTranslator(clang::ASTContext &ctx, const clang::FunctionDecl *fn, const LocalWrites &writes)
      : ctx_(ctx), fn_(fn), writes_(writes), unfoldable_(ctx) {}

  ExprRef index(const clang::Expr *e);
  // The memory an lvalue designates; nullopt for registers (plain locals).
  std::optional<MemoryRef> lvalue(const clang::Expr *e);
  // The memory a pointer value points at.
  std::optional<MemoryRef> pointee(const clang::Expr *e) { return pointerValue(e, 0); }

  // The value a local (or a parameter) holds at the walker's current point:
  // a loop's induction variable, or the reaching assignment.
  void bindLoopVar(const clang::VarDecl *v, ExprRef value) { loopVars_[v] = std::move(value); }
  using ValueMap = llvm::DenseMap<const clang::VarDecl *, ExprRef>;
  const ValueMap &boundValues() const { return loopVars_; }
  void setBoundValues(ValueMap m) { loopVars_ = std::move(m); }
  // A fresh warp-uniform unknown, named for reports; `key` (an AST node)
  // makes a second translation of the same node give the same symbol.
  ExprRef uniformValue(const std::string &name, const void *key = nullptr);
  // Ids of uniform symbols are shared by the walkers of one kernel.
  void shareUniformIds(int *counter) { uniformIds_ = counter; }
  // Body parent maps shared with the walk's other readers (BodyParents.h);
  // unset: isUniformLocal reads the unit's ASTContext parent map.
  void shareBodyParents(BodyParents *parents) { bodyParents_ = parents; }
  // Every assignment of `v` in the function (its initializer included) is
  // warp-uniform and made under warp-uniform control flow in a loop no lane
  // leaves early: every lane holds the same value wherever it is read.
  bool isUniformLocal(const clang::VarDecl *v);
  // The value of a warp-uniform local that changes in ways the walker does
  // not follow (assigned in a loop, on some paths): a fresh Uniform symbol,
  // or an Unknown leaf saying why not.
  ExprRef opaqueLocal(const clang::VarDecl *v, const std::string &why);
  // Whether every lane computes `e` alike (any type: a float too).
  bool isUniformScalar(const clang::Expr *e, int depth = 0);
  // Inlining a call: the callee's parameters stand for the caller's values
  // (scalars) and memory (pointers and references).
  void bindParam(const clang::ParmVarDecl *p, ExprRef value) { paramValues_[p] = std::move(value); }
  void bindParamMemory(const clang::ParmVarDecl *p, const MemoryRef &ref) { paramMemory_[p] = ref; }
  void unbindLoopVar(const clang::VarDecl *v) { loopVars_.erase(v); }
  // An integer reference parameter that follows the caller's local it binds
  // (OutParameters.h): it starts with the local's value.
  void bindReferenceValue(const clang::ParmVarDecl *p, ExprRef value) {
    paramValues_[p] = std::move(value);
    followedReferences_.insert(p);
  }
  bool followsReference(const clang::VarDecl *v) const { return followedReferences_.count(v); }
  // Prepares `child`, a translator for `callee`'s body, for the call `call`:
  // one call deeper, its scalar parameters bound to the arguments' values and
  // its pointer and reference parameters to the memory they designate.
  void bindCallArguments(const clang::CallExpr *call, const clang::FunctionDecl *callee, ExprTranslator &child);
  int callDepth() const { return callDepth_; }
  int64_t sizeOf(clang::QualType t) const;

  // Scalar parameters that appeared in a translated index, by name.
  const std::vector<std::string> &symbolicParams() const { return symbolicParams_; }
  void clearSymbolicParams() { symbolicParams_.clear(); }

  static AddressSpace spaceOf(const clang::ValueDecl *root, const clang::FunctionDecl *fn);
  // The arithmetic of `v op= e`: Add for `+=`; nullopt for the others.
  static std::optional<ExprOp> compoundOp(clang::BinaryOperatorKind k);
  // What a parameter holds when the function starts (a Param symbol, or the
  // caller's value when inlined), whatever the body does to it later.
  ExprRef entryValue(const clang::ParmVarDecl *p);

  // The linear thread id within the block (threadIdx.x + threadIdx.y*blockDim.x
  // + threadIdx.z*blockDim.x*blockDim.y) as one shared node, so that a kernel
  // reading it through cooperative groups is not taken for a 3-D one.
  static const ExprRef &linearThreadId();

private:
  ExprRef translate(const clang::Expr *e, int depth);
  std::optional<MemoryRef> pointerValue(const clang::Expr *e, int depth);
  std::optional<MemoryRef> movedPointer(const clang::VarDecl *v, int depth);
  std::optional<MemoryRef> lvalueAt(const clang::Expr *e, int depth);
  ExprRef builtinVar(const clang::Expr *e);
  ExprRef translateLocal(const clang::VarDecl *v, const clang::DeclRefExpr *use, int depth);
  ExprRef loadedValue(const clang::Expr *e, int depth);
  bool isUniformCall(const clang::CallExpr *call, int depth);
  bool laneFreeFunction(const clang::FunctionDecl *fd, int depth);
  std::string text(const clang::Expr *e) const;
  MemoryRef rootRef(const clang::ValueDecl *d, clang::QualType elementType);
  // `elements` elements of `elementType`, in bytes; unknown when its size is.
  ExprRef bytesOf(ExprRef elements, clang::QualType elementType) const;
  // `ref` seen through a pointer cast to `elementType` (same memory, new element).
  std::optional<MemoryRef> retyped(std::optional<MemoryRef> ref, clang::QualType elementType) const;

  // Calls to the user's functions (CallResults.cpp): what the body returns,
  // evaluated with the parameters bound to the call's arguments. Null or
  // nullopt when the callee is not the user's, returns differently on
  // different paths, or returns something of its own (a parameter it was
  // not given, a local).
  std::optional<MemoryRef> returnedMemory(const clang::CallExpr *call, int depth);
  ExprRef returnedValue(const clang::CallExpr *call, int depth);
  // Cooperative groups (CooperativeGroups.cpp): ranks and sizes of the block,
  // its static or dynamic tiles and the grid, by the API's qualified names
  // (the toolkit headers are not walked). Null when `call` is not one.
  ExprRef cooperativeGroupsValue(const clang::CallExpr *call, int depth);
  // `.x`/`.y`/`.z` of a group's thread_index(), group_index(), group_dim()...
  ExprRef cooperativeGroupsMember(const clang::MemberExpr *me, int depth);
  struct Group;
  Group groupOf(const clang::Expr *object, int depth);

  clang::ASTContext &ctx_;
  const clang::FunctionDecl *fn_;
  const LocalWrites &writes_;
  UnfoldableExprs unfoldable_; // skips EvaluateAsInt where it surely fails
  llvm::DenseMap<const clang::VarDecl *, ExprRef> loopVars_;
  llvm::DenseMap<const clang::ParmVarDecl *, ExprRef> paramValues_;
  llvm::DenseMap<const clang::ParmVarDecl *, MemoryRef> paramMemory_;
  llvm::DenseSet<const clang::VarDecl *> followedReferences_;
  std::vector<std::string> symbolicParams_;
  int callDepth_ = 0; // calls followed to reach this body (returned values)
  int ownUniformIds_ = 0;
  int *uniformIds_ = &ownUniformIds_;
  BodyParents *bodyParents_ = nullptr;
  llvm::DenseMap<const void *, ExprRef> uniformByKey_;
  // Every local's assignments in the body, found in one walk on the first
  // uniformity question (a kernel asks about hundreds of locals, each a walk
  // of the whole body before; issue 19).
  std::shared_ptr<AssignmentIndex> assignments_;
  llvm::DenseMap<const clang::VarDecl *, bool> uniformLocals_; // decided
  llvm::DenseSet<const clang::VarDecl *> checkingLocals_;     // being decided: assumed uniform
  llvm::DenseMap<const clang::FunctionDecl *, bool> laneFree_;
  int cleanMode_ = 0; // > 0 while deciding uniform locals: bound values are ignored
};

} // namespace warplint
