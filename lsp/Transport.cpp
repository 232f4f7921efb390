#include "lsp/Transport.h"

#include <cctype>
#include <istream>
#include <ostream>

namespace warplint::lsp {

namespace {

std::string lowered(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

ReadStatus Transport::read(std::string &body, std::string &error) {
  long long length = -1;
  bool sawHeader = false;
  std::string line;
  while (std::getline(in_, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (!sawHeader)
        continue; // stray blank lines between messages
      break;
    }
    sawHeader = true;
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    if (lowered(line.substr(0, colon)) != "content-length")
      continue; // Content-Type and unknown headers are ignored
    std::string value = line.substr(colon + 1);
    size_t first = value.find_first_not_of(" \t");
    value = first == std::string::npos ? "" : value.substr(first);
    length = -1;
    if (!value.empty() && value.size() < 12 && value.find_first_not_of("0123456789") == std::string::npos)
      length = std::stoll(value);
  }
  if (!sawHeader)
    return ReadStatus::End;
  if (length < 0) {
    error = "message header without a valid Content-Length";
    return ReadStatus::BadHeader;
  }
  body.assign(static_cast<size_t>(length), '\0');
  in_.read(body.data(), length);
  if (in_.gcount() != length) {
    body.resize(static_cast<size_t>(in_.gcount()));
    return ReadStatus::End; // truncated by the client going away
  }
  return ReadStatus::Message;
}

void Transport::write(const nlohmann::json &message) {
  // Invalid UTF-8 in a message (a source line in some legacy encoding) is
  // replaced rather than thrown on.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> lock(writeMutex_);
  out_ << "Content-Length: " << body.size() << "\r\n\r\n" << body << std::flush;
}

} // namespace warplint::lsp
