// Rule documentation rendered from the registry. docs/rules/<id>.md and
// docs/rules/README.md are this output, committed; a unit test fails when
// they drift from the registry (regenerate with `warplint docs --out docs/rules`).
#pragma once

#include "rules/Rule.h"
#include <string>
#include <vector>

namespace warplint {

// The page of one rule: docs/rules/<id>.md.
std::string renderRuleMarkdown(const RuleInfo &info);

// The index of all rules: docs/rules/README.md.
std::string renderRuleIndex(const std::vector<const RuleInfo *> &rules);

// Problems with a registry entry that would make poor documentation or an
// unstable id (empty fields, an id that is not kebab-case); empty when fine.
std::vector<std::string> checkRuleInfo(const RuleInfo &info);

} // namespace warplint
