// The analyzer's entry point: parse each job's device side with Clang, build
// the kernel model and evaluate every access for a warp. Returns facts only.
#pragma once

#include "analyzer/model/BlockShapes.h"
#include "analyzer/results/AnalysisResults.h"
#include "analyzer/frontend/CompileJobs.h"
#include "analyzer/native/NativeCompile.h"

#include <functional>
#include <map>
#include <string>

namespace warplint {

struct AnalyzerOptions {
  FrontendOptions frontend;
  // Block shapes tried for kernels with no launch site of constant shape.
  PlausibleShapes plausibleShapes;
  // Value given to symbolic parameters (a row pitch `n`) when lanes are
  // instantiated: large, a multiple of 32 elements (see README "Assumptions").
  int64_t symbolicValue = 1024;
  // Absolute path -> contents read instead of the file on disk (the rewriter
  // re-analyzes fixed text before writing it).
  std::map<std::string, std::string> overlayFiles;
  // Translation units analyzed at once by analyze(); results keep the order
  // of the jobs whatever the number.
  unsigned threads = 1;
  // Called after each unit, one call at a time, with the number done so far
  // and the unit just finished (a progress line).
  std::function<void(size_t done, size_t total, const std::string &file)> onUnitDone;
  // When to compile a unit with the toolkit's nvcc (-Xptxas -v) and record
  // the stack frame, registers and shared memory ptxas reports per kernel
  // (analyzer/native/): never, where a private array's place depends on it,
  // or always. Needs a toolkit the unit was parsed against.
  PtxasMode ptxas = PtxasMode::Off;
  // Where those compiles are cached ("" : not cached).
  std::string nativeCacheDir;
  // Count each block's work for the kernel cost model (analyzer/cost/);
  // off with --no-cost-model, which also leaves findings unpriced.
  bool countWork = true;
  // Seconds one unit may take (parse, model, evaluation), 0: no limit. A unit
  // over it is stopped cooperatively (analyzer/Deadline.h) and reported as
  // not analyzed, with where it stopped; the other units are unaffected.
  double timeLimitSeconds = 0;
};

// Analyzes one translation unit on its own (launches in other units are not
// seen). Never throws; a TU that produced no AST has `parsed == false` and
// `fatalError` set. Headers it cannot find are parsed as empty files
// (TranslationUnitResult::frontendNotes says which).
TranslationUnitResult analyzeUnit(const CompileJob &job, const AnalyzerOptions &opts);

// Every unit, each kernel with the launches of every unit (a kernel defined
// in a.cu and launched from b.cu gets b.cu's block shape).
AnalysisResults analyze(const std::vector<CompileJob> &jobs, const AnalyzerOptions &opts);

} // namespace warplint
