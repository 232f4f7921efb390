// Unrolled warp tails written in a __device__ helper
// (`template <unsigned B> __device__ void warpReduce(volatile T *s, int tid)
// { if (B >= 64) s[tid] += s[tid + 32]; ... }`) and every call of each helper
// in the translation unit: the facts warp-shuffle-candidate's fix needs to
// rewrite a helper's body, which it may do only when every call is proven
// safe (rules/WarpShuffleFix.cpp).
//
// Kept in a registry of their own, by unit, rather than in KernelInfo: the
// facts belong to the unit, not to one kernel, and adding them to
// analyzer/results/ would rebuild everything. The registry is filled while the
// unit's AST lives (analyzer/facts/WarpHelperTails.cpp, describeWarpHelperTails)
// and read by the rule after the model ran; a later analysis of the same file
// replaces its entry.
#pragma once

#include "analyzer/results/WarpExchange.h"

#include "clang/AST/ASTContext.h"

#include <memory>
#include <string>
#include <vector>

namespace warplint {

// One call of a helper, as written (template instances of one call share it).
struct HelperTailCall {
  SourceLocation loc;    // the call expression
  std::string caller;    // the function it is written in
  // Why the AST alone rules this call out ("" when it does not): the tid
  // argument is not threadIdx.x, the address of the helper is taken, ...
  std::string problem;
};

struct HelperWarpTail {
  std::string helper;        // the helper's name
  SourceLocation loc;        // its declaration
  // The steps, as for a tail in a kernel: `tail.array` and `tail.tidText` are
  // the helper's parameter names, `tail.body` its body's braces (what the fix
  // replaces), `tail.refusal` why the body cannot be rewritten.
  WarpTail tail;
  // Per step: the condition of the `if` it sits under, as written ("blockSize
  // >= 64"), "" when it has none. Conditions are compile-time constants in
  // every instance (checked): the rewrite keeps each one on its step.
  std::vector<std::string> guards;
  // Per step: where the other lane's element is read (`s[tid + 16]`), to
  // match the warp model's loads to steps.
  std::vector<SourceLocation> otherReads;
  // The register form (lsqt's `T v = s[t]; v += s[t + 32]; s[t] = v; ...`):
  // the steps accumulate in a local and store it back after each step.
  bool registerForm = false;
  std::vector<HelperTailCall> calls; // every call in the unit
  // A template instance the rewrite would not serve exactly: "the instance
  // <8, char> (element type 'char')", "" when every instance agrees.
  std::string instanceProblem;
};

// A per-warp tree written as a loop over a 32-lane tile, as cuda-samples and
// HeCBench write it:
//   for (int i = 16; i > 0; i >>= 1) {        // or tile32.size() / 2, VEC / 2
//     if (rank < i) { temp = s[idx + i]; beta += temp; s[idx] = beta; }
//     cg::sync(tile32);                      // or __syncwarp()
//   }
// (register form), or `if (rank < i) s[idx] += s[idx + i];` (direct form).
// rank is the lane in a thread_block_tile<32> or `idx & 31` / `idx % 32`;
// idx is threadIdx.x or the block's thread_rank(). Facts only: the rule
// checks the block shapes and the exchange before rewriting.
// One array a loop-form tree reduces: MonteCarloMultiGPU's sumReduce runs two
// (`sum`, `sum2`) in one loop, each with its own running value and temporary.
struct WarpLoopChain {
  std::string array;        // the shared array (or the helper's pointer parameter) as written
  std::string elementType;  // its element type as written ("float", "T")
  std::string accName;      // register form: the running value; "" for the direct form
  std::string tempName;     // register form: the local the other lane's value goes through, or ""
  std::string valueName;    // a fresh name for the shuffled value
  std::string accValueName; // direct form: a fresh name for the running value
};

struct WarpLoopTree {
  SourceLocation loc;                   // the `for`
  unsigned firstLine = 0, lastLine = 0; // of the whole loop
  SourceSpan span;                      // the loop statement: what the rewrite replaces
  std::string function;                 // the function it is written in
  bool inHelper = false;                // a __device__ function, not the kernel
  std::string array;                    // the shared array as written ("tmp", "sdata")
  std::string elementType;              // its element type ("double")
  std::string indexText;                // the own element's index as written ("cta.thread_rank()")
  std::string rankText;                 // the guard's left side ("tile32.thread_rank()", "vid")
  std::string loopVar;                  // "i"
  std::string accName;                  // register form: the running value ("beta"); "" for the direct form
  std::string tempName;                 // register form: the local the other lane's value goes through, or ""
  std::string syncText;                 // the loop's sync statement as written, no semicolon
  std::string indent, innerIndent;
  std::string valueName;                // a name the function does not use, for the shuffled value
  std::string accValueName;             // direct form: a name for the running value
  // Why the loop, recognized by its shape, cannot be rewritten ("" when the
  // AST allows it): a tile not 32 wide, a sync with a partial mask, types.
  std::string refusal;
  // Every array the guard's body reduces, in the order of their first
  // statement (chains[0] is the one the fields above name). The arrays are
  // distinct and so are the locals of each chain.
  std::vector<WarpLoopChain> chains;
  // Register form, the guard's statements other than the stores, in source
  // order: (chain, 'r') for `temp = s[idx + i]`, (chain, 'a') for `acc += ...`.
  std::vector<std::pair<int, char>> order;
  // In a __device__ helper: the positions of the integer parameters taken as
  // the caller's thread index, and of the pointer parameters that are the
  // chains' arrays (each call must pass threadIdx.x, and distinct arrays).
  std::vector<int> indexParams, arrayParams;
  std::vector<HelperTailCall> calls; // every call of the helper in the unit (helpers only)
};

struct UnitHelperTails {
  std::string mainFile; // real path of the unit's main file
  std::vector<HelperWarpTail> helpers;
  std::vector<WarpLoopTree> loops; // loop-form trees in the unit's files (not system headers)
};

// Finds the helper tails of the unit whose AST is `ctx` and records them
// (replacing what an earlier analysis of the same main file recorded).
void describeWarpHelperTails(clang::ASTContext &ctx);

// The helper tails recorded for the unit of `mainFile` (any spelling of the
// path), or null.
std::shared_ptr<const UnitHelperTails> helperTailsOfUnit(const std::string &mainFile);

// The helper whose body holds `loc`, in any unit recorded, or null (its
// steps and spelling are the same whichever unit included it).
const HelperWarpTail *helperTailAt(const SourceLocation &loc, std::shared_ptr<const UnitHelperTails> &keep);

// The loop-form tree whose loop holds `loc`, in any unit recorded, or null.
const WarpLoopTree *loopTreeAt(const SourceLocation &loc, std::shared_ptr<const UnitHelperTails> &keep);

} // namespace warplint
