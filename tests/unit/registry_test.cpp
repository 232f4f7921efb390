// The registry is the single source of rule documentation: every entry is
// complete, and the committed docs/rules/ is exactly what it renders.
#include "printers/RuleDocs.h"
#include "rules/Rule.h"

#include <dirent.h>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace warplint;

namespace {

const std::string kDocsDir = std::string(WARPLINT_SOURCE_DIR) + "/docs/rules";
const char *const kRegenerate = "docs/rules/ drifted from the rule registry; regenerate with\n"
                                "  build/bin/warplint docs --out docs/rules";

std::vector<const RuleInfo *> registry() {
  std::vector<const RuleInfo *> infos;
  for (const auto &rule : allRules())
    infos.push_back(&rule->info());
  return infos;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

} // namespace

TEST(RuleRegistry, EntriesAreCompleteAndUnique) {
  ASSERT_FALSE(allRules().empty());
  std::set<std::string> ids;
  for (const RuleInfo *info : registry()) {
    for (const std::string &problem : checkRuleInfo(*info))
      ADD_FAILURE() << problem;
    EXPECT_TRUE(ids.insert(info->id).second) << "duplicate rule id " << info->id;
  }
}

TEST(RuleRegistry, DisabledRulesDoNotRun) {
  AnalysisResults results;
  TranslationUnitResult unit;
  unit.parsed = true;
  unit.kernels.resize(1);
  results.units.push_back(unit);
  RuleOptions none;
  none.enabled = {"no-such-rule"};
  EXPECT_TRUE(runRules(results, RuleContext{}, none).empty());
  EXPECT_TRUE(runRules(AnalysisResults{}, RuleContext{}).empty());
}

TEST(RuleDocs, CommittedDocsMatchRegistry) {
  std::set<std::string> expected;
  for (const RuleInfo *info : registry()) {
    std::string name = info->id + ".md", committed;
    expected.insert(name);
    ASSERT_TRUE(readFile(kDocsDir + "/" + name, committed)) << "missing " << name << "\n"
                                                            << kRegenerate;
    EXPECT_EQ(committed, renderRuleMarkdown(*info)) << name << ": " << kRegenerate;
  }
  std::string index;
  expected.insert("README.md");
  ASSERT_TRUE(readFile(kDocsDir + "/README.md", index)) << kRegenerate;
  EXPECT_EQ(index, renderRuleIndex(registry())) << "README.md: " << kRegenerate;

  DIR *dir = opendir(kDocsDir.c_str());
  ASSERT_NE(dir, nullptr);
  while (dirent *e = readdir(dir)) {
    std::string name = e->d_name;
    bool markdown = name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0;
    if (markdown) {
      EXPECT_TRUE(expected.count(name)) << name << " documents no rule in the registry";
    }
  }
  closedir(dir);
}
