// warplint's language server: JSON-RPC dispatch, the open documents, and one
// worker thread that analyzes them. Analysis itself is a callback (the driver
// wires the analyzer, compile databases and .warplint.yaml settings in), so
// this layer knows the protocol and nothing about Clang.
//
// Staleness: each document carries the editor's version. A change replaces
// the document's queued run (one queue slot per document, debounced); a run
// whose version is no longer current when it ends is dropped, not published.
// A parse already under way is not interrupted (Clang cannot stop midway).
#pragma once

#include "lsp/Protocol.h"
#include "lsp/Transport.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace warplint::lsp {

// Analyzes `path` whose current (possibly unsaved) contents are `text`.
using Analyze = std::function<DocumentReport(const std::string &path, const std::string &text)>;

struct ServerOptions {
  std::chrono::milliseconds debounce{300}; // quiet time after a change before analyzing
  std::string version = "0.0.0";          // serverInfo.version
};

class Server {
public:
  Server(Transport &transport, Analyze analyze, ServerOptions options = {});
  ~Server();
  Server(const Server &) = delete;
  Server &operator=(const Server &) = delete;

  // Reads and handles messages until `exit` or the end of input. Returns the
  // process exit status: 0 when `shutdown` came first, 1 otherwise.
  int run();

  // Handles one message body (what run() does per message). For tests.
  void handle(const std::string &body);
  // Blocks until no analysis is queued or running. For tests.
  void waitIdle();
  bool exitRequested() const { return exitRequested_; }

private:
  struct Analyzed {
    long version = 0;
    std::string text; // what was analyzed: fixes' offsets point into it
    DocumentReport report;
  };
  struct Document {
    std::string path;
    std::string text;
    long version = 0;
    std::optional<Analyzed> analyzed;
  };

  void dispatch(const json &message);
  json request(const std::string &method, const json &params); // throws RequestError
  void notification(const std::string &method, const json &params);

  void open(const json &params);
  void change(const json &params);
  void close(const json &params);
  json codeActions(const json &params);

  void schedule(const std::string &uri, std::chrono::milliseconds delay); // with mutex_ held
  void publish(const std::string &uri, long version, const json &diagnostics);
  void workerLoop();
  TextOf textSource(std::map<std::string, std::string> &diskCache) const; // with mutex_ held

  Transport &transport_;
  Analyze analyze_;
  ServerOptions options_;

  // Written by the reading thread only; shutdownRequested_ under mutex_, as
  // the worker reads it.
  bool initialized_ = false;
  bool shutdownRequested_ = false;
  bool exitRequested_ = false;

  mutable std::mutex mutex_;
  std::condition_variable wake_;  // new work, or stopping
  std::condition_variable idle_;  // a run ended or the queue emptied
  std::map<std::string, Document> documents_;                          // by URI
  std::map<std::string, std::chrono::steady_clock::time_point> queue_; // URI -> when due
  bool running_ = false;
  bool stopping_ = false;
  std::thread worker_;
};

} // namespace warplint::lsp
