// nvcc, clang and gcc compile commands translated to the clang flags that
// decide how the device side parses.
#include "analyzer/frontend/CompileJobs.h"
#include "analyzer/frontend/PathText.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <set>

namespace warplint {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using llvm::StringRef;

namespace {

bool looksLikeSource(StringRef arg) {
  return hasExtension(arg, {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".c++", ".cp", ".C",
                            ".h", ".hpp", ".hh", ".hxx", ".inl", ".inc"});
}

bool looksLikeCompiler(StringRef arg) {
  StringRef name = path::filename(arg);
  for (StringRef c : {"nvcc", "clang", "clang++", "gcc", "g++", "c++", "cc", "cl", "icpx", "icx"})
    if (name == c || name.starts_with(c.str() + "-") || name.ends_with(("-" + c).str()) ||
        name == (c.str() + ".exe"))
      return true;
  return false;
}

// ---- Expansion of @response files and nvcc options files ------------------

void expandInto(const std::vector<std::string> &in, const std::string &dir,
                std::vector<std::string> &out, std::vector<std::string> &notes, int depth);

void expandFile(const std::string &file, const std::string &dir, std::vector<std::string> &out,
                std::vector<std::string> &notes, int depth) {
  std::string p = absolutize(file, dir);
  if (depth > 8) {
    notes.push_back("options file nesting too deep at '" + p + "'");
    return;
  }
  auto buf = llvm::MemoryBuffer::getFile(p, /*IsText=*/true);
  if (!buf) {
    notes.push_back("cannot read options file '" + p + "'; its flags are ignored");
    return;
  }
  expandInto(tokenize((*buf)->getBuffer()), dir, out, notes, depth + 1);
}

void expandInto(const std::vector<std::string> &in, const std::string &dir,
                std::vector<std::string> &out, std::vector<std::string> &notes, int depth) {
  for (size_t i = 0; i < in.size(); ++i) {
    StringRef a(in[i]);
    if (a.size() > 1 && a[0] == '@') {
      expandFile(a.substr(1).str(), dir, out, notes, depth);
      continue;
    }
    std::string files;
    bool isOptFile = false;
    for (StringRef name : {"--options-file", "-optf"}) {
      if (a == name) {
        isOptFile = true;
        if (i + 1 < in.size())
          files = in[++i];
        break;
      }
      if (a.starts_with(name.str() + "=")) {
        isOptFile = true;
        files = a.substr(name.size() + 1).str();
        break;
      }
    }
    if (isOptFile) {
      llvm::SmallVector<StringRef, 2> parts;
      StringRef(files).split(parts, ',', -1, false);
      for (StringRef f : parts)
        expandFile(f.str(), dir, out, notes, depth);
      continue;
    }
    out.push_back(in[i]);
  }
}

// ---- GPU architectures ----------------------------------------------------

struct GpuArch {
  int number = 0;
  std::string suffix; // "a" for sm_90a
  bool real = false;  // sm_XX (else compute_XX / lto_XX)
};

bool parseArch(StringRef s, GpuArch &arch) {
  s = s.trim().trim("\"'[]");
  bool real;
  if (s.consume_front("sm_"))
    real = true;
  else if (s.consume_front("compute_") || s.consume_front("lto_"))
    real = false;
  else
    return false;
  size_t digits = 0;
  while (digits < s.size() && isdigit(static_cast<unsigned char>(s[digits])))
    ++digits;
  if (digits == 0)
    return false;
  arch.number = std::stoi(s.substr(0, digits).str());
  arch.suffix = s.substr(digits).str();
  arch.real = real;
  return true;
}

// The architectures clang 19 accepts for --cuda-gpu-arch.
const int kClangArchs[] = {20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62,
                           70, 72, 75, 80, 86, 87, 89, 90};

struct ArchRequests {
  std::vector<GpuArch> archs;
  std::vector<std::string> spellings; // as the user wrote them, for the note
  std::string special;                // native / all / all-major
};

void addArchList(StringRef value, ArchRequests &req) {
  llvm::SmallVector<StringRef, 4> parts;
  value.split(parts, ',', -1, false);
  for (StringRef p : parts) {
    p = p.trim().trim("\"'[]");
    GpuArch a;
    if (parseArch(p, a)) {
      req.archs.push_back(a);
      req.spellings.push_back(p.str());
    } else if (p == "native" || p == "all" || p == "all-major") {
      req.special = p.str();
    }
  }
}

// -gencode arch=compute_80,code=[compute_80,sm_80] (also code="sm_80,sm_90").
void addGencode(StringRef value, ArchRequests &req) {
  std::string v;
  for (char c : value)
    if (c != '[' && c != ']' && c != '"' && c != '\'')
      v.push_back(c);
  llvm::SmallVector<StringRef, 6> parts;
  StringRef(v).split(parts, ',', -1, false);
  std::vector<GpuArch> virt, real;
  std::vector<std::string> virtS, realS;
  for (StringRef p : parts) {
    p = p.trim();
    p.consume_front("arch=");
    p.consume_front("code=");
    GpuArch a;
    if (!parseArch(p, a))
      continue;
    (a.real ? real : virt).push_back(a);
    (a.real ? realS : virtS).push_back(p.str());
  }
  const auto &use = real.empty() ? virt : real;
  const auto &useS = real.empty() ? virtS : realS;
  req.archs.insert(req.archs.end(), use.begin(), use.end());
  req.spellings.insert(req.spellings.end(), useS.begin(), useS.end());
}

std::string chooseArch(const ArchRequests &req, std::vector<std::string> &notes) {
  if (req.archs.empty()) {
    if (!req.special.empty())
      notes.push_back("-arch=" + req.special + ": parsing for the default GPU architecture");
    return {};
  }
  bool anyReal = std::any_of(req.archs.begin(), req.archs.end(), [](auto &a) { return a.real; });
  const GpuArch *best = nullptr;
  for (const auto &a : req.archs) {
    if (anyReal && !a.real)
      continue;
    if (!best || a.number > best->number || (a.number == best->number && a.suffix > best->suffix))
      best = &a;
  }
  int chosen = 0;
  for (int n : kClangArchs)
    if (n <= best->number)
      chosen = n;
  if (chosen == 0)
    chosen = kClangArchs[0];
  std::string arch = "sm_" + std::to_string(chosen);
  if (chosen == 90 && best->number == 90 && best->suffix == "a")
    arch += "a";
  std::set<std::string> distinct(req.spellings.begin(), req.spellings.end());
  if (distinct.size() > 1) {
    std::string list;
    for (const auto &s : distinct)
      list += (list.empty() ? "" : ", ") + s;
    notes.push_back("several GPU architectures requested (" + list + "); parsing once for " +
                    arch);
  }
  std::string wanted = "sm_" + std::to_string(best->number) + best->suffix;
  if (wanted != arch)
    notes.push_back(wanted + " is not known to clang 19; parsing for " + arch);
  return arch;
}

// ---- Flag translation -----------------------------------------------------

// Options whose value is dropped together with them.
const char *const kDropWithValue[] = {
    "-o", "--output-file", "-MF", "-MT", "-MQ", "--dependency-output", "-MJ", "-ccbin",
    "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xlinker", "--linker-options",
    "-Xnvlink", "--nvlink-options", "-Xfatbin", "--fatbin-options", "-Xarchive",
    "--archive-options", "-Xcudafe", "-Xcicc", "-Xnvvm", "--threads", "-t", "-maxrregcount",
    "--maxrregcount", "-cudart", "--cudart", "-cudadevrt", "--cudadevrt", "--keep-dir",
    "-keep-dir", "-odir", "--output-directory", "--diag-suppress", "-diag-suppress",
    "--diag_suppress", "-diag_suppress", "--diag-warn", "-diag-warn", "--diag-error",
    "-diag-error", "--diag-default", "-diag-default", "-default-stream", "--default-stream",
    "--machine", "-split-compile", "--split-compile", "-time", "--time", "-L", "--library-path",
    "-l", "--library", "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt",
    "-fmad", "--fmad", "-rdc", "--relocatable-device-code", "-dopt", "--dopt", "--optimize",
    "-Xarch_device", "-Xarch_host", "--cuda-path", "-target", "--target", "-Xclang",
    "-mllvm", "-Xassembler", "-Xpreprocessor", "--nvlink-options", "-arch-list",
    "--run-args", "-run-args", "--dryrun", "--input-drive-prefix", "-idp",
    "--dependency-drive-prefix", "-ddp", "--drive-prefix", "-dp", "-static-global-template-stub",
    "--static-global-template-stub", "--device-entity-has-hidden-visibility", "-jump-table-density",
    "--jump-table-density", "-frandom-seed", "--gpu-code-list"};

// Flags without a value that are dropped without a note.
const char *const kDropPlain[] = {
    "-c", "--compile", "-dc", "--device-c", "-dw", "--device-w", "-cubin", "--cubin", "-ptx",
    "--ptx", "-fatbin", "--fatbin", "-E", "--preprocess", "-M", "-MM", "-MD", "-MMD", "-MP",
    "-MG", "--generate-dependencies", "--generate-nonsystem-dependencies",
    "--generate-dependency-targets", "-w", "--disable-warnings", "--expt-relaxed-constexpr",
    "-expt-relaxed-constexpr", "--expt-extended-lambda", "-expt-extended-lambda",
    "--extended-lambda", "-extended-lambda", "--use_fast_math", "-use_fast_math",
    "--use-fast-math", "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker", "--forward-unknown-opts",
    "-forward-unknown-opts", "-lineinfo", "--generate-line-info", "-G", "--device-debug",
    "--debug", "--keep", "-keep", "-save-temps", "--save-temps", "-res-usage", "--resource-usage",
    "-src-in-ptx", "--source-in-ptx", "--restrict", "-restrict", "--extra-device-vectorization",
    "-extra-device-vectorization", "-allow-unsupported-compiler", "--allow-unsupported-compiler",
    "--display-error-number", "-err-no", "--no-display-error-number", "-no-err-no",
    "-shared", "--shared", "-lib", "--lib", "-dlink", "--device-link", "-dlto", "--dlink-time-opt",
    "-link", "--link", "-pg", "--profile", "-pie", "-no-pie", "-v", "--verbose", "-pthread",
    "-pipe", "-static", "-rdynamic", "-nocudainc", "-nocudalib", "--cuda-device-only",
    "--cuda-host-only", "--cuda-compile-host-device", "-fsyntax-only", "-fgpu-rdc",
    "-fno-gpu-rdc", "--no-cuda-version-check", "-cuda", "--cuda", "-Wreorder", "--Wreorder",
    "-Wext-lambda-captures-this", "--Wext-lambda-captures-this", "-Wdefault-stream-launch",
    "--Wdefault-stream-launch", "-Wmissing-launch-bounds", "--Wmissing-launch-bounds",
    "-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", "-Wno-deprecated-declarations",
    "--Wno-deprecated-declarations", "-no-compress", "--no-compress", "-hls=gen-lcs",
    "--no-host-device-initializer-list", "-no-host-device-initializer-list",
    "--no-host-device-move-forward", "-no-host-device-move-forward", "-noprof",
    "--dont-use-profile", "--list-gpu-arch", "--list-gpu-code", "-arbitrary-init"};

// Flags affecting how the source parses that clang accepts as they are.
const char *const kKeepPlain[] = {
    "-fno-exceptions", "-fexceptions", "-fcxx-exceptions", "-fno-cxx-exceptions", "-fms-extensions",
    "-fno-ms-extensions", "-fdeclspec", "-fno-declspec", "-fchar8_t", "-fno-char8_t",
    "-funsigned-char", "-fsigned-char", "-fno-rtti", "-frtti", "-fno-operator-names",
    "-fgnu-keywords", "-fno-gnu-keywords", "-fsized-deallocation", "-fno-sized-deallocation",
    "-faligned-new", "-fno-aligned-new", "-ffreestanding", "-fno-builtin", "-nostdinc",
    "-nostdinc++", "-nostdlibinc", "-nobuiltininc", "-fno-threadsafe-statics",
    "-fdelayed-template-parsing", "-fno-delayed-template-parsing", "-fcoroutines-ts",
    "-fgnuc-version=0"};

// nvcc's -Werror takes a kind list as its value.
bool isNvccWarningKinds(StringRef v) {
  llvm::SmallVector<StringRef, 4> parts;
  v.split(parts, ',');
  for (StringRef p : parts)
    if (!(p == "all-warnings" || p == "cross-execution-space-call" || p == "reorder" ||
          p == "deprecated-declarations" || p == "default-stream-launch" ||
          p == "missing-launch-bounds" || p == "ext-lambda-captures-this"))
      return false;
  return !parts.empty();
}

bool inList(StringRef a, const char *const *begin, const char *const *end) {
  for (auto it = begin; it != end; ++it)
    if (a == *it)
      return true;
  return false;
}
template <size_t N> bool inList(StringRef a, const char *const (&list)[N]) {
  return inList(a, list, list + N);
}

struct Translator {
  std::string dir;
  std::vector<std::string> out;
  std::vector<std::string> notes;
  ArchRequests arch;
  std::string language;    // "-x" value we keep ("cuda") or empty
  bool sawStd = false;

