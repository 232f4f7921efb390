#include "driver/ProjectConfig.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warplint {

namespace fs = std::filesystem;
namespace yaml = llvm::yaml;

namespace {

// Walks the YAML node tree; the first problem found is kept with its position.
class ConfigReader {
public:
  ConfigReader(const std::string &path, const std::vector<std::string> &known, llvm::SourceMgr &sm)
      : path_(path), known_(known), sm_(sm) {}

  bool read(yaml::Node *root, ProjectConfig &c) {
    if (!root || llvm::isa<yaml::NullNode>(root))
      return true; // an empty file: every default
    auto *map = llvm::dyn_cast<yaml::MappingNode>(root);
    if (!map)
      return fail(root, "expected a mapping of settings (enable, disable, profile, exclude, "
                        "warnings-as-errors, min-gain, fail-min-gain, rules)");
    for (yaml::KeyValueNode &kv : *map) {
      std::string key;
      if (!scalar(kv.getKey(), key))
        return false;
      yaml::Node *value = kv.getValue();
      if (key == "enable") {
        std::vector<std::string> ids;
        if (!ruleList(value, ids))
          return false;
        c.enable = ids;
      } else if (key == "disable") {
        if (!ruleList(value, c.disable))
          return false;
      } else if (key == "profile") {
        if (!scalar(value, c.profile))
          return false;
      } else if (key == "exclude") {
        if (!stringList(value, c.exclude))
          return false;
      } else if (key == "warnings-as-errors") {
        std::string all;
        if (auto *s = llvm::dyn_cast_or_null<yaml::ScalarNode>(value)) {
          if (!scalar(s, all))
            return false;
          if (all != "all")
            return fail(s, "warnings-as-errors: expected 'all' or a list of rule ids, got '" + all + "'");
          c.allWarningsAsErrors = true;
        } else if (!ruleList(value, c.warningsAsErrors)) {
          return false;
        }
      } else if (key == "min-gain" || key == "fail-min-gain") {
        std::string text;
        if (!scalar(value, text))
          return false;
        char *end = nullptr;
        double pct = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(pct >= 0) || pct > 1000)
          return fail(value, key + ": expected a percentage (0 to 1000), got '" + text + "'");
        (key == "min-gain" ? c.minGain : c.failMinGain) = pct;
      } else if (key == "rules") {
        if (!ruleOptions(value, c))
          return false;
      } else {
        return fail(kv.getKey(), "unknown key '" + key +
                                     "' (known: enable, disable, profile, exclude, warnings-as-errors, "
                                     "min-gain, fail-min-gain, rules)");
      }
    }
    return true;
  }

  std::string error;

private:
  bool ruleOptions(yaml::Node *node, ProjectConfig &c) {
    auto *map = llvm::dyn_cast_or_null<yaml::MappingNode>(node);
    if (!map)
      return fail(node, "rules: expected a mapping from rule id to its options");
    for (yaml::KeyValueNode &kv : *map) {
      std::string rule;
      if (!scalar(kv.getKey(), rule) || !knownRule(kv.getKey(), rule))
        return false;
      auto *options = llvm::dyn_cast_or_null<yaml::MappingNode>(kv.getValue());
      if (!options)
        return fail(kv.getValue(), "rules: " + rule + ": expected a mapping of options");
      for (yaml::KeyValueNode &opt : *options) {
        std::string name, value;
        if (!scalar(opt.getKey(), name))
          return false;
        if (rule == "readonly-param" && name == "assume-no-alias") {
          if (!scalar(opt.getValue(), value))
            return false;
          if (value != "true" && value != "false")
            return fail(opt.getValue(), "assume-no-alias: expected true or false, got '" + value + "'");
          c.assumeNoAlias = value == "true";
        } else {
          return fail(opt.getKey(), "rule '" + rule + "' has no option '" + name + "'" +
                                        (rule == "readonly-param" ? " (known: assume-no-alias)"
                                                                  : " (it takes no options)"));
        }
      }
    }
    return true;
  }

  bool ruleList(yaml::Node *node, std::vector<std::string> &out) {
    if (!stringList(node, out, true))
      return false;
    return true;
  }

  bool stringList(yaml::Node *node, std::vector<std::string> &out, bool ruleIds = false) {
    auto *seq = llvm::dyn_cast_or_null<yaml::SequenceNode>(node);
    if (!seq)
      return fail(node, ruleIds ? "expected a list of rule ids" : "expected a list");
    for (yaml::Node &item : *seq) {
      std::string s;
      if (!scalar(&item, s))
        return false;
      if (ruleIds && !knownRule(&item, s))
        return false;
      out.push_back(s);
    }
    return true;
  }

  bool knownRule(yaml::Node *node, const std::string &id) {
    if (std::find(known_.begin(), known_.end(), id) != known_.end())
      return true;
    std::string list;
    for (const std::string &k : known_)
      list += (list.empty() ? "" : ", ") + k;
    return fail(node, "unknown rule id '" + id + "' (known: " + list + ")");
  }

