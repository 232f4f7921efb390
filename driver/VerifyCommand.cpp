#include "driver/VerifyCommand.h"
#include "analyzer/frontend/CompileJobs.h"
#include "driver/Exec.h"

#include <filesystem>
#include <iostream>
#include <llvm/Support/FileSystem.h>

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
  std::vector<std::string> argv = {"python3", script, "--warplint", self.empty() ? argv0 : self};
  argv.insert(argv.end(), args.begin(), args.end());
  execProgram("python3", std::move(argv), /*searchPath=*/true);
  std::cerr << "warplint: error: verify needs python3 on PATH\n";
  return 2;
}

} // namespace warplint
