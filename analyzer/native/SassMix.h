// The native instruction mix of a unit's kernels: the SASS of the cubin the
// native stage compiles (analyzer/native/NativeCompile.h), disassembled by the
// toolkit's nvdisasm with line information (`nvdisasm -c -gi`; cuobjdump
// -sass prints no source lines), and what one block of a kernel issues from
// it. Seed 003 (Zhang & Owens 2011) builds its model on the native
// instruction set because counting above it (PTX, the source) is its main
// source of error: the compiler folds, unrolls and strength-reduces.
//
// Each instruction is attributed to the source line of the kernel's own body
// it comes from (the outermost "inlined at" line of a helper's code). How many
// times a warp executes it comes from the native code's loops (its backward
// branches), each matched to the source loop it implements, whose trip count
// the work tally already has (KernelWork::loopTrips): a loop nvcc unrolled is
// a native loop of several copies of the body, run trip/copies times, or no
// loop at all.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "analyzer/results/KernelWork.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warplint {

// What an instruction occupies, for the issue component's pipes and the mix
// --explain prints.
enum class SassClass : uint8_t {
  Fp32,     // FFMA, FADD, FMUL, HFMA2, FSETP, ... (the FMA and ALU pipes)
  Integer,  // IMAD, IADD3, LOP3, ISETP, LEA, SHF, MOV, SEL, conversions, ...
  Fp64,     // DFMA, DADD, DMUL, DSETP, ... (the FP64 pipe)
  Sfu,      // MUFU (the special-function unit)
  Shared,   // LDS, STS, LDSM, ATOMS
  Global,   // LDG, STG, LD, ST, ATOM, ATOMG, RED, LDGSTS
  Local,    // LDL, STL
  Constant, // LDC, ULDC (the constant cache)
  Control,  // BRA, BSSY, BSYNC, EXIT, CALL, RET, BAR, WARPSYNC, ...
  Uniform,  // the uniform datapath's U* instructions (issued like any other)
  Other,
};
const char *sassClassName(SassClass c);
SassClass classifySassOpcode(const std::string &opcode); // "FFMA", "LDG.E.128", ...
// Bytes a lane a memory opcode moves: "LDS.128" 16, "LDS.U8" 1, "STS.64" 8, "LDS" 4.
int sassAccessBytes(const std::string &opcode);

struct SassInstruction {
  uint32_t address = 0;
  int line = 0;           // the outermost source line (0: none printed)
  int file = -1;          // index into SassFunction::files of that line
  SassClass cls = SassClass::Other;
  int64_t target = -1;    // a branch's target address (-1: none)
  bool padding = false;   // the NOPs and the self-branch after the last EXIT: never run
  uint8_t bytes = 0;      // a shared, global or local load's or store's bytes a lane (LDS.128: 16; 0: not one)
  bool predicated = false; // under a predicate (@P0, @!P1; not @PT)
  bool exit = false;       // EXIT
};

struct SassFunction {
  std::string mangled;
  std::vector<std::string> files; // as nvdisasm prints them
  std::vector<SassInstruction> instructions;
};

// `nvdisasm -c -gi` output: mangled name -> its instructions.
std::map<std::string, SassFunction> parseNvdisasm(const std::string &text);

// The parsed functions to and from the cache entry's JSON (compact rows).
std::string sassToJson(const std::map<std::string, SassFunction> &functions);
bool sassFromJson(const std::string &json, std::map<std::string, std::shared_ptr<const SassFunction>> &out);

// The instructions one block of `k` issues by the native code, at the work
// tally's trip counts.
struct NativeInstructionCount {
  bool counted = false;
  std::string notCounted;      // why the AST estimate is kept
  double warpInstructions = 0; // per block, every class
  double sfuWarpInstructions = 0, fp64WarpInstructions = 0, localWarpInstructions = 0;
  std::map<std::string, double> byClass; // per block, by sassClassName
  std::map<int, double> byLine;           // per block, by source line of the kernel's file (0: no line)
  // Per block, by source line: the shared loads and stores the native code
  // issues (warp instructions) and the 4-byte words a lane they move
  // (LDS.128: 4), for the shared component (analyzer/cost/KernelCostModel.cpp).
  std::map<int, double> sharedRequestsByLine, sharedWordsByLine;
  // Warp instructions a block that branches skip: code behind a forward
  // branch (or after a predicated EXIT) runs in the warps the tally finds
  // running its memory accesses, not in every warp.
  double skippedByBranches = 0;
  int guardedSpans = 0;
  int staticInstructions = 0;
  // One phrase a native loop: "line 16: x4 unrolled, 256 iterations".
  std::vector<std::string> loops;
};

NativeInstructionCount countNativeInstructions(const SassFunction &f, const KernelInfo &k, const KernelWork &w);

// The share of each shared access's wavefronts (by index into
// KernelInfo::accesses) the native code issues, where it issues fewer than
// the tally `w` counts from the source: nvcc keeps a word it loaded in a
// register for the unrolled iterations that read it again, so the native
// words a lane (LDS.128: 4) over the tally's, on the lines of one
// straight-line region together (a word loaded once is on the first line
// that reads it), scale their accesses (cuda-samples
// convolutionColumnsKernel: 73 LDS where the source reads 136 words a
// thread; ncu counts 680 shared wavefronts a block, the tally 1,172).
// Merged loads move as many words and are left as they are.
// Accesses the native code does not issue fewer of are left out (1).
// `notes` gets one phrase a line scaled.
std::map<size_t, double> nativeSharedScale(const NativeInstructionCount &n, const KernelInfo &k, const KernelWork &w,
                                           std::vector<std::string> &notes);

// The disassembler, opt-in: $WARPLINT_NVDISASM names one (a path), or
// "auto" for <toolkit>/bin/nvdisasm; unset or "off": none, and "" when the
// one named cannot run. Not on by default even where the toolkit has one:
// the native count matches Nsight Compute's executed instructions far
// better than the AST estimate (0.95-1.04x a block on 18 of the 22 recorded
// kernels run at the stated sizes), but the predicted gains still score
// below the AST estimate's on the recorded pairs (25 against 27 of 33 within
// 15%, bottleneck 30 against 31: tests/gpu/gains/README.md, "Instructions
// from the native code", says which pairs and why).
std::string findNvdisasm(const std::string &cudaRoot);

} // namespace warplint