  // Matches `name VALUE`, `name=VALUE` and (if `joined`) `nameVALUE`.
  static bool match(const std::vector<std::string> &args, size_t &i, StringRef name, bool joined,
                    std::string &value, bool &missing) {
    StringRef a(args[i]);
    missing = false;
    if (a == name) {
      if (i + 1 < args.size())
        value = args[++i];
      else
        missing = true;
      return true;
    }
    if (!a.starts_with(name))
      return false;
    StringRef rest = a.substr(name.size());
    if (rest.starts_with("=")) {
      value = rest.substr(1).str();
      return true;
    }
    if (joined) {
      value = rest.str();
      return true;
    }
    return false;
  }

  bool matchAny(const std::vector<std::string> &args, size_t &i,
                std::initializer_list<StringRef> names, bool joined, std::string &value) {
    bool missing = false;
    for (StringRef n : names)
      if (match(args, i, n, joined, value, missing)) {
        if (missing)
          notes.push_back("'" + args[i] + "' has no value; dropped");
        return !missing;
      }
    return false;
  }

  void includeDir(StringRef flag, const std::string &value) {
    std::string v = absolutize(value, dir);
    if (flag == "-I")
      out.push_back("-I" + v);
    else {
      out.push_back(flag.str());
      out.push_back(v);
    }
  }

