#include "analyzer/facts/PtxasFrames.h"
#include "analyzer/results/PrivateMemory.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <regex>
#include <sstream>

namespace warplint {

namespace {

// "void ns::k<float, 32>(float*)" -> "k"; the template arguments in `args`.
std::string baseName(const std::string &demangled, std::string &args) {
  std::string s = demangled.substr(0, demangled.find('('));
  args.clear();
  if (size_t lt = s.find('<'); lt != std::string::npos) {
    args = s.substr(lt);
    s = s.substr(0, lt);
  }
  if (size_t sp = s.rfind(' '); sp != std::string::npos)
    s = s.substr(sp + 1);
  if (size_t colons = s.rfind("::"); colons != std::string::npos)
    s = s.substr(colons + 2);
  return s;
}

// The flags of a clang job that nvcc understands the same way.
std::vector<std::string> nvccFlags(const CompileJob &job, std::string &arch) {
  std::vector<std::string> out;
  arch = "sm_90";
  for (size_t i = 0; i < job.flags.size(); ++i) {
    const std::string &f = job.flags[i];
    auto starts = [&](const char *p) { return f.rfind(p, 0) == 0; };
    if (starts("--cuda-gpu-arch=") || starts("--offload-arch="))
      arch = f.substr(f.find('=') + 1);
    else if ((f == "-I" || f == "-isystem" || f == "-D" || f == "-U") && i + 1 < job.flags.size())
      out.push_back(f), out.push_back(job.flags[++i]);
    else if (starts("-I") || starts("-D") || starts("-U") || starts("-std="))
      out.push_back(f);
    else if (starts("-isystem"))
      out.push_back("-isystem"), out.push_back(f.substr(8));
  }
  return out;
}

void setAll(TranslationUnitResult &unit, const std::string &why) {
  for (KernelInfo &k : unit.kernels)
    if (k.privateMemory)
      k.privateMemory->ptxas.error = why;
}

} // namespace

std::map<std::string, PtxasFunction> parsePtxasVerbose(const std::string &text) {
  std::map<std::string, PtxasFunction> out;
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  // "Used 32 registers, used 1 barriers, 4224 bytes smem, ..." follows the frame line.
  static const std::regex used(R"(Used (\d+) registers(.*?(\d+) bytes smem)?)");
  std::istringstream lines(text);
  std::string line, current, framed;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, props)) {
      current = m[1];
      out[current].demangled = llvm::demangle(current);
    } else if (!current.empty() && std::regex_search(line, m, frame)) {
      PtxasFunction &f = out[current];
      f.stackFrameBytes = std::stoll(m[1]);
      f.spillStoreBytes = std::stoll(m[2]);
      f.spillLoadBytes = std::stoll(m[3]);
      framed = current;
      current.clear();
    } else if (!framed.empty() && std::regex_search(line, m, used)) {
      PtxasFunction &f = out[framed];
      f.registers = std::stoi(m[1]);
      if (m[3].matched)
        f.sharedBytes = std::stoll(m[3]);
      framed.clear();
    }
  }
  return out;
}

void readPtxasFrames(const CompileJob &job, const CudaInstallation &cuda, TranslationUnitResult &unit) {
  std::string nvcc = cuda.root + "/bin/nvcc";
  if (!llvm::sys::fs::can_execute(nvcc))
    return setAll(unit, "no nvcc in " + cuda.root + "/bin");
  llvm::SmallString<128> cubin, log;
  if (llvm::sys::fs::createTemporaryFile("warplint-ptxas", "cubin", cubin) ||
      llvm::sys::fs::createTemporaryFile("warplint-ptxas", "log", log))
    return setAll(unit, "cannot create a temporary file for nvcc");
  std::string arch;
  std::vector<std::string> args{nvcc, "-cubin", "-Xptxas", "-v", "-o", std::string(cubin)};
  for (const std::string &f : nvccFlags(job, arch))
    args.push_back(f);
  args.push_back("-arch=" + arch);
  args.push_back(job.file);
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(nvcc, argv, std::nullopt, redirects, 0, 0, &error);
  auto buffer = llvm::MemoryBuffer::getFile(log);
  std::string text = buffer ? (*buffer)->getBuffer().str() : "";
  llvm::sys::fs::remove(cubin);
  llvm::sys::fs::remove(log);
  if (rc != 0)
    return setAll(unit, "nvcc failed" + (error.empty() ? std::string() : ": " + error));
  std::map<std::string, PtxasFunction> functions = parsePtxasVerbose(text);
  std::string tool = "ptxas (nvcc " + std::to_string(cuda.major) + "." + std::to_string(cuda.minor) + ", " + arch + ")";
  for (KernelInfo &k : unit.kernels) {
    if (!k.privateMemory || !k.isGlobal)
      continue;
    std::vector<const PtxasFunction *> matches;
    for (const auto &[mangled, f] : functions) {
      std::string targs;
      if (baseName(f.demangled, targs) == k.name && (k.templateArgs.empty() || targs == k.templateArgs))
        matches.push_back(&f);
    }
    PtxasReport &r = k.privateMemory->ptxas;
    if (matches.size() != 1) {
      r.error = matches.empty() ? "not in ptxas's output" : "several functions of that name in ptxas's output";
      continue;
    }
    r.ran = true;
    r.tool = tool;
    r.stackFrameBytes = matches[0]->stackFrameBytes;
    r.spillStoreBytes = matches[0]->spillStoreBytes;
    r.spillLoadBytes = matches[0]->spillLoadBytes;
    r.registers = matches[0]->registers;
    r.sharedBytes = matches[0]->sharedBytes;
  }
}

} // namespace warplint
