// The language server's protocol layer: framing, the lifecycle (initialize,
// shutdown, exit), errors for bad input, findings as diagnostics and fixes as
// code actions, and the worker's debounce and dropping of stale runs. The
// analysis is a stand-in here; tests/e2e/test_lsp_neovim.sh drives the real
// one through Neovim.
#include "analyzer/frontend/CompilationDatabaseSearch.h"
#include "lsp/Protocol.h"
#include "lsp/Server.h"
#include "lsp/Transport.h"
#include "printers/TextPositions.h"
#include "printers/ToolInfo.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace warplint;
using namespace warplint::lsp;

namespace {

SourceLocation at(const std::string &file, unsigned line, unsigned column) {
  SourceLocation loc;
  loc.file = file;
  loc.line = line;
  loc.column = column;
  return loc;
}

std::string framed(const json &message) {
  std::string body = message.dump();
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

json request(int id, const std::string &method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json notification(const std::string &method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

// Every message the server wrote, parsed.
std::vector<json> messagesIn(const std::string &output) {
  std::istringstream in(output);
  std::ostringstream sink;
  Transport reader(in, sink);
  std::vector<json> messages;
  std::string body, error;
  while (reader.read(body, error) == ReadStatus::Message)
    messages.push_back(json::parse(body));
  return messages;
}

std::vector<json> published(const std::vector<json> &messages) {
  std::vector<json> out;
  for (const json &m : messages)
    if (m.value("method", "") == "textDocument/publishDiagnostics")
      out.push_back(m["params"]);
  return out;
}

const json *responseTo(const std::vector<json> &messages, int id) {
  for (const json &m : messages)
    if (m.contains("id") && m["id"] == id && !m.contains("method"))
      return &m;
  return nullptr;
}

const char *kPath = "/src/k.cu";
const char *kUri = "file:///src/k.cu";
// Line 2 starts with a two-byte character and a four-byte one (a surrogate
// pair in UTF-16) before the identifier the finding points at.
const char *kText = "__global__ void k(float *p) {\n/*\xC3\xA9\xF0\x9F\x98\x80*/ tile[threadIdx.x] = 0;\n}\n";

// A finding on `tile` (byte column 12 of line 2) with a padding fix.
Finding tileFinding(const std::string &text) {
  Finding f;
  f.rule = "shared-bank-conflict";
  f.severity = "warning";
  f.loc = at(kPath, 2, 12);
  f.message = "32-way bank conflict";
  FindingNote n;
  n.loc = at(kPath, 1, 17);
  n.message = "in kernel 'k'";
  f.notes.push_back(n);
  FindingNote follows;
  follows.message = "block (32, 8, 1)";
  f.notes.push_back(follows);
  Fix fix;
  fix.description = "pad 'tile'";
  Replacement r;
  r.file = kPath;
  r.offset = static_cast<unsigned>(text.find("tile") + 4);
  r.length = 0;
  r.text = "/*pad*/";
  fix.replacements.push_back(r);
  f.fixes.push_back(fix);
  return f;
}

TextOf noFiles() {
  return [](const std::string &) -> const std::string * { return nullptr; };
}

// A server over string streams with a stand-in analysis.
struct Harness {
  std::istringstream in;
  std::ostringstream out;
  Transport transport{in, out};
  std::atomic<int> calls{0};
  std::vector<std::string> analyzedTexts; // written by the worker only
  std::unique_ptr<Server> server;

  explicit Harness(std::chrono::milliseconds debounce = std::chrono::milliseconds(0),
                   std::function<void(const std::string &)> during = nullptr) {
    ServerOptions options;
    options.debounce = debounce;
    server = std::make_unique<Server>(transport, [this, during](const std::string &, const std::string &text) {
      ++calls;
      analyzedTexts.push_back(text);
      if (during)
        during(text);
      DocumentReport report;
      if (text.find("tile") != std::string::npos)
        report.findings.push_back(tileFinding(text));
      return report;
    }, options);
  }
  void send(const json &message) { server->handle(message.dump()); }
  void initialize() {
    send(request(1, "initialize", {{"capabilities", json::object()}}));
    send(notification("initialized"));
  }
  void open(const std::string &text, int version = 1) {
    send(notification("textDocument/didOpen",
                      {{"textDocument", {{"uri", kUri}, {"languageId", "cuda"}, {"version", version}, {"text", text}}}}));
  }
  void change(const std::string &text, int version) {
    send(notification("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", version}},},
                                                 {"contentChanges", json::array({{{"text", text}}})}}));
  }
  std::vector<json> messages() { return messagesIn(out.str()); }
};

} // namespace

