// What ptxas itself says about a unit's kernels: `nvcc -cubin -Xptxas -v`
// prints each function's stack frame and spill bytes. A kernel whose private
// arrays stay in registers has a 0-byte frame. Slow (a real device
// compilation), so only run on request (`warplint check --ptxas-confirm`).
#pragma once

#include "analyzer/frontend/CompileJobs.h"
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

// Compiles the job's file for its GPU architecture with the toolkit's nvcc
// and fills privateMemory->ptxas of each kernel of `unit` (ran, or why not).
void readPtxasFrames(const CompileJob &job, const CudaInstallation &cuda, TranslationUnitResult &unit);

} // namespace warplint
