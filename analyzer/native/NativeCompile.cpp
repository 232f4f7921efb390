#include "analyzer/native/NativeCompile.h"
#include "analyzer/native/SassMix.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace warplint {

namespace {

// Bumped when what a cache entry holds, or how it is keyed, changes.
// 2: the native code (nvdisasm of the cubin) beside ptxas's output.
constexpr int kCacheFormat = 2;

std::string hex64(uint64_t h) {
  static const char *digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4)
    out[i] = digits[h & 15];
  return out;
}

std::string absoluteFrom(const std::string &dir, const std::string &path) {
  if (path.empty() || llvm::sys::path::is_absolute(path) || dir.empty())
    return path;
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, path);
  llvm::sys::path::remove_dots(p, true);
  return std::string(p);
}

// Every input of the compile in one string: two entries with the same key
// are the same compilation.
std::string cacheKey(const PtxasCompileRequest &r, const std::string &nvcc, const std::vector<std::string> &flags) {
  std::string text = "warplint-ptxas-cache " + std::to_string(kCacheFormat) + "\n" + nvcc + "\n" +
                     std::to_string(r.cuda->major) + "." + std::to_string(r.cuda->minor) + "\n" + r.job->file +
                     "\n" + r.inputsHash + "\n";
  for (const std::string &f : flags)
    text += f + "\n";
  uint64_t a = llvm::xxh3_64bits(llvm::StringRef(text));
  uint64_t b = llvm::xxh3_64bits(llvm::StringRef(text + "#"));
  return hex64(a) + hex64(b);
}

bool readEntry(const std::string &path, const std::string &wantTool, PtxasCompile &out) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return false;
  nlohmann::json j = nlohmann::json::parse((*buffer)->getBuffer().str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("format", 0) != kCacheFormat || !j.contains("rc") ||
      !j["rc"].is_number_integer() || !j.contains("log") || !j["log"].is_string())
    return false; // unreadable or another format: compiled again and replaced
  int rc = j["rc"].get<int>();
  // Compiled without a disassembler, or with another one: compiled again
  // where the native code is wanted now.
  std::string tool = j.value("sass_tool", std::string());
  if (rc == 0 && tool != wantTool)
    return false;
  out.log = j["log"].get<std::string>();
  out.ok = rc == 0;
  if (!out.ok)
    out.error = "nvcc failed (exit status " + std::to_string(rc) + ")";
  out.sassTool = tool;
  out.sassError = j.value("sass_error", std::string());
  if (j.contains("sass") && j["sass"].is_string() && !sassFromJson(j["sass"].get<std::string>(), out.sass))
    return false;
  out.fromCache = true;
  return true;
}

// Written to a temporary file in the same folder, then renamed: a reader
// never sees half an entry, and two processes writing the same key both
// leave a whole one.
void writeEntry(const std::string &dir, const std::string &path, int rc, const PtxasCompile &c,
                const std::string &sassJson) {
  if (llvm::sys::fs::create_directories(dir))
    return; // no cache, same results
  nlohmann::json j = {{"format", kCacheFormat}, {"rc", rc}, {"arch", c.arch}, {"log", c.log}};
  if (!c.sassTool.empty())
    j["sass_tool"] = c.sassTool;
  if (!c.sassError.empty())
    j["sass_error"] = c.sassError;
  if (!sassJson.empty())
    j["sass"] = sassJson;
  llvm::SmallString<256> tmp;
  int fd = -1;
  if (llvm::sys::fs::createUniqueFile(dir + "/.entry-%%%%%%%%", fd, tmp))
    return;
  std::string text = j.dump();
  bool written = false;
  if (FILE *f = fdopen(fd, "wb")) {
    written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    written = std::fclose(f) == 0 && written;
  } else {
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  if (!written || llvm::sys::fs::rename(tmp, path))
    llvm::sys::fs::remove(tmp);
}

} // namespace

bool parsePtxasMode(const std::string &text, PtxasMode &mode) {
  if (text == "off")
    mode = PtxasMode::Off;
  else if (text == "auto")
    mode = PtxasMode::Auto;
  else if (text == "on")
    mode = PtxasMode::On;
  else if (text == "cache-only")
    mode = PtxasMode::CacheOnly;
  else
    return false;
  return true;
}

const char *ptxasModeName(PtxasMode mode) {
  switch (mode) {
  case PtxasMode::Off: return "off";
  case PtxasMode::Auto: return "auto";
  case PtxasMode::On: return "on";
  case PtxasMode::CacheOnly: return "cache-only";
  }
  return "off";
}

std::vector<std::string> nvccDeviceFlags(const CompileJob &job, std::string &arch) {
  std::vector<std::string> out;
  arch = "sm_90";
  const std::string &dir = job.directory;
  for (size_t i = 0; i < job.flags.size(); ++i) {
    const std::string &f = job.flags[i];
    auto starts = [&](const char *p) { return f.rfind(p, 0) == 0; };
    if (starts("--cuda-gpu-arch=") || starts("--offload-arch="))
      arch = f.substr(f.find('=') + 1);
    else if ((f == "-I" || f == "-isystem") && i + 1 < job.flags.size())
      out.push_back(f), out.push_back(absoluteFrom(dir, job.flags[++i]));
    else if ((f == "-D" || f == "-U") && i + 1 < job.flags.size())
      out.push_back(f), out.push_back(job.flags[++i]);
    else if (starts("-isystem"))
      out.push_back("-isystem"), out.push_back(absoluteFrom(dir, f.substr(8)));
    else if (starts("-I"))
      out.push_back("-I" + absoluteFrom(dir, f.substr(2)));
    else if (starts("-D") || starts("-U") || starts("-std="))
      out.push_back(f);
  }
  out.push_back("-arch=" + arch);
  return out;
}

