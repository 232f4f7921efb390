// Finding the CUDA toolkit and warplint's own run-time resources.
#include "analyzer/frontend/CompileJobs.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <regex>

namespace warplint {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

std::string join(llvm::StringRef a, llvm::StringRef b) {
  llvm::SmallString<256> s(a);
  path::append(s, b);
  return std::string(s.str());
}

std::string readFile(const std::string &p) {
  auto buf = llvm::MemoryBuffer::getFile(p, /*IsText=*/true);
  if (!buf)
    return {};
  return (*buf)->getBuffer().str();
}

// Clang's CUDA detection needs include/ and bin/ under the root; the wrapper
// headers need cuda.h and cuda_runtime.h.
bool isToolkitRoot(const std::string &root, std::string *why) {
  if (root.empty() || !fs::is_directory(root)) {
    if (why)
      *why = "'" + root + "' is not a directory";
    return false;
  }
  for (const char *f : {"include/cuda.h", "include/cuda_runtime.h"}) {
    if (!fs::exists(join(root, f))) {
      if (why)
        *why = "'" + root + "' is not a CUDA toolkit (no " + f + ")";
      return false;
    }
  }
  if (!fs::is_directory(join(root, "bin"))) {
    if (why)
      *why = "'" + root + "' is not a CUDA toolkit (no bin/ directory)";
    return false;
  }
  return true;
}

bool parseVersionString(const std::string &v, int &major, int &minor) {
  std::smatch m;
  static const std::regex re(R"((\d+)\.(\d+))");
  if (!std::regex_search(v, m, re))
    return false;
  major = std::stoi(m[1]);
  minor = std::stoi(m[2]);
  return true;
}

void readVersion(CudaInstallation &inst) {
  // version.json (CUDA 11.1+): {"cuda": {"name": ..., "version": "13.0.88"}, ...}
  std::string text = readFile(join(inst.root, "version.json"));
  if (!text.empty()) {
    auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("cuda") && j["cuda"].is_object() &&
        j["cuda"].contains("version") && j["cuda"]["version"].is_string() &&
        parseVersionString(j["cuda"]["version"].get<std::string>(), inst.major, inst.minor))
      return;
  }
  // version.txt (up to CUDA 11.0): "CUDA Version 10.2.89"
  text = readFile(join(inst.root, "version.txt"));
  if (!text.empty() && parseVersionString(text, inst.major, inst.minor))
    return;
  // cuda.h: #define CUDA_VERSION 13000
  text = readFile(join(inst.root, "include/cuda.h"));
  std::smatch m;
  static const std::regex re(R"(#\s*define\s+CUDA_VERSION\s+(\d+))");
  if (std::regex_search(text, m, re)) {
    int v = std::stoi(m[1]);
    inst.major = v / 1000;
    inst.minor = (v % 1000) / 10;
  }
}

std::optional<CudaInstallation> makeInstallation(const std::string &root,
                                                 const std::string &foundBy) {
  llvm::SmallString<256> clean(root);
  path::remove_dots(clean, /*remove_dot_dot=*/true);
  while (clean.size() > 1 && path::is_separator(clean.back()))
    clean.pop_back();
  CudaInstallation inst;
  inst.root = std::string(clean.str());
  inst.foundBy = foundBy;
  readVersion(inst);
  return inst;
}

// nvcc on PATH: <root>/bin/nvcc, possibly through symlinks (/usr/bin/nvcc ->
// /opt/cuda/bin/nvcc).
std::optional<CudaInstallation> fromNvccOnPath() {
  auto nvcc = llvm::sys::findProgramByName("nvcc");
  if (!nvcc)
    return std::nullopt;
  std::vector<std::string> candidates;
  llvm::SmallString<256> real;
  if (!fs::real_path(*nvcc, real))
    candidates.push_back(std::string(path::parent_path(path::parent_path(real))));
  candidates.push_back(std::string(path::parent_path(path::parent_path(*nvcc))));
  for (const auto &c : candidates)
    if (isToolkitRoot(c, nullptr))
      return makeInstallation(c, "nvcc on PATH");
  return std::nullopt;
}

std::string &storedExecutable() {
  static std::string exe;
  return exe;
}

bool hasResources(const std::string &dir) {
  return !dir.empty() && fs::exists(join(dir, "cuda_minimal.h"));
}

} // namespace

std::optional<CudaInstallation> locateCuda(const std::string &explicitPath, std::string &whyNot) {
  whyNot.clear();
  if (!explicitPath.empty()) {
    if (isToolkitRoot(explicitPath, &whyNot))
      return makeInstallation(explicitPath, "--cuda-path");
    whyNot = "--cuda-path: " + whyNot;
    return std::nullopt;
  }
  if (const char *search = std::getenv("WARPLINT_CUDA_SEARCH")) {
    llvm::StringRef s(search);
    if (s == "none") {
      whyNot = "CUDA toolkit search disabled (WARPLINT_CUDA_SEARCH=none)";
      return std::nullopt;
    }
    llvm::SmallVector<llvm::StringRef, 4> roots;
    s.split(roots, ':', -1, /*KeepEmpty=*/false);
    for (auto r : roots) {
      if (r == "nvcc") {
        if (auto inst = fromNvccOnPath())
          return inst;
      } else if (isToolkitRoot(r.str(), nullptr)) {
        return makeInstallation(r.str(), "WARPLINT_CUDA_SEARCH");
      }
    }
    whyNot = "no CUDA toolkit in WARPLINT_CUDA_SEARCH=" + s.str();
    return std::nullopt;
  }
  if (const char *env = std::getenv("CUDA_PATH"); env && *env) {
    if (isToolkitRoot(env, nullptr))
      return makeInstallation(env, "CUDA_PATH");
  }
  if (isToolkitRoot("/usr/local/cuda", nullptr))
    return makeInstallation("/usr/local/cuda", "/usr/local/cuda");
  if (auto inst = fromNvccOnPath())
    return inst;
  whyNot = "no CUDA toolkit found ($CUDA_PATH, /usr/local/cuda, nvcc on PATH)";
  return std::nullopt;
}

std::optional<CudaInstallation> locateCuda(const std::string &explicitPath) {
  std::string whyNot;
  return locateCuda(explicitPath, whyNot);
}

void setExecutablePath(const char *argv0) {
  storedExecutable() =
      fs::getMainExecutable(argv0, reinterpret_cast<void *>(&setExecutablePath));
}

std::string shareDir() {
  if (const char *env = std::getenv("WARPLINT_SHARE_DIR"); env && hasResources(env))
    return env;
  std::string exe = storedExecutable();
  if (exe.empty())
    exe = fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&setExecutablePath));
  if (!exe.empty()) {
    std::string dir = join(join(path::parent_path(path::parent_path(exe)), "share"), "warplint");
    if (hasResources(dir))
      return dir;
  }
#ifdef WARPLINT_BUILD_SHARE_DIR
  if (hasResources(WARPLINT_BUILD_SHARE_DIR))
    return WARPLINT_BUILD_SHARE_DIR;
#endif
#ifdef WARPLINT_SOURCE_RESOURCE_DIR
  if (hasResources(WARPLINT_SOURCE_RESOURCE_DIR))
    return WARPLINT_SOURCE_RESOURCE_DIR;
#endif
  return {};
}

} // namespace warplint
