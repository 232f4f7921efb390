// `warplint verify`: hands over to the Python module in
// share/warplint/verify/, which runs the program under Nsight Compute and
// checks the static findings against the counters (see
// driver/verify/warplint_verify.py).
#pragma once

#include <string>
#include <vector>

namespace warplint {

// Replaces the process with `python3 warplint_verify.py --warplint <self>
// ARGS...`; returns 2 only when that cannot be started.
int runVerify(const char *argv0, const std::vector<std::string> &args);

} // namespace warplint
