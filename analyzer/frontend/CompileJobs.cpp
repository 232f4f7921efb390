// Compile jobs (from the command line or a compilation database) to clang
// CUDA device-only syntax checks.
#include "analyzer/frontend/CompileJobs.h"
#include "analyzer/frontend/PathText.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#ifndef WARPLINT_CLANG_RESOURCE_DIR
#define WARPLINT_CLANG_RESOURCE_DIR ""
#endif

namespace warplint {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using llvm::StringRef;

namespace {

bool forcesLanguage(const std::vector<std::string> &flags) {
  // translateCompileCommand keeps only `-x cuda`; anything else was dropped.
  return std::find(flags.begin(), flags.end(), "-x") != flags.end();
}

bool hasFlagPrefix(const std::vector<std::string> &flags, StringRef prefix) {
  for (const auto &f : flags)
    if (StringRef(f).starts_with(prefix))
      return true;
  return false;
}

// clang 19 knows CUDA up to 12.5 (-target-sdk-version decides, among others,
// which launch API `<<<>>>` lowers to).
std::string sdkVersionFor(const CudaInstallation &cuda) {
  int major = cuda.major, minor = cuda.minor;
  if (major == 0 || major > 12 || (major == 12 && minor > 5)) {
    major = 12;
    minor = 5;
  }
  return std::to_string(major) + "." + std::to_string(minor);
}


bool isCudaCommand(const std::vector<std::string> &argv, const std::string &file) {
  if (isCudaSourceName(file))
    return true;
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    if ((argv[i] == "-x" || argv[i] == "--x") && (argv[i + 1] == "cu" || argv[i + 1] == "cuda"))
      return true;
  for (const auto &a : argv)
    if (a == "-x=cu" || a == "--x=cu" || a == "-xcu" || a == "-xcuda")
      return true;
  return false;
}

} // namespace

bool loadCompileJobs(const std::string &buildDir, const std::vector<std::string> &files,
                     std::vector<CompileJob> &jobs, std::string &error) {
  std::string dbPath = buildDir;
  std::string dbDir = buildDir;
  if (fs::is_directory(buildDir)) {
    dbPath = joinPath(buildDir, "compile_commands.json");
  } else if (path::filename(buildDir) == "compile_commands.json") {
    dbDir = std::string(path::parent_path(buildDir));
  } else if (!fs::exists(buildDir)) {
    error = "build directory '" + buildDir + "' does not exist";
    return false;
  }
  dbDir = normalizeAbsolute(dbDir, currentDir());
  if (!fs::exists(dbPath)) {
    error = "no compile_commands.json in " + buildDir +
            ": configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON";
    return false;
  }
  auto buf = llvm::MemoryBuffer::getFile(dbPath, /*IsText=*/true);
  if (!buf) {
    error = "cannot read " + dbPath + ": " + buf.getError().message();
    return false;
  }
  nlohmann::json db;
  try {
    db = nlohmann::json::parse((*buf)->getBuffer().begin(), (*buf)->getBuffer().end());
  } catch (const nlohmann::json::exception &e) {
    error = "malformed " + dbPath + ": " + e.what();
    return false;
  }
  if (!db.is_array()) {
    error = "malformed " + dbPath + ": expected a JSON array of compile commands";
    return false;
  }

  struct Entry {
    std::string file, directory;
    std::vector<std::string> argv;
  };
  std::vector<Entry> entries;
  for (size_t idx = 0; idx < db.size(); ++idx) {
    const auto &e = db[idx];
    auto bad = [&](const std::string &why) {
      error = "malformed " + dbPath + ": entry " + std::to_string(idx) + " " + why;
      return false;
    };
    if (!e.is_object())
      return bad("is not an object");
    if (!e.contains("file") || !e["file"].is_string())
      return bad("has no \"file\" string");
    if (!e.contains("directory") || !e["directory"].is_string())
      return bad("has no \"directory\" string");
    Entry en;
    en.directory = normalizeAbsolute(e["directory"].get<std::string>(), dbDir);
    en.file = normalizeAbsolute(e["file"].get<std::string>(), en.directory);
    if (e.contains("arguments")) {
      if (!e["arguments"].is_array())
        return bad("has a non-array \"arguments\"");
      for (const auto &a : e["arguments"]) {
        if (!a.is_string())
          return bad("has a non-string argument");
        en.argv.push_back(a.get<std::string>());
      }
    } else if (e.contains("command") && e["command"].is_string()) {
      en.argv = tokenize(e["command"].get<std::string>());
    } else {
      return bad("has neither \"arguments\" nor \"command\"");
    }
    entries.push_back(std::move(en));
  }

  auto makeJob = [&](const Entry &en) {
    CompileJob job;
    job.file = en.file;
    job.directory = en.directory;
    job.fromDatabase = true;
    job.flags = translateCompileCommand(en.argv, en.directory, &job.notes);
    return job;
  };

  std::vector<CompileJob> result;
  if (files.empty()) {
    std::set<std::string> seen;
    for (const auto &en : entries) {
      if (!isCudaCommand(en.argv, en.file) || !seen.insert(en.file).second)
        continue;
      result.push_back(makeJob(en));
    }
    if (result.empty()) {
      error = "no CUDA sources (.cu files, or commands with -x cu) in " + dbPath;
      return false;
    }
  } else {
    std::string cwd = currentDir();
    for (const auto &f : files) {
      std::string want = normalizeAbsolute(f, cwd);
      llvm::SmallString<256> wantReal;
      bool haveReal = !fs::real_path(want, wantReal);
      const Entry *found = nullptr;
      for (const auto &en : entries) {
        if (en.file == want) {
          found = &en;
          break;
        }
      }
      if (!found && haveReal) {
        for (const auto &en : entries) {
          llvm::SmallString<256> real;
          if (!fs::real_path(en.file, real) && real == wantReal) {
            found = &en;
            break;
          }
        }
      }
      if (!found) {
        error = f + " is not in " + dbPath;
        return false;
      }
      result.push_back(makeJob(*found));
    }
  }
  jobs.insert(jobs.end(), result.begin(), result.end());
  return true;
}

std::vector<CompileJob> jobsForFiles(const std::vector<std::string> &files,
                                     const std::vector<std::string> &extraArgs) {
  std::string cwd = currentDir();
  std::vector<std::string> notes;
  std::vector<std::string> cmd{"warplint"};
  cmd.insert(cmd.end(), extraArgs.begin(), extraArgs.end());
  std::vector<std::string> flags = translateCompileCommand(cmd, cwd, &notes);
  std::vector<CompileJob> jobs;
  for (const auto &f : files) {
    CompileJob job;
    job.file = normalizeAbsolute(f, cwd);
    job.directory = cwd;
    job.flags = flags;
    job.notes = notes;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

ClangCommand buildClangCommand(const CompileJob &job, const FrontendOptions &opts) {
  ClangCommand cmd;
  cmd.directory = job.directory;

  std::vector<std::string> user = job.flags;
  if (job.fromDatabase && !opts.extraArgs.empty()) {
    std::vector<std::string> cl{"warplint"};
    cl.insert(cl.end(), opts.extraArgs.begin(), opts.extraArgs.end());
    auto extra = translateCompileCommand(cl, job.directory, &cmd.notes);
    user.insert(user.end(), extra.begin(), extra.end());
  }

  std::string share = shareDir();
  if (!opts.forceMinimalCuda) {
    std::string whyNot;
    cmd.cuda = locateCuda(opts.cudaPath, whyNot);
    if (!cmd.cuda)
      cmd.notes.push_back(whyNot + "; using warplint's bundled CUDA declarations");
  } else {
    cmd.notes.push_back("--no-cuda-toolkit: using warplint's bundled CUDA declarations");
  }
  cmd.usesMinimalCuda = !cmd.cuda;

  auto &argv = cmd.argv;
  argv = {"clang++", "-fsyntax-only", "--cuda-device-only"};
  // Every input is parsed as CUDA (.cu, .cuh, and .cpp files compiled with
  // `-x cu`); a `-x cuda` among the user flags already says so.
  if (!forcesLanguage(user)) {
    argv.push_back("-x");
    argv.push_back("cuda");
  }
  if (!hasFlagPrefix(user, "--cuda-gpu-arch=") && !hasFlagPrefix(user, "--offload-arch="))
    argv.push_back("--cuda-gpu-arch=" + (opts.defaultGpuArch.empty() ? std::string("sm_90")
                                                                      : opts.defaultGpuArch));
  if (!hasFlagPrefix(user, "-std=") && !opts.defaultStd.empty())
    argv.push_back("-std=" + opts.defaultStd);
  std::string resourceDir = WARPLINT_CLANG_RESOURCE_DIR;
  if (!resourceDir.empty()) {
    argv.push_back("-resource-dir");
    argv.push_back(resourceDir);
  }
  // Device-only syntax checks never link libdevice; -nocudalib also spares
  // toolkits without nvvm/libdevice. Without it clang no longer passes the
  // SDK version, so pass it ourselves.
  argv.push_back("-nocudalib");
  if (cmd.cuda) {
    const CudaInstallation &c = *cmd.cuda;
    argv.push_back("--cuda-path=" + c.root);
    argv.push_back("-Xclang");
    argv.push_back("-target-sdk-version=" + sdkVersionFor(c));
    std::string cccl = joinPath(joinPath(c.root, "include"), "cccl");
    if (fs::is_directory(cccl)) {
      argv.push_back("-isystem");
      argv.push_back(cccl);
    }
    // CUDA 13 dropped texture_fetch_functions.h, which clang's wrapper still
    // includes: an empty stand-in is searched after the toolkit's headers.
    if ((c.major >= 13 || !fs::exists(joinPath(joinPath(c.root, "include"),
                                               "texture_fetch_functions.h"))) &&
        !share.empty()) {
      argv.push_back("-idirafter");
      argv.push_back(joinPath(share, "compat"));
    }
  } else {
    argv.push_back("-nocudainc");
    if (!share.empty()) {
      // Stand-ins for <cuda_runtime.h> and friends, searched before any user
      // include dir (which may point at a real toolkit's headers).
      argv.push_back("-I" + joinPath(share, "minimal"));
      argv.push_back("-include");
      argv.push_back(joinPath(share, "cuda_minimal.h"));
    } else {
      cmd.notes.push_back("warplint's share directory (cuda_minimal.h) was not found; "
                          "CUDA declarations are missing");
    }
  }
  argv.push_back("-Wno-unknown-cuda-version");
  argv.push_back("-ferror-limit=0");
  argv.push_back("-w");
  argv.insert(argv.end(), user.begin(), user.end());
  argv.push_back(job.file);
  return cmd;
}

} // namespace warplint
