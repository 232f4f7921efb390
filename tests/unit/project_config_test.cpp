// .warplint.yaml: keys, errors with file and line, rule selection and globs.
#include "driver/ProjectConfig.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

const std::vector<std::string> kKnown = {"shared-bank-conflict", "global-uncoalesced", "readonly-param"};

ProjectConfig parsed(const std::string &text) {
  ProjectConfig c;
  std::string error;
  EXPECT_TRUE(parseProjectConfig("/p/.warplint.yaml", text, kKnown, c, error)) << error;
  return c;
}

std::string parseError(const std::string &text) {
  ProjectConfig c;
  std::string error;
  EXPECT_FALSE(parseProjectConfig("/p/.warplint.yaml", text, kKnown, c, error));
  return error;
}

TEST(ProjectConfig, EveryKey) {
  ProjectConfig c = parsed("enable: [shared-bank-conflict, readonly-param]\n"
                           "disable:\n  - readonly-param\n"
                           "profile: h200\n"
                           "exclude: ['third_party/**', '*_gen.cu']\n"
                           "warnings-as-errors: [global-uncoalesced]\n"
                           "rules:\n  readonly-param:\n    assume-no-alias: true\n");
  EXPECT_EQ(c.enabledRules(kKnown), std::vector<std::string>{"shared-bank-conflict"});
  EXPECT_EQ(c.profile, "h200");
  EXPECT_EQ(c.exclude.size(), 2u);
  EXPECT_EQ(c.warningsAsErrors, std::vector<std::string>{"global-uncoalesced"});
  EXPECT_FALSE(c.allWarningsAsErrors);
  EXPECT_EQ(c.assumeNoAlias, std::optional<bool>(true));
  EXPECT_EQ(c.dir, "/p");
}

TEST(ProjectConfig, EmptyFileAndDisableOnly) {
  ProjectConfig empty = parsed("");
  EXPECT_EQ(empty.enabledRules(kKnown), kKnown);
  EXPECT_FALSE(empty.enable.has_value());
  ProjectConfig c = parsed("disable: [global-uncoalesced]\nwarnings-as-errors: all\n");
  EXPECT_EQ(c.enabledRules(kKnown), (std::vector<std::string>{"shared-bank-conflict", "readonly-param"}));
  EXPECT_TRUE(c.allWarningsAsErrors);
}

TEST(ProjectConfig, ProfileFileIsRelativeToTheConfig) {
  EXPECT_EQ(parsed("profile: profiles/mine.json\n").profile, "/p/profiles/mine.json");
  EXPECT_EQ(parsed("profile: /abs/mine.json\n").profile, "/abs/mine.json");
  EXPECT_EQ(*parsed("min-gain: 12.5\n").minGain, 12.5);
  EXPECT_EQ(*parsed("fail-min-gain: 0\n").failMinGain, 0.0);
  EXPECT_FALSE(parsed("profile: h200\n").minGain.has_value());
}

TEST(ProjectConfig, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(parseError("enable: [shared-bank-conflict]\nfoo: 1\n"),
            "/p/.warplint.yaml:2:1: unknown key 'foo' (known: enable, disable, profile, exclude, "
            "warnings-as-errors, min-gain, fail-min-gain, rules)");
  EXPECT_EQ(parseError("min-gain: lots\n"),
            "/p/.warplint.yaml:1:11: min-gain: expected a percentage (0 to 1000), got 'lots'");
  EXPECT_EQ(parseError("disable:\n  - shared-bank\n").substr(0, 58),
            "/p/.warplint.yaml:2:5: unknown rule id 'shared-bank' (know");
  EXPECT_NE(parseError("warnings-as-errors: most\n").find(":1:21: warnings-as-errors: expected 'all'"),
            std::string::npos);
  EXPECT_NE(parseError("rules:\n  readonly-param:\n    no-alias: true\n").find(":3:5: rule 'readonly-param' has no option"),
            std::string::npos);
  EXPECT_NE(parseError("rules:\n  shared-bank-conflict:\n    x: 1\n").find("takes no options"), std::string::npos);
  EXPECT_NE(parseError("rules:\n  readonly-param:\n    assume-no-alias: maybe\n").find("expected true or false"),
            std::string::npos);
  EXPECT_NE(parseError("enable: shared-bank-conflict\n").find(":1:9: expected a list of rule ids"), std::string::npos);
  EXPECT_NE(parseError("- a\n- b\n").find("expected a mapping"), std::string::npos);
  EXPECT_NE(parseError("enable: [a\n").find("/p/.warplint.yaml:1:"), std::string::npos); // YAML syntax
  EXPECT_NE(parseError("enable: []\n---\ndisable: []\n").find("expected one YAML document"), std::string::npos);
}

TEST(ProjectConfig, Globs) {
  EXPECT_TRUE(globMatches("third_party/**", "third_party/a/b.cu"));
  EXPECT_FALSE(globMatches("third_party/**", "src/third_party.cu"));
  EXPECT_TRUE(globMatches("*_gen.cu", "deep/dir/k_gen.cu")); // no slash: any directory
  EXPECT_FALSE(globMatches("src/*.cu", "src/a/b.cu"));      // `*` stays in one directory
  EXPECT_TRUE(globMatches("src/**/*.cu", "src/b.cu"));
  EXPECT_TRUE(globMatches("src/**/*.cu", "src/a/b/c.cu"));
  EXPECT_TRUE(globMatches("build/", "build/x/y.cu"));
  EXPECT_TRUE(globMatches("./k?.cu", "k1.cu"));
  EXPECT_FALSE(globMatches("k?.cu", "k12.cu"));
}

TEST(ProjectConfig, ExcludesOnlyUnderItsDirectory) {
  ProjectConfig c = parsed("exclude: ['gen/**']\n");
  EXPECT_TRUE(c.excludes("/p/gen/a.cu"));
  EXPECT_FALSE(c.excludes("/p/src/a.cu"));
  EXPECT_FALSE(c.excludes("/q/gen/a.cu"));
}

} // namespace
} // namespace warplint
