#include "driver/VerifyCommand.h"
#include "analyzer/CompileJobs.h"

#include <filesystem>
#include <iostream>
#include <llvm/Support/FileSystem.h>
#include <unistd.h>

namespace warplint {

int runVerify(const char *argv0, const std::vector<std::string> &args) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates = {(fs::path(shareDir()) / "verify" / "warplint_verify.py").string()};
#ifdef WARPLINT_VERIFY_SOURCE_DIR
  candidates.push_back(std::string(WARPLINT_VERIFY_SOURCE_DIR) + "/warplint_verify.py");
#endif
  std::string script;
  for (const std::string &c : candidates)
    if (fs::exists(c)) {
      script = c;
      break;
    }
  if (script.empty()) {
    std::cerr << "warplint: error: verify: warplint_verify.py not found (looked in "
              << candidates.front() << ")\n";
    return 2;
  }
  std::string self = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&runVerify));
  std::vector<std::string> argvStore = {"python3", script, "--warplint", self.empty() ? argv0 : self};
  argvStore.insert(argvStore.end(), args.begin(), args.end());
  std::vector<char *> cargv;
  for (std::string &a : argvStore)
    cargv.push_back(a.data());
  cargv.push_back(nullptr);
  execvp("python3", cargv.data());
  std::cerr << "warplint: error: verify needs python3 on PATH\n";
  return 2;
}

} // namespace warplint
