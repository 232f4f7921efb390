#include "lsp/Server.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace warplint::lsp {

namespace {

// A request that fails with a JSON-RPC error.
struct RequestError {
  int code;
  std::string message;
};

const json &member(const json &object, const char *key) {
  static const json null;
  if (!object.is_object() || !object.contains(key))
    return null;
  return object[key];
}

std::string stringMember(const json &object, const char *key) {
  const json &v = member(object, key);
  if (!v.is_string())
    throw RequestError{InvalidParams, std::string("missing string '") + key + "'"};
  return v.get<std::string>();
}

std::string documentUri(const json &params) { return stringMember(member(params, "textDocument"), "uri"); }

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

} // namespace

Server::Server(Transport &transport, Analyze analyze, ServerOptions options)
    : transport_(transport), analyze_(std::move(analyze)), options_(std::move(options)),
      worker_([this] { workerLoop(); }) {}

Server::~Server() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

int Server::run() {
  std::string body, error;
  while (!exitRequested_) {
    ReadStatus status = transport_.read(body, error);
    if (status == ReadStatus::End)
      break;
    if (status == ReadStatus::BadHeader) {
      std::cerr << "warplint lsp: " << error << "\n";
      transport_.write({{"jsonrpc", "2.0"}, {"id", nullptr},
                        {"error", {{"code", ParseError}, {"message", error}}}});
      continue;
    }
    handle(body);
  }
  return shutdownRequested_ ? 0 : 1;
}

void Server::handle(const std::string &body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    transport_.write({{"jsonrpc", "2.0"}, {"id", nullptr},
                      {"error", {{"code", ParseError}, {"message", "message is not valid JSON"}}}});
    return;
  }
  dispatch(message);
}

void Server::dispatch(const json &message) {
  const json &id = member(message, "id");
  const json &method = member(message, "method");
  bool isRequest = message.is_object() && message.contains("id");
  if (!method.is_string()) {
    if (isRequest && !message.contains("result") && !message.contains("error"))
      transport_.write({{"jsonrpc", "2.0"}, {"id", id},
                        {"error", {{"code", InvalidRequest}, {"message", "request without a method"}}}});
    return; // a response to a request we never sent, or junk without an id
  }
  const json &params = member(message, "params");
  const std::string name = method.get<std::string>();
  if (!isRequest) {
    try {
      notification(name, params);
    } catch (const RequestError &e) {
      std::cerr << "warplint lsp: " << name << ": " << e.message << "\n";
    }
    return;
  }
  json response = {{"jsonrpc", "2.0"}, {"id", id}};
  try {
    response["result"] = request(name, params);
  } catch (const RequestError &e) {
    response["error"] = {{"code", e.code}, {"message", e.message}};
  } catch (const std::exception &e) {
    response["error"] = {{"code", InternalError}, {"message", e.what()}};
  }
  transport_.write(response);
}

json Server::request(const std::string &method, const json &params) {
  if (method == "initialize") {
    if (initialized_)
      throw RequestError{InvalidRequest, "initialize was already called"};
    initialized_ = true;
    return initializeResult(options_.version);
  }
  if (!initialized_)
    throw RequestError{ServerNotInitialized, "the server is not initialized"};
  if (shutdownRequested_)
    throw RequestError{InvalidRequest, "the server is shutting down"};
  if (method == "shutdown") {
    std::lock_guard<std::mutex> lock(mutex_); // the worker reads the flag under it
    shutdownRequested_ = true;
    queue_.clear(); // nothing more will be published
    return nullptr;
  }
  if (method == "textDocument/codeAction")
    return codeActions(params);
  throw RequestError{MethodNotFound, "method not found: " + method};
}

void Server::notification(const std::string &method, const json &params) {
  if (method == "exit") {
    exitRequested_ = true;
    return;
  }
  if (!initialized_ || shutdownRequested_)
    return; // the protocol says to drop notifications then
  if (method == "textDocument/didOpen")
    open(params);
  else if (method == "textDocument/didChange")
    change(params);
  else if (method == "textDocument/didClose")
    close(params);
  // initialized, didSave (the buffer's text is already what was analyzed),
  // $/cancelRequest and anything unknown need no answer.
}

void Server::open(const json &params) {
  const json &item = member(params, "textDocument");
  std::string uri = stringMember(item, "uri");
  std::string path = uriToPath(uri);
  if (path.empty())
    throw RequestError{InvalidParams, "not a local file: " + uri};
  std::lock_guard<std::mutex> lock(mutex_);
  Document &doc = documents_[uri];
  doc.path = path;
  doc.text = stringMember(item, "text");
  doc.version = member(item, "version").is_number_integer() ? member(item, "version").get<long>() : 0;
  doc.analyzed.reset();
  schedule(uri, std::chrono::milliseconds(0));
}

