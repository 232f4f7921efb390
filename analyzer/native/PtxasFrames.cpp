#include "analyzer/native/PtxasFrames.h"
#include "analyzer/results/PrivateMemory.h"

#include "llvm/Demangle/Demangle.h"

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

void attributePtxasFrames(const PtxasCompile &compile, const CudaInstallation &cuda, TranslationUnitResult &unit) {
  if (!compile.ok)
    return setAll(unit, compile.error);
  const std::string &arch = compile.arch;
  std::map<std::string, PtxasFunction> functions = parsePtxasVerbose(compile.log);
  std::string tool = "ptxas (nvcc " + std::to_string(cuda.major) + "." + std::to_string(cuda.minor) + ", " + arch + ")";
  for (KernelInfo &k : unit.kernels) {
    if (!k.privateMemory || !k.isGlobal)
      continue;
    std::vector<const PtxasFunction *> matches;
    std::string matchedName;
    for (const auto &[mangled, f] : functions) {
      std::string targs;
      if (baseName(f.demangled, targs) == k.name && (k.templateArgs.empty() || targs == k.templateArgs)) {
        matches.push_back(&f);
        matchedName = mangled;
      }
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
    // Its native code, for the cost model's instruction count.
    if (auto it = compile.sass.find(matchedName); it != compile.sass.end()) {
      r.sass = it->second;
      r.sassTool = compile.sassTool;
    } else {
      r.sassError = !compile.sassError.empty() ? compile.sassError
                    : compile.sassTool.empty() ? "no disassembler ($WARPLINT_NVDISASM: a path to nvdisasm, or auto)"
                                               : "not in nvdisasm's output";
    }
  }
}

} // namespace warplint
