#include "driver/Suppressions.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warplint {

namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trimmed(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// `*` matches any run of characters, everything else itself.
bool globMatches(const std::string &glob, const std::string &text, size_t g = 0, size_t t = 0) {
  while (g < glob.size()) {
    if (glob[g] == '*') {
      for (size_t k = t; k <= text.size(); ++k)
        if (globMatches(glob, text, g + 1, k))
          return true;
      return false;
    }
    if (t >= text.size() || glob[g] != text[t])
      return false;
    ++g;
    ++t;
  }
  return t == text.size();
}

// The reason written after the comment: "// NOLINT(x): tile is tiny */" -> "tile is tiny".
std::string justificationOf(const std::string &rest) {
  std::string s = trimmed(rest);
  if (s.size() >= 2 && s.compare(s.size() - 2, 2, "*/") == 0)
    s = trimmed(s.substr(0, s.size() - 2));
  size_t b = s.find_first_not_of(":-,; \t");
  return b == std::string::npos ? "" : s.substr(b);
}

// Comments of one line; `line` has no terminator.
void scanLine(const std::string &line, unsigned number, std::vector<NolintComment> &out) {
  static const std::pair<const char *, NolintComment::Kind> kKeywords[] = {
      {"NOLINTNEXTLINE", NolintComment::Kind::NextLine},
      {"NOLINTBEGIN", NolintComment::Kind::Begin},
      {"NOLINTEND", NolintComment::Kind::End},
      {"NOLINT", NolintComment::Kind::SameLine}};
  for (size_t pos = line.find("NOLINT"); pos != std::string::npos; pos = line.find("NOLINT", pos + 1)) {
    if (pos > 0 && isWordChar(line[pos - 1]))
      continue;
    NolintComment c;
    size_t after = std::string::npos;
    for (const auto &[word, kind] : kKeywords)
      if (line.compare(pos, std::string(word).size(), word) == 0) {
        c.kind = kind;
        after = pos + std::string(word).size();
        break;
      }
    if (after < line.size() && isWordChar(line[after]))
      continue; // NOLINTFOO is not ours
    c.line = number;
    c.column = static_cast<unsigned>(pos + 1);
    if (after < line.size() && line[after] == '(') {
      size_t close = line.find(')', after);
      if (close == std::string::npos)
        continue; // unterminated: clang-tidy ignores it too
      c.hasList = true;
      std::stringstream list(line.substr(after + 1, close - after - 1));
      for (std::string id; std::getline(list, id, ',');)
        if (!trimmed(id).empty())
          c.rules.push_back(trimmed(id));
      after = close + 1;
    }
    size_t next = line.find("NOLINT", after);
    c.justification = justificationOf(line.substr(after, next == std::string::npos ? std::string::npos : next - after));
    out.push_back(std::move(c));
  }
}

std::string listText(const NolintComment &c) {
  std::string s;
  for (const std::string &r : c.rules)
    s += (s.empty() ? "" : ",") + r;
  return c.hasList ? "(" + s + ")" : "";
}

} // namespace

bool NolintComment::names(const std::string &rule) const {
  if (!hasList)
    return true;
  for (const std::string &glob : rules)
    if (globMatches(glob, rule) || globMatches(glob, "warplint-" + rule))
      return true;
  return false;
}

const char *NolintComment::keyword() const {
  switch (kind) {
  case Kind::NextLine:
    return "NOLINTNEXTLINE";
  case Kind::Begin:
    return "NOLINTBEGIN";
  case Kind::End:
    return "NOLINTEND";
  case Kind::SameLine:
    break;
  }
  return "NOLINT";
}

