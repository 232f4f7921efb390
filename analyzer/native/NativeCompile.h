// Compiling a unit's device code with the toolkit's own nvcc, to read what
// ptxas decided (stack frames, registers, shared memory) instead of guessing
// it. A real compilation costs seconds, so its output is cached on disk,
// keyed by every input of the compile: the content of each file the parse
// read, the nvcc flags, the toolkit's version and the architecture. A file
// that did not change is compiled once, whatever the number of runs.
#pragma once

#include "analyzer/frontend/CompileJobs.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warplint {

struct SassFunction; // analyzer/native/SassMix.h

// When a unit's device code is compiled with nvcc -Xptxas -v.
enum class PtxasMode {
  Off,       // never
  Auto,      // when a kernel has a private array whose place (registers or local memory) depends on ptxas
  On,        // every unit parsed against a toolkit (--ptxas on, --ptxas-confirm)
  CacheOnly, // never compile; use a cached compile of the same content (the editor's unsaved buffers)
};

// "off", "auto", "on", "cache-only"; false for anything else.
bool parsePtxasMode(const std::string &text, PtxasMode &mode);
const char *ptxasModeName(PtxasMode mode);

// nvcc -cubin -Xptxas -v of one unit, or why not.
struct PtxasCompile {
  bool ok = false;        // nvcc ran (now or when cached) and exited 0
  std::string log;        // its combined output: ptxas's "Function properties" lines
  std::string arch;       // "sm_90"
  std::string error;      // why not ok
  bool fromCache = false; // read from the cache, not compiled now
  // The cubin's native code (nvdisasm -c -gi, analyzer/native/SassMix.h) by
  // mangled name, when the toolkit has nvdisasm; kept in the same cache entry.
  std::map<std::string, std::shared_ptr<const SassFunction>> sass;
  std::string sassTool;   // "nvdisasm 13.0 -c -gi of the file's cubin"
  std::string sassError;  // why none (no nvdisasm, it failed)
};

struct PtxasCompileRequest {
  const CompileJob *job = nullptr;
  const CudaInstallation *cuda = nullptr;
  std::string inputsHash; // of every file the parse read (contents as parsed)
  std::string cacheDir;   // "" : no cache
  bool mayCompile = true; // false: a cache hit or nothing (CacheOnly, files edited in memory)
  double timeoutSeconds = 0; // 0: none; a compile stopped by it is not cached
  // The disassembler; "" : SassMix.h's findNvdisasm ($WARPLINT_NVDISASM: a
  // path, or "auto" for the toolkit's bin/nvdisasm; none by default). With
  // one, the cubin is compiled with -lineinfo (a separate cache entry) and
  // its native code is kept in the entry.
  std::string nvdisasm;
};

PtxasCompile compileWithPtxasVerbose(const PtxasCompileRequest &request);

// The nvcc arguments (after the executable) for a job: its include paths,
// macros and language standard made absolute from the job's directory, and
// the architecture of its --cuda-gpu-arch (sm_90 when none). Exposed for
// tests; `arch` receives the architecture.
std::vector<std::string> nvccDeviceFlags(const CompileJob &job, std::string &arch);

// The cache's default folder: $WARPLINT_CACHE_DIR, else
// $XDG_CACHE_HOME/warplint, else $HOME/.cache/warplint; "" when none is set.
std::string defaultNativeCacheDir();

} // namespace warplint
