// Turning what the user gave us (files plus `-- FLAGS`, or a compilation
// database written for nvcc or clang) into clang command lines that parse the
// device side of a CUDA translation unit.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct FrontendOptions {
  std::string cudaPath;                // --cuda-path; empty: search
  bool forceMinimalCuda = false;       // --no-cuda-toolkit: bundled declarations only
  std::string buildDir;                // -p DIR
  std::vector<std::string> extraArgs;  // compiler flags after `--`
  std::string defaultGpuArch = "sm_90";
  std::string defaultStd = "c++17";
};

struct CudaInstallation {
  std::string root;      // e.g. /usr/local/cuda
  int major = 0, minor = 0;
  std::string foundBy;   // "--cuda-path", "CUDA_PATH", "/usr/local/cuda", "nvcc on PATH"
};

// Where each input comes from and the user-level flags that apply to it.
struct CompileJob {
  std::string file;                 // absolute path of the source file
  std::string directory;            // working directory for relative paths
  std::vector<std::string> flags;   // user flags, already clang-compatible
  bool fromDatabase = false;
  std::vector<std::string> notes;   // what translation dropped or chose (GPU arch, unknown flags)
};

// The full driver command line for one job, ready for clang::tooling.
struct ClangCommand {
  std::vector<std::string> argv;    // argv[0] is a driver name; ends with the file
  std::string directory;
  bool usesMinimalCuda = false;     // no toolkit: bundled header, -nocudainc -nocudalib
  std::optional<CudaInstallation> cuda;
  std::vector<std::string> notes;   // e.g. why the bundled minimal header is used
};

// Finds CUDA from `explicitPath`, $CUDA_PATH, /usr/local/cuda, or nvcc on PATH.
// A non-empty `explicitPath` that is not a toolkit gives nullopt (no search).
// $WARPLINT_CUDA_SEARCH replaces the search list: "none" searches nothing,
// otherwise a ':'-separated list of candidate roots (the entry "nvcc" stands
// for nvcc on PATH).
std::optional<CudaInstallation> locateCuda(const std::string &explicitPath);
// The same, saying why nothing was found (bad --cuda-path, or nothing on the
// search list) in `whyNot`.
std::optional<CudaInstallation> locateCuda(const std::string &explicitPath, std::string &whyNot);

// Run-time resources (cuda_minimal.h, compat/, minimal/). Call once at startup
// with argv[0]; the share dir is <exe>/../share/warplint, then
// $WARPLINT_SHARE_DIR, then the build tree's copy. Calling it is optional on
// Linux (the executable is found through /proc/self/exe).
void setExecutablePath(const char *argv0);
std::string shareDir();

// Translates one compile command (nvcc, clang or gcc spelling; argv[0] is the
// compiler) to clang flags, keeping -I -isystem -D -U -std and the GPU
// architecture, dropping what clang cannot use. The source file, -c and -o
// are removed. Unknown flags are dropped with a note in `notes`.
std::vector<std::string> translateCompileCommand(const std::vector<std::string> &commandLine,
                                                 const std::string &directory,
                                                 std::vector<std::string> *notes = nullptr);

// Jobs for `files` (all CUDA sources in the database when empty) from
// BUILD_DIR/compile_commands.json. Returns false and sets `error` when the
// database is missing or unreadable, or a named file is not in it.
bool loadCompileJobs(const std::string &buildDir, const std::vector<std::string> &files,
                     std::vector<CompileJob> &jobs, std::string &error);

// Jobs for files given on the command line with optional `-- FLAGS`.
std::vector<CompileJob> jobsForFiles(const std::vector<std::string> &files,
                                     const std::vector<std::string> &extraArgs);

// Builds the clang command line: CUDA device-only syntax check for the
// requested GPU arch, the toolkit's include dirs (cccl and the compat dir for
// CUDA 13) or the bundled minimal header, clang's resource dir, error limit off.
ClangCommand buildClangCommand(const CompileJob &job, const FrontendOptions &opts);

} // namespace warplint