  void includeFile(StringRef flag, const std::string &value) {
    std::string v = value;
    if (!path::is_absolute(v)) {
      std::string candidate = absolutize(v, dir);
      if (fs::exists(candidate))
        v = candidate;
    }
    out.push_back(flag.str());
    out.push_back(v);
  }

  // Host-compiler flags forwarded with -Xcompiler: keep what changes the
  // preprocessor's view (-D -U -I -isystem -include ...), drop the rest.
  void hostCompilerFlags(const std::string &value) {
    std::vector<std::string> pieces;
    llvm::SmallVector<StringRef, 4> parts;
    StringRef(value).split(parts, ',', -1, false);
    for (StringRef p : parts)
      for (auto &t : tokenize(p))
        pieces.push_back(t);
    for (size_t i = 0; i < pieces.size(); ++i) {
      std::string v;
      if (matchAny(pieces, i, {"-D"}, true, v))
        out.push_back("-D" + v);
      else if (matchAny(pieces, i, {"-U"}, true, v))
        out.push_back("-U" + v);
      else if (matchAny(pieces, i, {"-I"}, true, v))
        includeDir("-I", v);
      else if (matchAny(pieces, i, {"-isystem"}, true, v))
        includeDir("-isystem", v);
      else if (matchAny(pieces, i, {"-iquote"}, true, v))
        includeDir("-iquote", v);
      else if (matchAny(pieces, i, {"-idirafter"}, true, v))
        includeDir("-idirafter", v);
      else if (matchAny(pieces, i, {"-include"}, false, v))
        includeFile("-include", v);
      // everything else (-fPIC, -Wall, -O2, -fopenmp, -std for the host) is
      // about host code generation.
    }
  }