TEST(LspTransport, ReadsFramedMessagesWithAnyHeaderOrder) {
  std::string body1 = R"({"a":1})", body2 = "{\"b\":\"\xC3\xA9\"}";
  std::istringstream in("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: " +
                        std::to_string(body1.size()) + "\r\n\r\n" + body1 + "content-length: " +
                        std::to_string(body2.size()) + "\r\n\r\n" + body2);
  std::ostringstream out;
  Transport t(in, out);
  std::string body, error;
  ASSERT_EQ(t.read(body, error), ReadStatus::Message);
  EXPECT_EQ(body, body1);
  ASSERT_EQ(t.read(body, error), ReadStatus::Message);
  EXPECT_EQ(body, body2); // the length counts bytes, not characters
  EXPECT_EQ(t.read(body, error), ReadStatus::End);
}

TEST(LspTransport, HeaderWithoutLengthIsReportedAndSkipped) {
  std::istringstream in("Content-Length: x1\r\n\r\nContent-Length: 2\r\n\r\n{}");
  std::ostringstream out;
  Transport t(in, out);
  std::string body, error;
  EXPECT_EQ(t.read(body, error), ReadStatus::BadHeader);
  EXPECT_NE(error.find("Content-Length"), std::string::npos);
  ASSERT_EQ(t.read(body, error), ReadStatus::Message);
  EXPECT_EQ(body, "{}");
}

TEST(LspTransport, WritesContentLengthInBytes) {
  std::istringstream in;
  std::ostringstream out;
  Transport t(in, out);
  t.write(json{{"m", "\xC3\xA9"}});
  EXPECT_EQ(out.str(), "Content-Length: 10\r\n\r\n{\"m\":\"\xC3\xA9\"}"); // \xC3\xA9 is two bytes
}

TEST(LspProtocol, UrisRoundTripWithPercentEncoding) {
  EXPECT_EQ(uriToPath("file:///a%20b/c%2B%2b.cu"), "/a b/c++.cu");
  EXPECT_EQ(uriToPath("file://localhost/x.cu"), "/x.cu");
  EXPECT_EQ(uriToPath("untitled:Untitled-1"), "");
  EXPECT_EQ(uriToPath(pathToUri("/a b/#k%.cu")), "/a b/#k%.cu");
}

TEST(LspProtocol, PositionsCountUtf16CodeUnits) {
  std::string text = kText;
  unsigned line = 0, column = 0;
  ASSERT_TRUE(utf16Position(text, static_cast<unsigned>(text.find("tile")), line, column));
  EXPECT_EQ(line, 2u);
  EXPECT_EQ(column, 9u); // after "/*" 2 + é 1 + 😀 2 + "*/ " 3 code units, 1-based
  EXPECT_EQ(byteOffsetOf(text, 2, 9), text.find("tile"));
  EXPECT_EQ(byteOffsetOf(text, 2, 1000), text.find("\n}"));
}

TEST(LspProtocol, FindingBecomesDiagnostic) {
  std::string text = kText;
  json d = findingDiagnostic(tileFinding(text), kPath, text, noFiles());
  EXPECT_EQ(d["range"]["start"], (json{{"line", 1}, {"character", 8}}));
  EXPECT_EQ(d["range"]["end"], (json{{"line", 1}, {"character", 12}})); // to the end of `tile`
  EXPECT_EQ(d["severity"], 2);
  EXPECT_EQ(d["code"], "shared-bank-conflict");
  EXPECT_EQ(d["codeDescription"]["href"], ruleHelpUri("shared-bank-conflict"));
  EXPECT_EQ(d["message"], "32-way bank conflict");
  ASSERT_EQ(d["relatedInformation"].size(), 2u);
  EXPECT_EQ(d["relatedInformation"][0]["location"]["uri"], kUri);
  EXPECT_EQ(d["relatedInformation"][0]["location"]["range"]["start"], (json{{"line", 0}, {"character", 16}}));
  EXPECT_EQ(d["relatedInformation"][0]["message"], "in kernel 'k'");
  // A note without a place of its own points at the finding.
  EXPECT_EQ(d["relatedInformation"][1]["location"]["range"], d["range"]);
}

TEST(LspProtocol, SeveritiesAndOneCharacterMinimum) {
  EXPECT_EQ(severityOf("error"), 1);
  EXPECT_EQ(severityOf("warning"), 2);
  EXPECT_EQ(severityOf("note"), 3);
  json r = tokenRange("a = b[i];\n", 1, 6); // on '['
  EXPECT_EQ(r["start"]["character"], 5);
  EXPECT_EQ(r["end"]["character"], 6);
}