std::string defaultNativeCacheDir() {
  if (const char *d = std::getenv("WARPLINT_CACHE_DIR"); d && *d)
    return d;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/warplint";
  if (const char *h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/warplint";
  return "";
}

namespace {

// The cubin's native code with its source lines (`nvdisasm -c -gi`): parsed
// into `out.sass`, and its compact form for the cache entry; or why not.
std::string disassemble(const std::string &nvdisasm, const std::string &cubin, unsigned wait, PtxasCompile &out) {
  llvm::SmallString<128> text;
  if (llvm::sys::fs::createTemporaryFile("warplint-sass", "txt", text)) {
    out.sassError = "cannot create a temporary file for nvdisasm";
    return "";
  }
  std::vector<llvm::StringRef> argv{nvdisasm, "-c", "-gi", cubin};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(text), llvm::StringRef(text)};
  std::string error;
  bool failedToRun = false;
  int rc = llvm::sys::ExecuteAndWait(nvdisasm, argv, std::nullopt, redirects, wait, 0, &error, &failedToRun);
  auto buffer = llvm::MemoryBuffer::getFile(text);
  std::string listing = buffer ? (*buffer)->getBuffer().str() : "";
  llvm::sys::fs::remove(text);
  if (failedToRun || rc != 0) {
    out.sassError = "nvdisasm failed" + (error.empty() ? " (exit status " + std::to_string(rc) + ")" : ": " + error);
    return "";
  }
  std::map<std::string, SassFunction> functions = parseNvdisasm(listing);
  for (auto &[name, f] : functions)
    out.sass[name] = std::make_shared<const SassFunction>(f);
  return sassToJson(functions);
}

} // namespace

PtxasCompile compileWithPtxasVerbose(const PtxasCompileRequest &r) {
  PtxasCompile out;
  std::string nvcc = r.cuda->root + "/bin/nvcc";
  std::vector<std::string> flags = nvccDeviceFlags(*r.job, out.arch);
  // With a disassembler, the cubin keeps its source lines (-lineinfo: line
  // tables only; the code ptxas emits is the same) and its native code is
  // read. The flag is part of the cache key.
  std::string nvdisasm = r.nvdisasm.empty() ? findNvdisasm(r.cuda->root) : r.nvdisasm;
  std::string wantTool;
  if (!nvdisasm.empty()) {
    flags.push_back("-lineinfo");
    wantTool = "nvdisasm -c -gi of the file's cubin (" + nvdisasm + ")";
  }
  std::string entry;
  if (!r.cacheDir.empty()) {
    entry = r.cacheDir + "/ptxas-" + cacheKey(r, nvcc, flags) + ".json";
    if (readEntry(entry, wantTool, out)) {
      return out;
    }
  }
  if (!r.mayCompile) {
    out.error = "no cached compile of this content (nvcc is not run on it)";
    return out;
  }
  if (!llvm::sys::fs::can_execute(nvcc)) {
    out.error = "no nvcc in " + r.cuda->root + "/bin";
    return out;
  }
  llvm::SmallString<128> cubin, log;
  if (llvm::sys::fs::createTemporaryFile("warplint-ptxas", "cubin", cubin) ||
      llvm::sys::fs::createTemporaryFile("warplint-ptxas", "log", log)) {
    out.error = "cannot create a temporary file for nvcc";
    return out;
  }
  std::vector<std::string> args{nvcc, "-cubin", "-Xptxas", "-v", "-o", std::string(cubin)};
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back(r.job->file);
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string error;
  bool failedToRun = false;
  unsigned wait = r.timeoutSeconds > 0 ? static_cast<unsigned>(r.timeoutSeconds) + 1 : 0;
  int rc = llvm::sys::ExecuteAndWait(nvcc, argv, std::nullopt, redirects, wait, 0, &error, &failedToRun);
  auto buffer = llvm::MemoryBuffer::getFile(log);
  out.log = buffer ? (*buffer)->getBuffer().str() : "";
  std::string sassJson;
  if (!failedToRun && rc == 0 && !nvdisasm.empty()) {
    out.sassTool = wantTool;
    sassJson = disassemble(nvdisasm, std::string(cubin), wait, out);
  }
  llvm::sys::fs::remove(cubin);
  llvm::sys::fs::remove(log);
  if (failedToRun || rc < 0) {
    // Not nvcc's verdict on the file (it could not start, or was stopped):
    // nothing is cached, the next run tries again.
    out.error = rc == -2 ? (wait ? "nvcc crashed or did not finish within " + std::to_string(wait) + " s" : "nvcc crashed")
                         : "nvcc could not be run" + (error.empty() ? std::string() : ": " + error);
    return out;
  }
  out.ok = rc == 0;
  if (!out.ok)
    out.error = "nvcc failed (exit status " + std::to_string(rc) + ")";
  if (!entry.empty())
    writeEntry(r.cacheDir, entry, rc, out, sassJson);
  return out;
}

} // namespace warplint