  void run(const std::vector<std::string> &args) {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string &arg = args[i];
      StringRef a(arg);
      std::string v;
      if (a.empty())
        continue;
      if (a[0] != '-') {
        // The source file, object files of a link line, or a value of a flag
        // we do not know; none of them belongs on the clang command line.
        if (!looksLikeSource(a) && !hasExtension(a, {".o", ".obj", ".a", ".so"}))
          notes.push_back("ignored argument '" + arg + "'");
        continue;
      }
      if (a == "-" || a == "--")
        continue;

      // Include paths and macros.
      if (matchAny(args, i, {"-I", "--include-path"}, true, v)) {
        includeDir("-I", v);
      } else if (matchAny(args, i, {"-isystem", "--system-include"}, true, v)) {
        includeDir("-isystem", v);
      } else if (matchAny(args, i, {"-iquote"}, true, v)) {
        includeDir("-iquote", v);
      } else if (matchAny(args, i, {"-idirafter"}, true, v)) {
        includeDir("-idirafter", v);
      } else if (matchAny(args, i, {"-include", "--pre-include"}, false, v)) {
        includeFile("-include", v);
      } else if (matchAny(args, i, {"-imacros"}, false, v)) {
        includeFile("-imacros", v);
      } else if (matchAny(args, i, {"-D", "--define-macro"}, true, v)) {
        out.push_back("-D" + v);
      } else if (matchAny(args, i, {"-U", "--undefine-macro"}, true, v)) {
        out.push_back("-U" + v);
      } else if (matchAny(args, i, {"-std", "--std"}, false, v)) {
        out.push_back("-std=" + v);
        sawStd = true;
      } else if (matchAny(args, i, {"-isysroot", "--sysroot", "-stdlib", "--gcc-toolchain",
                                    "--gcc-install-dir"},
                          false, v)) {
        StringRef name = a.take_until([](char c) { return c == '='; });
        if (name == "-isysroot") {
          out.push_back("-isysroot");
          out.push_back(absolutize(v, dir));
        } else {
          out.push_back(name.str() + "=" + (name == "-stdlib" ? v : absolutize(v, dir)));
        }
      }
      // GPU architectures.
      else if (matchAny(args, i, {"-gencode", "--generate-code"}, false, v)) {
        addGencode(v, arch);
      } else if (matchAny(args, i, {"-arch", "--gpu-architecture", "--cuda-gpu-arch",
                                    "--offload-arch", "-code", "--gpu-code"},
                          false, v)) {
        addArchList(v, arch);
      }
      // Language.
      else if (matchAny(args, i, {"-x", "--x"}, true, v)) {
        if (v == "cu" || v == "cuda")
          language = "cuda";
        else
          notes.push_back("'-x " + v + "' ignored: the file is parsed as CUDA");
      }
      // Host compiler flags.
      else if (matchAny(args, i, {"-Xcompiler", "--compiler-options"}, false, v)) {
        hostCompilerFlags(v);
      }
      // nvcc -Werror KIND,...; gcc -Werror, -Werror=foo.
      else if (a == "-Werror" || a == "--Werror") {
        if (i + 1 < args.size() && isNvccWarningKinds(args[i + 1]))
          ++i;
      } else if (matchAny(args, i, {"-Xclang", "-mllvm"}, false, v)) {
        notes.push_back("dropped '" + arg + " " + v + "'");
      } else if (inList(a, kKeepPlain) || a.starts_with("-ftemplate-depth=") ||
                 a.starts_with("-fconstexpr-depth=") || a.starts_with("-fconstexpr-steps=") ||
                 a.starts_with("-fbracket-depth=") || a.starts_with("-fms-compatibility-version=")) {
        out.push_back(arg);
      } else if (inList(a, kDropPlain)) {
        // nothing to keep
      } else if (dropWithValue(args, i)) {
        // consumed
      } else if (a.starts_with("-W") || a.starts_with("-O") || a.starts_with("-g") ||
                 a.starts_with("-f") || a.starts_with("-m") || a.starts_with("-pedantic") ||
                 a.starts_with("--pedantic") || a.starts_with("-Werror") ||
                 a.starts_with("--Werror") || a.starts_with("-ansi") || a.starts_with("-save-temps") ||
                 a.starts_with("-flto") || a.starts_with("--cuda-path=") ||
                 a.starts_with("--resource-usage") || a.starts_with("-fdiagnostics")) {
        // warnings, optimization, debug info, code generation
      } else {
        notes.push_back("dropped unknown flag '" + arg + "'");
      }
    }
  }