TEST(LspProtocol, ReportKeepsOnlyThisFileAndSaysWhyNothingParsed) {
  std::string text = kText;
  DocumentReport report;
  report.findings.push_back(tileFinding(text));
  Finding elsewhere = tileFinding(text);
  elsewhere.loc.file = "/src/other.cuh";
  report.findings.push_back(elsewhere);
  FrontendMessage e;
  e.loc = at(kPath, 3, 1);
  e.level = "error";
  e.message = "expected ';'";
  report.messages.push_back(e);
  report.fatalError = "clang produced no AST";
  json ds = reportDiagnostics(report, kPath, text, noFiles());
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(ds[0]["code"], "shared-bank-conflict");
  EXPECT_EQ(ds[1]["severity"], 1);
  EXPECT_EQ(ds[1]["message"], "expected ';'");
  EXPECT_NE(ds[2]["message"].get<std::string>().find("clang produced no AST"), std::string::npos);
}

TEST(LspProtocol, FixBecomesQuickfixWorkspaceEdit) {
  std::string text = kText;
  Finding f = tileFinding(text);
  TextOf textOf = [&](const std::string &path) { return path == kPath ? &text : nullptr; };
  json action = fixCodeAction(f, findingDiagnostic(f, kPath, text, textOf), textOf);
  ASSERT_FALSE(action.is_null());
  EXPECT_EQ(action["kind"], "quickfix");
  EXPECT_EQ(action["title"], "warplint: pad 'tile'");
  EXPECT_EQ(action["diagnostics"][0]["code"], "shared-bank-conflict");
  const json &edits = action["edit"]["changes"][kUri];
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0]["range"]["start"], (json{{"line", 1}, {"character", 12}}));
  EXPECT_EQ(edits[0]["range"]["end"], edits[0]["range"]["start"]);
  EXPECT_EQ(edits[0]["newText"], "/*pad*/");
  // A fix into a file that cannot be read is not offered.
  EXPECT_TRUE(fixCodeAction(f, json::object(), noFiles()).is_null());
}

TEST(LspServer, InitializeAnnouncesSyncAndCodeActions) {
  Harness h;
  h.initialize();
  std::vector<json> messages = h.messages();
  const json *r = responseTo(messages, 1);
  ASSERT_TRUE(r);
  const json &caps = (*r)["result"]["capabilities"];
  EXPECT_EQ(caps["textDocumentSync"]["change"], 1);
  EXPECT_EQ(caps["textDocumentSync"]["openClose"], true);
  EXPECT_EQ(caps["codeActionProvider"]["codeActionKinds"], json::array({"quickfix"}));
  EXPECT_EQ((*r)["result"]["serverInfo"]["name"], "warplint");
}

TEST(LspServer, ErrorsForBadInputWithoutDying) {
  Harness h;
  h.send(request(1, "textDocument/codeAction"));
  h.server->handle("{not json");
  h.initialize();
  h.send(request(3, "workspace/symbol"));
  h.send(request(4, "textDocument/codeAction", {{"textDocument", 5}}));
  h.send(notification("$/unknownNotification"));
  std::vector<json> messages = h.messages();
  ASSERT_TRUE(responseTo(messages, 1));
  EXPECT_EQ((*responseTo(messages, 1))["error"]["code"], ServerNotInitialized);
  bool parseError = false;
  for (const json &m : messages)
    parseError |= m.contains("error") && m["id"].is_null() && m["error"]["code"] == ParseError;
  EXPECT_TRUE(parseError);
  EXPECT_EQ((*responseTo(messages, 3))["error"]["code"], MethodNotFound);
  EXPECT_EQ((*responseTo(messages, 4))["error"]["code"], InvalidParams);
}

TEST(LspServer, ExitStatusDependsOnShutdown) {
  for (bool shutdown : {true, false}) {
    std::string input = framed(request(1, "initialize"));
    if (shutdown)
      input += framed(request(2, "shutdown"));
    input += framed(notification("exit")) + framed(request(9, "never-read"));
    std::istringstream in(input);
    std::ostringstream out;
    Transport t(in, out);
    Server server(t, [](const std::string &, const std::string &) { return DocumentReport{}; });
    EXPECT_EQ(server.run(), shutdown ? 0 : 1);
    std::vector<json> messages = messagesIn(out.str());
    EXPECT_EQ(responseTo(messages, 2) != nullptr, shutdown);
    if (shutdown)
      EXPECT_TRUE((*responseTo(messages, 2))["result"].is_null());
    EXPECT_FALSE(responseTo(messages, 9)); // nothing after exit is read
  }
}