void Server::change(const json &params) {
  std::string uri = documentUri(params);
  const json &changes = member(params, "contentChanges");
  if (!changes.is_array() || changes.empty())
    throw RequestError{InvalidParams, "no contentChanges"};
  // Full sync: the last change holds the whole text.
  const json &last = changes.back();
  if (last.contains("range"))
    throw RequestError{InvalidParams, "incremental change sent to a full-sync server"};
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = documents_.find(uri);
  if (it == documents_.end())
    throw RequestError{InvalidParams, "change to a document that is not open: " + uri};
  it->second.text = stringMember(last, "text");
  const json &version = member(member(params, "textDocument"), "version");
  it->second.version = version.is_number_integer() ? version.get<long>() : it->second.version + 1;
  schedule(uri, options_.debounce);
}

void Server::close(const json &params) {
  std::string uri = documentUri(params);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    documents_.erase(uri);
    queue_.erase(uri);
  }
  idle_.notify_all();
  // Diagnostics of a closed file would linger in the editor otherwise.
  transport_.write({{"jsonrpc", "2.0"},
                    {"method", "textDocument/publishDiagnostics"},
                    {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
}

json Server::codeActions(const json &params) {
  std::string uri = documentUri(params);
  const json &range = member(params, "range");
  if (!range.is_object() || !range.contains("start") || !range.contains("end"))
    throw RequestError{InvalidParams, "missing range"};
  json actions = json::array();
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = documents_.find(uri);
  if (it == documents_.end())
    return actions;
  const Document &doc = it->second;
  // Fix offsets point into the analyzed text: after an edit they are stale
  // until the next analysis, and no action is better than a wrong edit.
  if (!doc.analyzed || doc.analyzed->version != doc.version || doc.analyzed->text != doc.text)
    return actions;
  std::map<std::string, std::string> diskCache;
  TextOf textOf = textSource(diskCache);
  for (const Finding &f : doc.analyzed->report.findings) {
    if (f.fixes.empty() || f.loc.file != doc.path || !f.loc.valid())
      continue;
    json diagnostic = findingDiagnostic(f, doc.path, doc.text, textOf);
    if (!rangesTouch(diagnostic["range"], range))
      continue;
    json action = fixCodeAction(f, diagnostic, textOf);
    if (!action.is_null())
      actions.push_back(std::move(action));
  }
  return actions;
}

TextOf Server::textSource(std::map<std::string, std::string> &diskCache) const {
  return [this, &diskCache](const std::string &path) -> const std::string * {
    for (const auto &[uri, doc] : documents_)
      if (doc.path == path)
        return &doc.text;
    auto it = diskCache.find(path);
    if (it == diskCache.end()) {
      std::optional<std::string> text = readFile(path);
      if (!text)
        return nullptr;
      it = diskCache.emplace(path, std::move(*text)).first;
    }
    return &it->second;
  };
}

void Server::schedule(const std::string &uri, std::chrono::milliseconds delay) {
  queue_[uri] = std::chrono::steady_clock::now() + delay; // replaces queued work
  wake_.notify_all();
}

void Server::publish(const std::string &uri, long version, const json &diagnostics) {
  transport_.write({{"jsonrpc", "2.0"},
                    {"method", "textDocument/publishDiagnostics"},
                    {"params", {{"uri", uri}, {"version", version}, {"diagnostics", diagnostics}}}});
}

void Server::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (stopping_)
      return;
    if (queue_.empty()) {
      idle_.notify_all();
      wake_.wait(lock);
      continue;
    }
    auto next = queue_.begin();
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if (it->second < next->second)
        next = it;
    if (next->second > std::chrono::steady_clock::now()) {
      wake_.wait_until(lock, next->second); // a newer change may move it later
      continue;
    }
    std::string uri = next->first;
    queue_.erase(next);
    auto doc = documents_.find(uri);
    if (doc == documents_.end())
      continue;
    std::string path = doc->second.path, text = doc->second.text;
    long version = doc->second.version;
    running_ = true;
    lock.unlock();
    DocumentReport report;
    try {
      report = analyze_(path, text);
    } catch (const std::exception &e) {
      report.fatalError = std::string("internal error: ") + e.what();
    }
    lock.lock();
    running_ = false;
    doc = documents_.find(uri);
    // Closed, changed or shut down meanwhile: the result is stale.
    if (doc != documents_.end() && doc->second.version == version && doc->second.text == text &&
        !shutdownRequested_) {
      std::map<std::string, std::string> diskCache;
      json diagnostics = reportDiagnostics(report, path, text, textSource(diskCache));
      doc->second.analyzed = Analyzed{version, text, std::move(report)};
      publish(uri, version, diagnostics); // under the lock: never after a close's clear
    }
    idle_.notify_all();
  }
}

void Server::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !running_; });
}

} // namespace warplint::lsp
