// warplint's entry point: parse the command line, dispatch, map failures to
// exit status 2. Everything else lives in Commands.cpp and the libraries.
#include "analyzer/frontend/CompileJobs.h"
#include "driver/CommandLine.h"
#include "driver/Commands.h"
#include "driver/ProbeCommand.h"
#include "driver/VerifyCommand.h"
#include "printers/ToolInfo.h"

#include <exception>
#include <iostream>
#include <llvm/Config/llvm-config.h>

using namespace warplint;

static int dispatch(const CommandLine &cl) {
  switch (cl.command) {
  case Command::Help:
    std::cout << usageText(cl.helpTopic);
    return 0;
  case Command::Version:
    std::cout << kToolName << " " << kToolVersion << " (LLVM " << LLVM_VERSION_STRING << ")\n";
    return 0;
  case Command::Check:
    return runCheck(cl.check);
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
    return dispatch(parsed.commandLine);
  } catch (const std::exception &e) {
    // The analyzer promises not to throw; this is the last line of defense
    // against a crash on input nobody anticipated.
    std::cerr << "warplint: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "warplint: internal error\n";
  }
  return 2;
}
