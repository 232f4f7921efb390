// Walks one device function's body and builds its kernel model: parameters,
// arrays, loops and every memory access with the lane guards (enclosing ifs,
// early returns, lane-dependent loop conditions) under which it runs.
#pragma once

#include "analyzer/warp/AccessEvaluator.h"
#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/KernelWork.h"
#include "analyzer/model/ExprTranslator.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <vector>

namespace warplint {

// An access together with the symbolic form the evaluator needs.
struct ModeledAccess {
  MemoryAccess fact;
  GuardedAccess guarded;
  // For a full subscript chain `a[i][j]` on a multi-dimensional shared array:
  // the subscripts, outermost first, so the address can be re-linearized
  // with another row length (padding trials). Empty otherwise.
  std::vector<ExprRef> subscripts;
  // The straight-line region the access is in: a new one for each branch of
  // an if and each loop body, so that accesses sharing one ran together.
  int region = 0;
  // A condition around it could not be evaluated (it was left out of
  // guarded.guards): which lanes take part is not known.
  bool unknownGuard = false;
  // The loops around it, outermost first (indices into KernelInfo::loops):
  // how many times it runs (analyzer/cost/WorkTally.cpp).
  std::vector<int> enclosingLoops;
  // A read of a constexpr or implicitly __constant__ const variable: a value
  // the compiler folds or puts in an instruction's constant-bank operand,
  // not a memory request.
  bool foldedConstant = false;
  // Through a volatile-qualified lvalue (`volatile float *s = sdata; s[i]`).
  bool isVolatile = false;
  // An atomic read-modify-write (atomicAdd(&s[i], v), ...).
  bool atomic = false;
};

// The kernel's accesses and synchronizations in program order (the calls it
// inlines in place), for facts that follow values through shared memory in
// execution order (analyzer/facts/WarpExchanges.cpp).
struct ProgramEvent {
  enum class Kind {
    Access,   // accesses[access]
    Barrier,  // __syncthreads() and its variants, a block's or grid's sync()
    WarpSync, // __syncwarp(), a tile's or coalesced group's sync()
    Opaque,   // a call to the user's device code that was not inlined: may hold barriers or accesses
  };
  Kind kind = Kind::Access;
  int access = -1;
  // The statement it belongs to: the accesses of one statement read before
  // any of them writes (`s[i] += s[i + 16]` reads both, then writes).
  int statement = 0;
  std::vector<int> loops; // the loops around it, outermost first (indices into KernelInfo::loops)
  SourceLocation loc;
};

struct ModeledKernel {
  KernelInfo info;
  std::vector<ModeledAccess> accesses;
  int threadDims = 1; // 1 + the highest threadIdx dimension its indices use
  // __device__ functions whose bodies were analyzed in place at a call site;
  // valid while the AST lives.
  std::vector<const clang::FunctionDecl *> inlinedCallees;
  // Parallel to info.loops: each loop's counter recurrence when one was
  // found (null otherwise), for its trip count.
  std::vector<std::shared_ptr<const LoopRecurrence>> loopRecurrences;
  // The body's arithmetic and control operations by loop nest (the
  // instruction estimate of analyzer/cost/WorkTally.cpp).
  std::vector<OperationCount> operations;
  int barriers = 0; // __syncthreads() and its variants, as written (inlined callees included)
  std::vector<ProgramEvent> events;
  // A `break` or `return` inside a loop under a condition the analyzer
  // cannot evaluate (`if (state < 0) break;` on a value loaded from
  // memory): the loop may stop before its bound, after a number of
  // iterations only the data decides (the work tally prices that).
  struct LoopDataExit {
    int loop = -1;         // the loop it leaves (index into info.loops); a return leaves every loop around it
    std::string kind;      // "break" or "return"
    std::string condition; // the condition's source text
    std::string why;       // why it cannot be evaluated (its first unknown value)
    SourceLocation loc;
  };
  std::vector<LoopDataExit> loopDataExits;
};

// Explicit __global__ or __device__ functions: the user's kernels and helpers.
bool isDeviceFunction(const clang::FunctionDecl *fd);

ModeledKernel modelKernel(clang::ASTContext &ctx, const clang::FunctionDecl *fn);

SourceLocation toLocation(const clang::SourceManager &sm, clang::SourceLocation loc);
std::string sourceText(const clang::ASTContext &ctx, clang::SourceRange range);

} // namespace warplint