TEST(LspServer, PublishesOnOpenOffersFixAndClearsOnClose) {
  Harness h;
  h.initialize();
  h.open(kText);
  h.server->waitIdle();
  json range = {{"start", {{"line", 1}, {"character", 10}}}, {"end", {{"line", 1}, {"character", 10}}}};
  h.send(request(2, "textDocument/codeAction",
                 {{"textDocument", {{"uri", kUri}}}, {"range", range}, {"context", {{"diagnostics", json::array()}}}}));
  json elsewhere = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 1}}}};
  h.send(request(3, "textDocument/codeAction", {{"textDocument", {{"uri", kUri}}}, {"range", elsewhere}}));
  h.send(notification("textDocument/didClose", {{"textDocument", {{"uri", kUri}}}}));
  std::vector<json> messages = h.messages();
  std::vector<json> diags = published(messages);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0]["uri"], kUri);
  EXPECT_EQ(diags[0]["version"], 1);
  ASSERT_EQ(diags[0]["diagnostics"].size(), 1u);
  EXPECT_EQ(diags[0]["diagnostics"][0]["code"], "shared-bank-conflict");
  EXPECT_TRUE(diags[1]["diagnostics"].empty()); // cleared on close
  const json &actions = (*responseTo(messages, 2))["result"];
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0]["edit"]["changes"][kUri][0]["newText"], "/*pad*/");
  EXPECT_TRUE((*responseTo(messages, 3))["result"].empty()); // not on the finding
}

TEST(LspServer, DebounceCoalescesChangesAndStaleFixesAreNotOffered) {
  Harness h(std::chrono::milliseconds(1500)); // long enough for a loaded machine
  h.initialize();
  h.open("int x;\n");
  h.server->waitIdle();
  std::string v3 = std::string(kText) + "// v3\n";
  h.change(std::string(kText) + "// v2\n", 2);
  h.change(v3, 3);
  // Before the debounce ends, the document's findings are from version 1:
  // a code action now would edit with stale offsets, so there is none.
  json range = {{"start", {{"line", 1}, {"character", 10}}}, {"end", {{"line", 1}, {"character", 10}}}};
  h.send(request(2, "textDocument/codeAction", {{"textDocument", {{"uri", kUri}}}, {"range", range}}));
  h.server->waitIdle();
  EXPECT_EQ(h.calls.load(), 2); // open, then one run for both changes
  EXPECT_EQ(h.analyzedTexts.back(), v3);
  std::vector<json> messages = h.messages();
  EXPECT_TRUE((*responseTo(messages, 2))["result"].empty());
  std::vector<json> diags = published(messages);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[1]["version"], 3);
  EXPECT_EQ(diags[1]["diagnostics"].size(), 1u);
}

TEST(LspServer, RunForAnOldVersionIsDropped) {
  std::promise<void> changed;
  std::shared_future<void> changedFuture = changed.get_future().share();
  std::promise<void> started;
  bool first = true;
  Harness h(std::chrono::milliseconds(0), [&](const std::string &) {
    if (!first)
      return;
    first = false;
    started.set_value();
    changedFuture.wait(); // the editor changes the text while this run parses
  });
  h.initialize();
  h.open(kText, 1);
  started.get_future().wait();
  h.change("int nothing;\n", 2);
  changed.set_value();
  h.server->waitIdle();
  EXPECT_EQ(h.calls.load(), 2);
  std::vector<json> diags = published(h.messages());
  ASSERT_EQ(diags.size(), 1u); // version 1's findings never reach the editor
  EXPECT_EQ(diags[0]["version"], 2);
  EXPECT_TRUE(diags[0]["diagnostics"].empty());
}

TEST(LspCompilationDatabase, FoundAsClangdFindsIt) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("warplint-lsp-db-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "proj/src/kernels");
  fs::create_directories(root / "proj/build");
  std::string file = (root / "proj/src/kernels/k.cu").string();
  // None inside the project yet (whatever the temp dir's parents hold).
  EXPECT_EQ(findCompilationDatabase(file).rfind(root.string(), 0), std::string::npos);
  std::ofstream(root / "proj/build/compile_commands.json") << "[]";
  EXPECT_EQ(findCompilationDatabase(file), (root / "proj/build").string()); // a parent's build/
  std::ofstream(root / "proj/src/compile_commands.json") << "[]";
  EXPECT_EQ(findCompilationDatabase(file), (root / "proj/src").string()); // the nearest wins
  fs::remove_all(root);
}
