// Translates Clang expressions inside a device function into symbolic index
// expressions and memory locations (root variable, address space, byte
// offset). Locals are followed through their initializers only when nothing
// else writes them; anything ambiguous becomes an Unknown leaf.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/model/IndexExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

// Which locals and parameters the function body writes after their
// declaration, or lets escape (address taken, bound to a non-const reference).
struct LocalWrites {
  llvm::DenseMap<const clang::VarDecl *, int> writes;
  llvm::DenseSet<const clang::VarDecl *> escaped;
  static LocalWrites collect(const clang::Stmt *body);
  bool isStable(const clang::VarDecl *v) const { return !escaped.count(v) && !writes.lookup(v); }
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
      : ctx_(ctx), fn_(fn), writes_(writes) {}

  ExprRef index(const clang::Expr *e);
  // The memory an lvalue designates; nullopt for registers (plain locals).
  std::optional<MemoryRef> lvalue(const clang::Expr *e);
  // The memory a pointer value points at.
  std::optional<MemoryRef> pointee(const clang::Expr *e) { return pointerValue(e, 0); }

  void bindLoopVar(const clang::VarDecl *v, ExprRef value) { loopVars_[v] = std::move(value); }
  // Inlining a call: the callee's parameters stand for the caller's values
  // (scalars) and memory (pointers and references).
  void bindParam(const clang::ParmVarDecl *p, ExprRef value) { paramValues_[p] = std::move(value); }
  void bindParamMemory(const clang::ParmVarDecl *p, const MemoryRef &ref) { paramMemory_[p] = ref; }
  void unbindLoopVar(const clang::VarDecl *v) { loopVars_.erase(v); }
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

  // The linear thread id within the block (threadIdx.x + threadIdx.y*blockDim.x
  // + threadIdx.z*blockDim.x*blockDim.y) as one shared node, so that a kernel
  // reading it through cooperative groups is not taken for a 3-D one.
  static const ExprRef &linearThreadId();

private:
  ExprRef translate(const clang::Expr *e, int depth);
  std::optional<MemoryRef> pointerValue(const clang::Expr *e, int depth);
  std::optional<MemoryRef> lvalueAt(const clang::Expr *e, int depth);
  ExprRef builtinVar(const clang::Expr *e);
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
  llvm::DenseMap<const clang::VarDecl *, ExprRef> loopVars_;
  llvm::DenseMap<const clang::ParmVarDecl *, ExprRef> paramValues_;
  llvm::DenseMap<const clang::ParmVarDecl *, MemoryRef> paramMemory_;
  std::vector<std::string> symbolicParams_;
  int callDepth_ = 0; // calls followed to reach this body (returned values)
};

} // namespace warplint