  bool scalar(yaml::Node *node, std::string &out) {
    auto *s = llvm::dyn_cast_or_null<yaml::ScalarNode>(node);
    if (!s)
      return fail(node, "expected a single value");
    llvm::SmallString<64> storage;
    out = s->getValue(storage).str();
    return true;
  }

  bool fail(yaml::Node *node, const std::string &message) {
    if (!error.empty())
      return false;
    unsigned line = 0, column = 0;
    if (node) {
      auto lc = sm_.getLineAndColumn(node->getSourceRange().Start);
      line = lc.first;
      column = lc.second;
    }
    error = path_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    return false;
  }

  const std::string &path_;
  const std::vector<std::string> &known_;
  llvm::SourceMgr &sm_;
};

// `*`/`?` within one path component, `**` across components.
bool globAt(const std::string &p, size_t pi, const std::string &s, size_t si) {
  while (pi < p.size()) {
    if (p.compare(pi, 2, "**") == 0) {
      size_t rest = pi + 2;
      if (rest < p.size() && p[rest] == '/')
        ++rest; // "**/" also matches no directory at all
      for (size_t k = si; k <= s.size(); ++k)
        if (globAt(p, rest, s, k))
          return true;
      return false;
    }
    if (p[pi] == '*') {
      for (size_t k = si; k <= s.size(); ++k) {
        if (globAt(p, pi + 1, s, k))
          return true;
        if (k < s.size() && s[k] == '/')
          break;
      }
      return false;
    }
    if (si >= s.size() || (p[pi] == '?' ? s[si] == '/' : p[pi] != s[si]))
      return false;
    ++pi;
    ++si;
  }
  return si == s.size();
}

} // namespace

bool globMatches(const std::string &pattern, const std::string &relativePath) {
  std::string p = pattern;
  if (p.size() > 2 && p.compare(0, 2, "./") == 0)
    p = p.substr(2);
  if (p.find('/') == std::string::npos)
    p = "**/" + p;
  if (!p.empty() && p.back() == '/')
    p += "**"; // a directory: everything under it
  return globAt(p, 0, relativePath, 0);
}

std::vector<std::string> ProjectConfig::enabledRules(const std::vector<std::string> &known) const {
  std::vector<std::string> out;
  for (const std::string &id : enable ? *enable : known)
    if (std::find(disable.begin(), disable.end(), id) == disable.end())
      out.push_back(id);
  return out;
}

bool ProjectConfig::excludes(const std::string &file) const {
  if (exclude.empty())
    return false;
  std::error_code ec;
  fs::path rel = fs::weakly_canonical(file, ec).lexically_relative(fs::weakly_canonical(dir, ec));
  std::string r = rel.generic_string();
  if (r.empty() || r.compare(0, 2, "..") == 0)
    return false; // not under the config's directory
  for (const std::string &pattern : exclude)
    if (globMatches(pattern, r))
      return true;
  return false;
}

bool parseProjectConfig(const std::string &path, const std::string &text,
                        const std::vector<std::string> &knownRules, ProjectConfig &out, std::string &error) {
  out = ProjectConfig();
  out.path = path;
  out.dir = fs::absolute(path).parent_path().string();
  llvm::SourceMgr sm;
  std::string syntax;
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *context) {
        auto *msg = static_cast<std::string *>(context);
        if (msg->empty())
          *msg = std::to_string(d.getLineNo()) + ":" + std::to_string(d.getColumnNo() + 1) + ": " +
                 d.getMessage().str();
      },
      &syntax);
  yaml::Stream stream(text, sm);
  ConfigReader reader(path, knownRules, sm);
  bool ok = true;
  int documents = 0;
  for (yaml::Document &doc : stream) {
    yaml::Node *root = doc.getRoot();
    if (++documents > 1) {
      if (!root || llvm::isa<yaml::NullNode>(root))
        continue; // the end of the stream
      error = path + ": expected one YAML document";
      return false;
    }
    // Stop at the first problem: skipping the rest of a half-read document
    // would only add parse errors after it.
    ok = reader.read(root, out);
    if (!ok || !syntax.empty())
      break;
  }
  if (!ok && !reader.error.empty()) {
    error = reader.error;
    return false;
  }
  if (!syntax.empty()) {
    error = path + ":" + syntax;
    return false;
  }
  if (!out.profile.empty() && (out.profile.find('/') != std::string::npos || out.profile.size() > 5 &&
                               out.profile.compare(out.profile.size() - 5, 5, ".json") == 0)) {
    fs::path p(out.profile);
    if (p.is_relative())
      out.profile = (fs::path(out.dir) / p).lexically_normal().string();
  }
  return true;
}

bool loadProjectConfig(const std::string &path, const std::vector<std::string> &knownRules, ProjectConfig &out,
                       std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read config file '" + path + "'";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseProjectConfig(path, text.str(), knownRules, out, error);
}

std::string findProjectConfig(const std::string &file) {
  std::error_code ec;
  fs::path dir = fs::absolute(file, ec).parent_path();
  while (!dir.empty()) {
    fs::path candidate = dir / ".warplint.yaml";
    if (fs::is_regular_file(candidate, ec))
      return candidate.string();
    if (dir == dir.root_path())
      break;
    dir = dir.parent_path();
  }
  return "";
}

} // namespace warplint