  bool dropWithValue(const std::vector<std::string> &args, size_t &i) {
    StringRef a(args[i]);
    // -o x, -rdc true, -MF file ...
    if (inList(a, kDropWithValue)) {
      if (i + 1 < args.size())
        ++i;
      return true;
    }
    // -rdc=true, --diag-suppress=177, -Xptxas=-v ...
    size_t eq = a.find('=');
    if (eq != StringRef::npos && inList(a.substr(0, eq), kDropWithValue))
      return true;
    // Joined forms of the few gcc options that allow them (-L/usr/lib, -lfoo, -MFfile).
    for (StringRef n : {"-L", "-l", "-MF", "-MT", "-MQ", "-o"})
      if (a.starts_with(n) && a.size() > n.size())
        return true;
    return false;
  }
};

} // namespace

std::vector<std::string> translateCompileCommand(const std::vector<std::string> &commandLine,
                                                 const std::string &directory,
                                                 std::vector<std::string> *notes) {
  Translator t;
  t.dir = directory;
  std::vector<std::string> rest;
  size_t start = 0;
  if (!commandLine.empty() && !StringRef(commandLine[0]).starts_with("-") &&
      !looksLikeSource(commandLine[0]))
    start = 1; // the compiler
  // A launcher in front of the compiler (ccache nvcc ...).
  if (start == 1 && commandLine.size() > 1 && looksLikeCompiler(commandLine[1]) &&
      !looksLikeSource(commandLine[1]))
    start = 2;
  rest.assign(commandLine.begin() + std::min(start, commandLine.size()), commandLine.end());
  std::vector<std::string> args;
  expandInto(rest, directory, args, t.notes, 0);
  t.run(args);
  if (!t.language.empty()) {
    t.out.push_back("-x");
    t.out.push_back(t.language);
  }
  std::string arch = chooseArch(t.arch, t.notes);
  if (!arch.empty())
    t.out.push_back("--cuda-gpu-arch=" + arch);
  if (notes)
    notes->insert(notes->end(), t.notes.begin(), t.notes.end());
  return t.out;
}

} // namespace warplint
