// `warplint probe`: `--report PROFILE|NAME` prints a hardware profile's tables
// (printers/ProfileReport); anything else runs the GPU probe suite, the
// warplint-probe binary built beside warplint where CMake found a CUDA
// compiler (probes/README.md).
#pragma once

#include <string>
#include <vector>

namespace warplint {

// Exit status: 0 report printed (or the suite's own status), 2 usage error,
// unreadable or invalid profile, or no probe binary.
int runProbe(const char *argv0, const std::vector<std::string> &args);

} // namespace warplint