// `text` with everything outside comments blanked (line breaks and columns
// kept): a NOLINT in a string literal or in code is not a directive.
std::string commentsOnly(const std::string &text) {
  enum { Code, Line, Block, String, Char } state = Code;
  std::string out(text.size(), ' ');
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i], next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      out[i] = '\n';
      if (state == Line || state == String || state == Char)
        state = Code;
      continue;
    }
    switch (state) {
    case Code:
      if (c == '/' && next == '/')
        state = Line, ++i;
      else if (c == '/' && next == '*')
        state = Block, ++i;
      else if (c == '"')
        state = String;
      else if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1]))))
        state = Char; // not a digit separator (1'000)
      break;
    case Line:
      out[i] = c;
      break;
    case Block:
      if (c == '*' && next == '/')
        state = Code, ++i;
      else
        out[i] = c;
      break;
    case String:
    case Char:
      if (c == '\\')
        ++i;
      else if ((state == String && c == '"') || (state == Char && c == '\''))
        state = Code;
      break;
    }
  }
  return out;
}

std::vector<NolintComment> findNolintComments(const std::string &text) {
  std::vector<NolintComment> out;
  std::istringstream in(commentsOnly(text));
  unsigned number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find("NOLINT") != std::string::npos)
      scanLine(line, number, out);
  }
  return out;
}

void Suppressions::setContents(const std::string &file, const std::string &text) { index(file, text); }

void Suppressions::index(const std::string &file, const std::string &text) {
  File &f = files_[file];
  f = File();
  std::vector<NolintComment> open;
  for (NolintComment &c : findNolintComments(text)) {
    if (c.kind == NolintComment::Kind::SameLine || c.kind == NolintComment::Kind::NextLine) {
      f.comments.push_back(c);
    } else if (c.kind == NolintComment::Kind::Begin) {
      open.push_back(c);
    } else {
      // An END closes the innermost BEGIN with the same list, as in clang-tidy.
      bool matched = false;
      for (size_t i = open.size(); i-- > 0 && !matched;)
        if (listText(open[i]) == listText(c)) {
          f.regions.push_back({open[i], c.line});
          open.erase(open.begin() + static_cast<long>(i));
          matched = true;
        }
      if (!matched)
        f.problems.push_back({{file, c.line, c.column}, "warning",
                              "NOLINTEND" + listText(c) + " has no matching NOLINTBEGIN" + listText(c)});
    }
  }
  for (const NolintComment &c : open)
    f.problems.push_back({{file, c.line, c.column}, "warning",
                          "NOLINTBEGIN" + listText(c) + " has no matching NOLINTEND" + listText(c) +
                              "; it suppresses nothing"});
}

Suppressions::File &Suppressions::load(const std::string &file) {
  auto it = files_.find(file);
  if (it != files_.end())
    return it->second;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in)
    text << in.rdbuf();
  index(file, text.str());
  return files_[file];
}

std::optional<Suppression> Suppressions::find(const std::string &file, unsigned line, const std::string &rule) {
  if (file.empty() || line == 0)
    return std::nullopt;
  // One file may be named relatively by one finding and absolutely by another.
  std::error_code ec;
  std::string key = files_.count(file) ? file : std::filesystem::absolute(file, ec).lexically_normal().string();
  const File &f = load(ec ? file : key);
  auto made = [&](const NolintComment &c) {
    return Suppression{c.keyword(), {file, c.line, c.column}, c.justification};
  };
  for (const NolintComment &c : f.comments) {
    bool here = (c.kind == NolintComment::Kind::SameLine && c.line == line) ||
                (c.kind == NolintComment::Kind::NextLine && c.line + 1 == line);
    if (here && c.names(rule))
      return made(c);
  }
  for (const Region &r : f.regions)
    if (r.begin.line <= line && line <= r.endLine && r.begin.names(rule))
      return made(r.begin);
  return std::nullopt;
}

size_t Suppressions::apply(std::vector<Finding> &findings) {
  size_t n = 0;
  for (Finding &f : findings) {
    f.suppression = find(f.loc.file, f.loc.line, f.rule);
    n += f.suppression ? 1 : 0;
  }
  return n;
}

std::vector<FrontendMessage> Suppressions::problems() const {
  std::vector<FrontendMessage> out;
  for (const auto &[file, f] : files_)
    out.insert(out.end(), f.problems.begin(), f.problems.end());
  return out;
}

} // namespace warplint
