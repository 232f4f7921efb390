#include "driver/ProbeCommand.h"
#include "analyzer/profile/HardwareProfile.h"
#include "driver/Exec.h"
#include "printers/ProfileReport.h"

#include <filesystem>
#include <iostream>
#include <llvm/Support/FileSystem.h>

namespace warplint {

namespace {

const char *const kProbeUsage = R"(usage: warplint probe --report PROFILE [--probe ID[,ID...]]...
       warplint probe [SUITE-OPTIONS...]

--report prints a hardware profile as tables: device, clocks, software and
provenance, then every measured value (median, min, max, spread over the runs)
and the derived facts, for all probes or those named with --probe. PROFILE is
a bundled name (h100, h200) or a file written by the probe suite.

Anything else runs the probe suite on this machine's GPU (the warplint-probe
binary, built beside warplint where CMake found a CUDA compiler) with the
given options, e.g. `warplint probe --out my.json`, `warplint probe --list`,
`warplint probe --only dram_copy,tlb_reach --runs 9`; see probes/README.md.
Exit status: 2 where there is no GPU, no probe binary, or a bad profile.
)";

std::vector<std::string> splitIds(const std::string &list) {
  std::vector<std::string> ids;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string id = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!id.empty())
      ids.push_back(id);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return ids;
}

int report(const std::vector<std::string> &args) {
  std::string profile;
  std::vector<std::string> ids;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if ((a == "--report" || a == "--probe") && i + 1 >= args.size()) {
      std::cerr << "warplint: error: probe: " << a << " needs a value\n\n" << kProbeUsage;
      return 2;
    }
    if (a == "--report")
      profile = args[++i];
    else if (a == "--probe")
      for (const std::string &id : splitIds(args[++i]))
        ids.push_back(id);
    else {
      std::cerr << "warplint: error: probe: unknown option '" << a << "' with --report\n\n"
                << kProbeUsage;
      return 2;
    }
  }
  try {
    std::string text = HardwareProfile::loadText(profile);
    std::cout << renderProfileReport(text, ids);
  } catch (const std::exception &e) {
    std::cerr << "warplint: error: probe --report: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

} // namespace

int runProbe(const char *argv0, const std::vector<std::string> &args) {
  for (const std::string &a : args)
    if (a == "-h" || a == "--help") {
      std::cout << kProbeUsage;
      return 0;
    }
  for (const std::string &a : args)
    if (a == "--report")
      return report(args);
  namespace fs = std::filesystem;
  std::string self = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&runProbe));
  fs::path suite = fs::path(self.empty() ? argv0 : self).parent_path() / "warplint-probe";
  if (!fs::exists(suite)) {
    std::cerr << "warplint: error: probe: the probe suite was not built (" << suite.string()
              << " is missing: CMake found no CUDA compiler). Build it with "
                 "`cmake -S probes -B build-probes && cmake --build build-probes`; "
                 "`warplint probe --report PROFILE` works without it.\n";
    return 2;
  }
  std::vector<std::string> argv = {suite.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  execProgram(suite.string(), std::move(argv), /*searchPath=*/false);
  std::cerr << "warplint: error: probe: could not start " << suite.string() << "\n";
  return 2;
}

} // namespace warplint
