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
// unit's AST lives (analyzer/facts/WarpTails.cpp, describeWarpHelperTails)
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

struct UnitHelperTails {
  std::string mainFile; // real path of the unit's main file
  std::vector<HelperWarpTail> helpers;
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

} // namespace warplint
