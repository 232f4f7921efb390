// The Language Server Protocol's shapes for warplint's results: findings as
// diagnostics, fixes as quickfix code actions, and the file URIs and UTF-16
// positions editors speak. Pure functions of their inputs; no I/O except
// reading files a diagnostic points into (through `TextOf`).
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warplint::lsp {

using nlohmann::json;

// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

// What one analysis of a document found: the rules' findings (NOLINT-silenced
// ones already removed) and messages about the file itself (a file that does
// not parse says why, not nothing).
struct DocumentReport {
  std::vector<Finding> findings;
  std::vector<FrontendMessage> messages; // compile errors, unmatched NOLINTBEGIN/END
  std::string fatalError; // the unit produced no AST
};

// The text of a file as the editor sees it (an open document's buffer, else
// the file on disk); null when unreadable.
using TextOf = std::function<const std::string *(const std::string &path)>;

// file:///a%20b/c.cu -> /a b/c.cu; empty for a URI that is not a local file.
std::string uriToPath(const std::string &uri);
std::string pathToUri(const std::string &path);

// An LSP position ({line, character}: 0-based, UTF-16) of byte `offset`.
json position(const std::string &text, unsigned offset);
// The range of a diagnostic at 1-based line and byte column: to the end of
// the identifier or number there, at least one character.
json tokenRange(const std::string &text, unsigned line, unsigned byteColumn);

// The initialize request's result: full-text sync with open/close and save
// notifications, quickfix code actions.
json initializeResult(const std::string &version);

// Severity of a finding: error 1, warning 2, note 3 (information).
int severityOf(const std::string &level);

// The diagnostic of a finding in the document `path` with text `text`:
// range, severity, code (the rule id) with its documentation link, the
// message and the notes as related information.
json findingDiagnostic(const Finding &f, const std::string &path, const std::string &text,
                       const TextOf &textOf);
// Every diagnostic of a report that lies in `path`, findings first.
json reportDiagnostics(const DocumentReport &report, const std::string &path, const std::string &text,
                       const TextOf &textOf);

// A fix as a WorkspaceEdit ({"changes": {uri: [TextEdit]}}); null when a
// file it edits cannot be read.
json fixWorkspaceEdit(const Fix &fix, const TextOf &textOf);

// The quickfix code action of a finding's fix (null json when the fix cannot
// be expressed). The edit is the one `check --fix` applies, without its
// re-analysis: the editor shows the result and re-analyzes it as it changes.
json fixCodeAction(const Finding &f, const json &diagnostic, const TextOf &textOf);

// Whether LSP ranges `a` and `b` overlap or touch (a cursor on a diagnostic).
bool rangesTouch(const json &a, const json &b);

} // namespace warplint::lsp
