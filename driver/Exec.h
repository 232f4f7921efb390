// Replacing warplint's process with a helper program (`verify`'s Python
// module, `probe`'s suite binary).
#pragma once

#include <string>
#include <vector>

namespace warplint {

// execv (or execvp when `searchPath`) with argv = `args`; returns only when
// the program could not be started.
void execProgram(const std::string &program, std::vector<std::string> args, bool searchPath);

} // namespace warplint
