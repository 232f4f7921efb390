// What ptxas itself says about a unit's kernels: `nvcc -cubin -Xptxas -v`
// prints each function's stack frame and spill bytes. A kernel whose private
// arrays stay in registers has a 0-byte frame. Slow (a real device
// compilation, cached: analyzer/native/NativeCompile.h), so run only where
// a private array's place depends on it, or on request (`--ptxas on`).
#pragma once

#include "analyzer/frontend/CompileJobs.h"
#include "analyzer/native/NativeCompile.h"
#include "analyzer/results/AnalysisResults.h"

#include <map>
#include <string>

namespace warplint {

struct PtxasFunction {
  std::string demangled;  // "histogram16(int const*, int*, int)"
  int64_t stackFrameBytes = 0, spillStoreBytes = 0, spillLoadBytes = 0;
  int registers = 0;
  int64_t sharedBytes = 0;
};

// Parses ptxas -v output: mangled name -> its figures.
std::map<std::string, PtxasFunction> parsePtxasVerbose(const std::string &text);

// Fills privateMemory->ptxas of each kernel of `unit` from the unit's
// compile (ran, or why not).
void attributePtxasFrames(const PtxasCompile &compile, const CudaInstallation &cuda, TranslationUnitResult &unit);

} // namespace warplint
