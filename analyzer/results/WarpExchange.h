// Facts about shared memory used to pass values between the lanes of one
// warp (analyzer/facts/WarpExchanges.cpp): every thread of the block is run
// through the kernel's shared accesses and synchronizations in program order
// (every iteration of the loops around them), and each load is told where
// the value it reads came from: the thread's own store, another lane of its
// warp with no __syncthreads in between, a store before a barrier, or
// another warp with no barrier. Facts only: the warp-shuffle-candidate rule
// judges them.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warplint {

// A load of a shared array that reads values other lanes of the same warp
// stored, with no __syncthreads between the store and the load.
struct WarpExchangeRead {
  size_t access = 0;           // index into KernelInfo::accesses: the load
  std::vector<size_t> writers; // the stores whose values other lanes of the warp read here, in source order
  // What orders store and load: "__syncwarp" (one ran between them in every
  // case), "volatile" (both accesses volatile, no __syncwarp) or "none".
  std::string sync;
  // Lanes of one warp that read a value another lane of the warp stored, in
  // the busiest (warp, iteration); the lanes of warp 0 when it takes part.
  int exchangeLanes = 0;
  uint32_t exchangeMask = 0; // those lanes, as a mask over lanes 0-31
  // Source lane minus reading lane over every exchanged read (distinct,
  // ascending), and, when each source lane is the reading lane XOR one
  // constant, that constant (-1 otherwise).
  std::vector<int> laneDeltas;
  int xorMask = -1;
  // Per (thread, iteration) read over the whole enumeration: another lane's
  // value of the same warp; the thread's own value; a value stored before a
  // __syncthreads (by any thread) or never stored in the kernel.
  int64_t exchanged = 0, own = 0, beforeBarrier = 0, unwritten = 0;
  uint32_t outsideMask = 0; // lanes (of the warp above) whose reads come from before a barrier or from no store
  uint32_t sourceMask = 0;  // lanes (of the warp above) whose stores the exchanged reads read
};

// One exchange: the loads of one array whose values come from stores by
// other lanes of the same warp, and what a warp executes from the first of
// those stores to the last of those loads.
struct WarpExchange {
  std::string array;
  SourceLocation arrayLoc;
  std::vector<WarpExchangeRead> reads; // in program order
  size_t firstStore = 0;               // index into KernelInfo::accesses: the earliest store read
  // Executed by one warp (the busiest) over that span, every iteration
  // counted: warp-wide store and load instructions on the array, and
  // __syncwarp() calls.
  int64_t warpStores = 0, warpLoads = 0, warpSyncs = 0;
  // The warps of the block that run the exchange (first block shape), and
  // the lanes of the first of them that store or load in it.
  std::vector<int> warps;
  int totalWarps = 0;
  uint32_t laneMask = 0;
  std::vector<BlockShape> shapes; // block shapes under which it was found (every shape evaluated)
};

// Where the values a shared load read were stored: one entry per (load,
// store) pair seen while running the block (analyzer/facts/WarpExchanges.cpp),
// so that a rewrite can tell which stored values later code reads.
struct SharedValueFlow {
  size_t load = 0, store = 0; // indices into KernelInfo::accesses
  bool otherThread = false;   // some thread read a value another thread stored
  // ... with no __syncthreads or __syncwarp run between the store and the load.
  bool unordered = false;
  bool storedByThreadZero = true; // every value read was stored by thread 0 of the block
};

// One step of a warp tail as written: `s[tid] += s[tid + 16]`,
// `s[tid] = s[tid] + s[tid + 16]` or `s[tid] = max(s[tid], s[tid + 16])`.
struct WarpTailStep {
  int offset = 0;        // the lane distance read (16 above)
  unsigned line = 0;
  enum class Form { Compound, Binary, Call } form = Form::Compound;
  std::string combine;   // the operator ("+") or the function as written ("max", "fmaxf")
  std::string opKey;     // what must match across steps: "+" or the callee's qualified name
  bool otherFirst = false; // Binary/Call: the other lane's value is the first operand
  std::string indexText;   // the index of the other lane's element as written ("tid + 32")
};

// An unrolled warp tail as the AST spells it (analyzer/facts/WarpTails.cpp):
// `if (tid < 32) { [volatile T *s = sdata;] step; [__syncwarp();] step; ... }`
// with tid threadIdx.x (or a local set once from it). Facts only: the rule
// checks them against the warp model before rewriting.
struct WarpTail {
  SourceLocation loc;      // the `if`
  unsigned firstLine = 0, lastLine = 0; // of its braces, for matching the model's accesses
  SourceSpan body;         // the braces and what they hold: what the rewrite replaces
  std::string array;       // the shared array the steps reach (directly or through the alias)
  std::string elementType; // its element type as the compiler spells it ("float")
  std::string tidText;     // the guard's left side as written ("tid", "threadIdx.x")
  std::string indent;      // leading whitespace of the `if` line and of the body's first statement
  std::string innerIndent;
  std::vector<WarpTailStep> steps; // in order
  int syncwarps = 0;       // __syncwarp() statements between the steps
  std::string valueName;   // a name for the register value that the function does not declare ("v")
  // Why the tail, recognized by its guard and steps, cannot be rewritten
  // ("" when the AST allows it): another statement in it, a macro, a
  // template, mixed element types.
  std::string refusal;
};

struct WarpExchangeFacts {
  std::vector<WarpExchange> exchanges;
  std::vector<SharedValueFlow> flows; // loads of shared arrays and the stores they read
  std::vector<WarpTail> tails;        // set from the AST before the run (analyzer/facts/WarpTails.cpp)
  // Shared arrays the enumeration could not follow, and why: "'s': a store
  // the model cannot evaluate at k.cu:12". No exchange is reported on them.
  std::vector<std::string> gaps;
};

} // namespace warplint
