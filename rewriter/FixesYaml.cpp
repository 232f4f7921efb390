#include "rewriter/FixesYaml.h"

#include <sstream>

namespace warplint {

namespace {

// A YAML double-quoted scalar: safe for any text, newlines included.
std::string quoted(const std::string &s) {
  std::string q = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': q += "\\\""; break;
    case '\\': q += "\\\\"; break;
    case '\n': q += "\\n"; break;
    case '\t': q += "\\t"; break;
    case '\r': q += "\\r"; break;
    default:
      if (c < 0x20) {
        static const char *hex = "0123456789abcdef";
        q += "\\x";
        q += hex[c >> 4];
        q += hex[c & 15];
      } else {
        q += static_cast<char>(c);
      }
    }
  }
  return q + "\"";
}

} // namespace

std::string fixesYaml(const std::string &mainSourceFile, const std::string &buildDirectory,
                      const std::vector<const FixOutcome *> &fixes) {
  std::ostringstream y;
  y << "---\nMainSourceFile: " << quoted(mainSourceFile) << "\nDiagnostics:";
  if (fixes.empty())
    y << " []";
  y << "\n";
  for (const FixOutcome *f : fixes) {
    const std::string &file = f->fix.replacements.front().file;
    y << "  - DiagnosticName: " << quoted(f->rule) << "\n"
      << "    DiagnosticMessage:\n"
      << "      Message: " << quoted(f->message) << "\n"
      << "      FilePath: " << quoted(file) << "\n"
      << "      FileOffset: " << f->fix.replacements.front().offset << "\n"
      << "      Replacements:\n";
    for (const Replacement &r : f->fix.replacements)
      y << "        - FilePath: " << quoted(r.file) << "\n"
        << "          Offset: " << r.offset << "\n"
        << "          Length: " << r.length << "\n"
        << "          ReplacementText: " << quoted(r.text) << "\n";
    y << "    Level: Warning\n"
      << "    BuildDirectory: " << quoted(buildDirectory) << "\n";
  }
  y << "...\n";
  return y.str();
}

} // namespace warplint
