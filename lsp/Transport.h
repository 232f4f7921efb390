// JSON-RPC framing of the Language Server Protocol: each message is a header
// block ("Content-Length: N", blank line) followed by N bytes of JSON.
#pragma once

#include <iosfwd>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace warplint::lsp {

enum class ReadStatus {
  Message,     // `body` holds one message's bytes (not yet parsed)
  End,         // the stream closed between messages
  BadHeader,   // a header block without a usable Content-Length; skipped
};

class Transport {
public:
  Transport(std::istream &in, std::ostream &out) : in_(in), out_(out) {}

  // Reads the next framed message. Only the reading thread calls this.
  ReadStatus read(std::string &body, std::string &error);
  // Writes one message; safe from any thread (the diagnostics worker and the
  // reader both answer).
  void write(const nlohmann::json &message);

private:
  std::istream &in_;
  std::ostream &out_;
  std::mutex writeMutex_;
};

} // namespace warplint::lsp
