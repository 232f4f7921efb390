#include "printers/RuleDocs.h"

#include <sstream>

namespace warplint {

static const char *const kGeneratedBanner =
    "<!-- Generated from the rule registry by `warplint docs --out docs/rules`. "
    "Do not edit: change the rule's RuleInfo and regenerate. -->\n";

// Code blocks end with exactly one newline whatever the entry's strings end with.
static std::string codeBlock(const std::string &code) {
  std::string body = code;
  while (!body.empty() && (body.back() == '\n' || body.back() == ' '))
    body.pop_back();
  return "```cuda\n" + body + "\n```\n";
}

static std::string paragraph(const std::string &text) {
  std::string body = text;
  while (!body.empty() && (body.back() == '\n' || body.back() == ' '))
    body.pop_back();
  return body + "\n";
}

std::string renderRuleMarkdown(const RuleInfo &info) {
  std::ostringstream md;
  md << kGeneratedBanner << "\n";
  md << "# " << info.id << "\n\n";
  md << "**" << info.title << "**\n\n";
  md << "| | |\n|---|---|\n";
  md << "| Guideline | " << info.guideline << " |\n";
  md << "| Source | " << info.seed << " |\n";
  md << "| Fix | " << info.fixSafety << " |\n\n";
  md << "## Why\n\n" << paragraph(info.rationale) << "\n";
  md << "## Flagged\n\n" << codeBlock(info.badExample) << "\n";
  md << "## Instead\n\n" << codeBlock(info.goodExample);
  return md.str();
}

std::string renderRuleIndex(const std::vector<const RuleInfo *> &rules) {
  std::ostringstream md;
  md << kGeneratedBanner << "\n";
  md << "# warplint rules\n\n";
  md << "| Rule | Guideline | What it finds |\n|---|---|---|\n";
  for (const RuleInfo *info : rules)
    md << "| [" << info->id << "](" << info->id << ".md) | " << info->guideline << " | "
       << info->title << " |\n";
  return md.str();
}

std::vector<std::string> checkRuleInfo(const RuleInfo &info) {
  std::vector<std::string> problems;
  auto need = [&](const std::string &value, const char *field) {
    if (value.empty())
      problems.push_back(info.id + ": " + field + " is empty");
  };
  need(info.id, "id");
  need(info.title, "title");
  need(info.guideline, "guideline");
  need(info.seed, "seed");
  need(info.rationale, "rationale");
  need(info.badExample, "badExample");
  need(info.goodExample, "goodExample");
  need(info.fixSafety, "fixSafety");
  bool kebab = !info.id.empty() && info.id.front() != '-' && info.id.back() != '-';
  for (char c : info.id)
    kebab = kebab && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!kebab)
    problems.push_back("'" + info.id + "': id must be kebab-case (a-z, 0-9, '-')");
  if (info.title.find('|') != std::string::npos)
    problems.push_back(info.id + ": title must not contain '|' (it goes into a table)");
  return problems;
}

} // namespace warplint
