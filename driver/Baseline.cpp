#include "driver/Baseline.h"
#include "analyzer/results/Fix.h"
#include "printers/ToolInfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace warplint {

namespace fs = std::filesystem;

namespace {

// The line as a reader sees it: runs of spaces and tabs collapsed, the ends trimmed.
std::string normalizedLine(const std::string *line) {
  std::string out;
  if (!line)
    return out;
  bool space = false;
  for (char c : *line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string relativePath(const std::string &file, const std::string &baseDir) {
  if (baseDir.empty())
    return file;
  fs::path rel = fs::path(file).lexically_relative(baseDir);
  std::string r = rel.generic_string();
  return r.empty() || r.compare(0, 2, "..") == 0 ? file : r;
}

} // namespace

void assignFingerprints(std::vector<Finding> &findings, const std::string &baseDir, SourceLines &source) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, int> seen;
  for (Finding &f : findings) {
    std::string file = relativePath(f.loc.file, baseDir);
    std::string text = normalizedLine(f.loc.line ? source.line(f.loc.file, f.loc.line) : nullptr);
    int occurrence = seen[{f.rule, file, f.kernel, text}]++;
    // Fields joined with a separator no path or identifier holds.
    std::string key = f.rule + '\x1f' + file + '\x1f' + f.kernel + '\x1f' + text + '\x1f' +
                      std::to_string(occurrence);
    f.fingerprint = contentHash(key);
  }
}

bool loadBaseline(const std::string &path, Baseline &out, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read baseline '" + path + "'";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "baseline '" + path + "' is not a warplint JSON or SARIF report";
    return false;
  }
  out.path = path;
  size_t results = 0;
  auto take = [&](const nlohmann::json &fp) {
    ++results;
    if (fp.is_string())
      out.fingerprints.insert(fp.get<std::string>());
  };
  if (j.contains("findings") && j["findings"].is_array()) {
    for (const auto &f : j["findings"])
      take(f.value("fingerprint", nlohmann::json()));
  } else if (j.contains("runs") && j["runs"].is_array()) {
    for (const auto &run : j["runs"])
      for (const auto &r : run.value("results", nlohmann::json::array()))
        take(r.value("partialFingerprints", nlohmann::json::object()).value(kSarifFingerprintKey, nlohmann::json()));
  } else {
    error = "baseline '" + path + "' is not a warplint JSON or SARIF report (no findings or runs)";
    return false;
  }
  if (results > 0 && out.fingerprints.empty()) {
    error = "baseline '" + path + "' has findings but no fingerprints; write it again with this warplint";
    return false;
  }
  return true;
}

size_t subtractBaseline(std::vector<Finding> &findings, const Baseline &baseline) {
  size_t before = findings.size();
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding &f) { return baseline.fingerprints.count(f.fingerprint) > 0; }),
                 findings.end());
  return before - findings.size();
}

} // namespace warplint
