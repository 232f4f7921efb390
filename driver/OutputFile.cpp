#include "driver/OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace warplint {

static std::string describeErrno(const std::string &what, const std::string &path) {
  return "cannot " + what + " '" + path + "': " + std::strerror(errno);
}

bool writeFileAtomically(const std::string &path, const std::string &contents,
                         std::string &error) {
  // Same directory as the target, so that rename() stays within a file system.
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    error = describeErrno("create a temporary file for", path);
    return false;
  }
  std::string tmp(name.data());
  auto abandon = [&](const std::string &message) {
    error = message;
    close(fd);
    unlink(tmp.c_str());
    return false;
  };

  // mkstemp creates 0600; a report is an ordinary file, readable like others.
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);

  const char *data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = write(fd, data, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return abandon(describeErrno("write", tmp));
    data += n;
    left -= static_cast<size_t>(n);
  }
  if (close(fd) != 0) {
    error = describeErrno("write", tmp);
    unlink(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = describeErrno("replace", path);
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace warplint
