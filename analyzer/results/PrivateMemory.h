// Facts about a kernel's thread-private memory: for each private array, what
// decides whether the compiler can keep it in registers (every subscript a
// constant once the loops around it are fully unrolled, its address never
// leaving the code that indexes it, its size), and, when ptxas was run, the
// stack frame it reports for the kernel. Facts only: the
// private-array-local-memory rule judges them against the hardware profile.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct SassFunction; // analyzer/native/SassMix.h

// A subscript of a private array whose value is not a compile-time constant
// after full unrolling, and why (analyzer/facts/PrivateArrays.cpp).
struct DynamicSubscript {
  SourceLocation loc;  // the access
  std::string text;    // "bins[v]"
  bool isWrite = false;
  // One word for the cause: "data" (a value loaded from memory), "thread"
  // (threadIdx, blockIdx, blockDim, gridDim), "parameter" (a run-time
  // argument), "loop-bound" (the counter of a loop without a constant trip
  // count), "while-loop" (a variable changed in a loop that is never fully
  // unrolled), "data-condition" (a variable assigned under a condition on
  // run-time values), "unroll-pragma" (a constant-trip loop kept rolled by
  // `#pragma unroll 1` or a partial count).
  std::string cause;
  std::string why;      // one clause: "'v' is loaded from memory ('in[i]')"
  SourceLocation loop;  // the loop that stands in the way, when one does
  // Where the access runs: inside some loop, and inside a loop that is never
  // fully unrolled (a run-time trip count, a `while`, a rolling pragma). A
  // compiler turns a few dynamic accesses to a small array into selects over
  // its elements; accesses repeated by a rolled loop it does not.
  bool inLoop = false;
  bool inRolledLoop = false;
};

struct PrivateArray {
  std::string name;
  SourceLocation loc;
  std::string elementType;
  int64_t elementSize = 0;
  std::vector<int64_t> dims;  // outermost first; 0 for an unknown extent
  int64_t bytes = 0;          // per thread; 0 when unknown
  std::string declaredIn;     // the function that declares it (a called __device__ function's name, or the kernel's)
  std::vector<SourceLocation> callChain; // call sites from the kernel down to declaredIn
  int subscripts = 0;         // subscripts seen through every alias and call
  std::vector<DynamicSubscript> dynamicSubscripts;
  // Subscripts the analysis could not classify (a value read from another
  // private array, a call it does not know): no verdict rests on them.
  int undeterminedSubscripts = 0;
  std::string undeterminedReason; // the first one's reason
  // Where its address leaves the code that indexes it (a call that is not
  // inlined, a store to memory, a return); empty when it does not.
  std::string escape;
  SourceLocation escapeLoc;
  // Some subscript uses the counters of two or more nested loops (seed 000's
  // matrix-multiply pattern, L_2).
  bool nestedLoopSubscript = false;
  // The elements are moved at data-dependent positions: written at a
  // subscript that a `while` loop or a data-dependent condition decides (a
  // sort or a shuffle, L_3).
  bool shuffledByData = false;
  // `#pragma unroll 1` / `#pragma unroll N` spans that keep constant-trip
  // loops rolled, when they are the only reason for every dynamic subscript:
  // replacing each by `#pragma unroll` makes every subscript constant.
  std::vector<SourceSpan> rollingPragmas;
};

// What `nvcc -Xptxas -v` reported for the kernel, when the option to run it
// was given and a toolkit was found.
struct PtxasReport {
  bool ran = false;               // a report for this kernel was found
  std::string tool;               // "nvcc 13.0 (ptxas -v, sm_90)"
  int64_t stackFrameBytes = 0;
  int64_t spillStoreBytes = 0, spillLoadBytes = 0;
  int registers = 0;              // registers a thread ("Used N registers"); 0 when not printed
  int64_t sharedBytes = 0;        // static shared memory ("N bytes smem")
  std::string error;              // why no report (nvcc failed, kernel not in its output)
  // The kernel's native code (SASS) with its source lines, when the toolkit
  // has nvdisasm (analyzer/native/SassMix.h); null otherwise, and why.
  std::shared_ptr<const SassFunction> sass;
  std::string sassTool;           // "nvdisasm 13.0 -c -gi of the file's cubin (sm_90)"
  std::string sassError;
};

struct PrivateMemoryFacts {
  std::vector<PrivateArray> arrays;
  PtxasReport ptxas;
};

} // namespace warplint
