// warplint's entry point: parse the command line, dispatch, map failures to
// exit status 2. Everything else lives in Commands.cpp and the libraries.
#include "analyzer/frontend/CompileJobs.h"
#include "driver/CommandLine.h"
#include "driver/Commands.h"
#include "driver/ProbeCommand.h"
#include "driver/VerifyCommand.h"
#include "printers/ToolInfo.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <llvm/Config/llvm-config.h>

using namespace warplint;

// Whether main ends the process without running destructors once a check
// is done (see CheckOptions::processEndsAfter): not under a sanitizer, whose
// leak check runs at exit.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kEndWithoutTeardown = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(leak_sanitizer)
constexpr bool kEndWithoutTeardown = false;
#else
constexpr bool kEndWithoutTeardown = true;
#endif
#else
constexpr bool kEndWithoutTeardown = true;
#endif

static int dispatch(const CommandLine &cl) {
  switch (cl.command) {
  case Command::Help:
    std::cout << usageText(cl.helpTopic);
    return 0;
  case Command::Version:
    std::cout << kToolName << " " << kToolVersion << " (LLVM " << LLVM_VERSION_STRING << ")\n";
    return 0;
  case Command::Check: {
    CheckOptions check = cl.check;
    check.processEndsAfter = kEndWithoutTeardown;
    return runCheck(check);
  }
  case Command::ListRules:
    return runListRules(cl.listRules);
  case Command::Docs:
    return runDocs(cl.docs);
  case Command::Lsp:
    return runLsp(cl.check);
  }
  return 2;
}

int main(int argc, char **argv) {
  setExecutablePath(argv[0]); // run-time resources live next to the executable
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "verify") // GPU check against ncu: a Python module
    return runVerify(argv[0], std::vector<std::string>(args.begin() + 1, args.end()));
  if (!args.empty() && args[0] == "probe") // the GPU suite, or a profile's tables
    return runProbe(argv[0], std::vector<std::string>(args.begin() + 1, args.end()));
  ParseResult parsed = parseCommandLine(args);
  if (!parsed.ok) {
    std::cerr << "warplint: error: " << parsed.error << "\n\n" << usageText(parsed.errorTopic);
    return 2;
  }
  try {
    int status = dispatch(parsed.commandLine);
    if (kEndWithoutTeardown && parsed.commandLine.command == Command::Check) {
      // Output flushed, files written and closed: the caches the analysis
      // kept per thread are not freed one by one either.
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      std::_Exit(status);
    }
    return status;
  } catch (const std::exception &e) {
    // The analyzer promises not to throw; this is the last line of defense
    // against a crash on input nobody anticipated.
    std::cerr << "warplint: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "warplint: internal error\n";
  }
  return 2;
}
