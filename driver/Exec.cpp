#include "driver/Exec.h"

#include <unistd.h>

namespace warplint {

void execProgram(const std::string &program, std::vector<std::string> args, bool searchPath) {
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  if (searchPath)
    execvp(program.c_str(), argv.data());
  else
    execv(program.c_str(), argv.data());
}

} // namespace warplint
