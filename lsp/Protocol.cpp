#include "lsp/Protocol.h"
#include "printers/SarifPrinter.h"
#include "printers/TextPositions.h"
#include "printers/ToolInfo.h"

#include <cctype>
#include <map>

namespace warplint::lsp {

namespace {

bool isWordByte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

json rangeOf(const std::string &text, unsigned from, unsigned to) {
  return {{"start", position(text, from)}, {"end", position(text, to)}};
}

// A location for related information: a range in a readable file, else the
// bare line and column as Clang counted them.
json locationOf(const SourceLocation &loc, const TextOf &textOf) {
  json range;
  if (const std::string *text = textOf(loc.file))
    range = tokenRange(*text, loc.line, loc.column);
  else
    range = {{"start", {{"line", loc.line - 1}, {"character", loc.column ? loc.column - 1 : 0}}}};
  if (!range.contains("end"))
    range["end"] = range["start"];
  return {{"uri", pathToUri(loc.file)}, {"range", range}};
}

json positionJson(unsigned line, unsigned column) {
  return {{"line", line - 1}, {"character", column - 1}};
}

} // namespace

std::string uriToPath(const std::string &uri) {
  const std::string scheme = "file://";
  if (uri.compare(0, scheme.size(), scheme) != 0)
    return "";
  std::string rest = uri.substr(scheme.size());
  size_t slash = rest.find('/');
  if (slash == std::string::npos)
    return "";
  std::string host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost")
    return ""; // a remote file: nothing we can parse
  rest = rest.substr(slash);
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hexValue(rest[i + 1]) >= 0 && hexValue(rest[i + 2]) >= 0) {
      path += static_cast<char>(hexValue(rest[i + 1]) * 16 + hexValue(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

std::string pathToUri(const std::string &path) { return "file://" + percentEncodePath(path); }

json position(const std::string &text, unsigned offset) {
  unsigned line = 1, column = 1;
  if (!utf16Position(text, std::min<size_t>(offset, text.size()), line, column))
    return positionJson(1, 1);
  return positionJson(line, column);
}

json tokenRange(const std::string &text, unsigned line, unsigned byteColumn) {
  unsigned lineStart = byteOffsetOf(text, line ? line : 1, 1);
  unsigned lineEnd = lineStart;
  while (lineEnd < text.size() && text[lineEnd] != '\n')
    ++lineEnd;
  unsigned from = std::min(lineStart + (byteColumn ? byteColumn - 1 : 0), lineEnd);
  unsigned to = from;
  while (to < lineEnd && isWordByte(text[to]))
    ++to;
  if (to == from && to < lineEnd) // punctuation or a non-ASCII character: one code point
    for (++to; to < lineEnd && (static_cast<unsigned char>(text[to]) & 0xC0) == 0x80;)
      ++to;
  return rangeOf(text, from, to);
}

json initializeResult(const std::string &version) {
  return {{"capabilities",
           {{"positionEncoding", "utf-16"},
            {"textDocumentSync", {{"openClose", true}, {"change", 1 /* full */}, {"save", true}}},
            {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}}}},
          {"serverInfo", {{"name", kToolName}, {"version", version}}}};
}

int severityOf(const std::string &level) {
  if (level == "error")
    return 1;
  if (level == "warning")
    return 2;
  return 3;
}

json findingDiagnostic(const Finding &f, const std::string &path, const std::string &text,
                       const TextOf &textOf) {
  json d = {{"range", tokenRange(text, f.loc.line, f.loc.column)},
            {"severity", severityOf(f.severity)},
            {"code", f.rule},
            {"codeDescription", {{"href", ruleHelpUri(f.rule)}}},
            {"source", kToolName},
            {"message", f.message}};
  json related = json::array();
  for (const FindingNote &note : f.notes) {
    const SourceLocation &at = note.loc.valid() ? note.loc : f.loc;
    related.push_back({{"location", locationOf(at, [&](const std::string &file) {
                          return file == path ? &text : textOf(file);
                        })},
                       {"message", note.message}});
  }
  if (!related.empty())
    d["relatedInformation"] = std::move(related);
  return d;
}

json reportDiagnostics(const DocumentReport &report, const std::string &path, const std::string &text,
                       const TextOf &textOf) {
  json diagnostics = json::array();
  for (const Finding &f : report.findings)
    if (f.loc.file == path && f.loc.valid())
      diagnostics.push_back(findingDiagnostic(f, path, text, textOf));
  for (const FrontendMessage &e : report.messages)
    if (e.loc.file == path && e.loc.valid())
      diagnostics.push_back({{"range", tokenRange(text, e.loc.line, e.loc.column)},
                             {"severity", severityOf(e.level)},
                             {"source", kToolName},
                             {"message", e.message}});
  if (!report.fatalError.empty())
    diagnostics.push_back({{"range", rangeOf(text, 0, 0)},
                           {"severity", 1},
                           {"source", kToolName},
                           {"message", "not analyzed: " + report.fatalError}});
  return diagnostics;
}

json fixWorkspaceEdit(const Fix &fix, const TextOf &textOf) {
  std::map<std::string, json> edits; // uri -> TextEdit[]
  for (const Replacement &r : fix.replacements) {
    const std::string *text = textOf(r.file);
    if (!text || r.offset + r.length > text->size())
      return nullptr;
    edits[pathToUri(r.file)].push_back({{"range", rangeOf(*text, r.offset, r.offset + r.length)},
                                        {"newText", r.text}});
  }
  if (edits.empty())
    return nullptr;
  json changes = json::object();
  for (auto &[uri, list] : edits)
    changes[uri] = std::move(list);
  return {{"changes", std::move(changes)}};
}

json fixCodeAction(const Finding &f, const json &diagnostic, const TextOf &textOf) {
  if (f.fixes.empty())
    return nullptr;
  json edit = fixWorkspaceEdit(f.fixes.front(), textOf);
  if (edit.is_null())
    return nullptr;
  // Fixes that change launch sites need --fix-launch on the command line; in
  // the editor they are offered, but said so and never preferred.
  const Fix &fix = f.fixes.front();
  return {{"title", "warplint: " + fix.description + (fix.changesLaunch ? " (changes launch sites)" : "")},
          {"kind", "quickfix"},
          {"diagnostics", json::array({diagnostic})},
          {"isPreferred", !fix.changesLaunch},
          {"edit", std::move(edit)}};
}

bool rangesTouch(const json &a, const json &b) {
  auto key = [](const json &p) {
    return std::pair<long, long>(p.value("line", 0L), p.value("character", 0L));
  };
  return !(key(a["end"]) < key(b["start"]) || key(b["end"]) < key(a["start"]));
}

} // namespace warplint::lsp
