// The NOLINT stage: which comments silence which findings, and that anything
// else (another rule, a string, another word, an unmatched region) does not.
#include "driver/Suppressions.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

Finding at(unsigned line, const std::string &rule) {
  Finding f;
  f.rule = rule;
  f.loc = {"k.cu", line, 5};
  return f;
}

TEST(Suppressions, ParsesKindsListsAndReasons) {
  auto c = findNolintComments("a; // NOLINT(shared-bank-conflict, global-*) tile is tiny\n"
                              "// NOLINTNEXTLINE\n"
                              "/* NOLINTBEGIN(readonly-param): frozen API */\n"
                              "// NOLINTEND(readonly-param)\n");
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].kind, NolintComment::Kind::SameLine);
  EXPECT_EQ(c[0].line, 1u);
  EXPECT_EQ(c[0].column, 7u);
  EXPECT_EQ(c[0].rules, (std::vector<std::string>{"shared-bank-conflict", "global-*"}));
  EXPECT_EQ(c[0].justification, "tile is tiny");
  EXPECT_EQ(c[1].kind, NolintComment::Kind::NextLine);
  EXPECT_FALSE(c[1].hasList);
  EXPECT_EQ(c[2].kind, NolintComment::Kind::Begin);
  EXPECT_EQ(c[2].justification, "frozen API");
  EXPECT_EQ(c[3].kind, NolintComment::Kind::End);
}

TEST(Suppressions, OnlyCommentsAndWholeWords) {
  EXPECT_TRUE(findNolintComments("printf(\"NOLINT\"); char q = '\"'; // XNOLINT NOLINTED\n").empty());
  EXPECT_TRUE(findNolintComments("int x = 1'000; auto s = \"// NOLINT\";\n").empty());
  EXPECT_EQ(findNolintComments("/* a\n NOLINT */\n").size(), 1u);
  EXPECT_TRUE(findNolintComments("// NOLINT(unterminated\n").empty());
}

TEST(Suppressions, NamesRulesByIdGlobAndPrefix) {
  auto c = findNolintComments("// NOLINT(shared-*, warplint-readonly-param)\n// NOLINT\n// NOLINT()\n");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_TRUE(c[0].names("shared-bank-conflict"));
  EXPECT_TRUE(c[0].names("readonly-param"));
  EXPECT_FALSE(c[0].names("global-uncoalesced"));
  EXPECT_TRUE(c[1].names("global-uncoalesced")); // bare: every rule
  EXPECT_FALSE(c[2].names("global-uncoalesced")); // an empty list names none
  EXPECT_TRUE(findNolintComments("// NOLINT(warplint-*)\n")[0].names("global-narrow-access"));
}

TEST(Suppressions, AppliesToTheRightLines) {
  Suppressions s;
  s.setContents("k.cu", "x; // NOLINT(shared-bank-conflict) why\n"   // 1
                        "// NOLINTNEXTLINE(global-uncoalesced)\n"      // 2
                        "y;\n"                                         // 3
                        "z;\n"                                         // 4
                        "// NOLINTBEGIN(readonly-param)\n"             // 5
                        "a;\n"                                         // 6
                        "// NOLINTEND(readonly-param)\n"               // 7
                        "b;\n");                                       // 8
  std::vector<Finding> f = {at(1, "shared-bank-conflict"), at(1, "global-uncoalesced"), at(3, "global-uncoalesced"),
                            at(4, "global-uncoalesced"),   at(6, "readonly-param"),     at(8, "readonly-param"),
                            at(2, "shared-bank-conflict")};
  EXPECT_EQ(s.apply(f), 3u);
  ASSERT_TRUE(f[0].suppression);
  EXPECT_EQ(f[0].suppression->kind, "NOLINT");
  EXPECT_EQ(f[0].suppression->justification, "why");
  EXPECT_FALSE(f[1].suppression) << "another rule's NOLINT";
  ASSERT_TRUE(f[2].suppression);
  EXPECT_EQ(f[2].suppression->kind, "NOLINTNEXTLINE");
  EXPECT_EQ(f[2].suppression->loc.line, 2u);
  EXPECT_FALSE(f[3].suppression) << "two lines below a NOLINTNEXTLINE";
  ASSERT_TRUE(f[4].suppression);
  EXPECT_EQ(f[4].suppression->kind, "NOLINTBEGIN");
  EXPECT_FALSE(f[5].suppression) << "after the region";
  EXPECT_FALSE(f[6].suppression) << "a NOLINTNEXTLINE does not silence its own line";
  EXPECT_TRUE(s.problems().empty());
}

TEST(Suppressions, UnmatchedRegionsSilenceNothingAndAreReported) {
  Suppressions s;
  s.setContents("k.cu", "// NOLINTBEGIN(readonly-param)\n"
                        "a;\n"
                        "// NOLINTEND(shared-bank-conflict)\n");
  std::vector<Finding> f = {at(2, "readonly-param")};
  EXPECT_EQ(s.apply(f), 0u);
  auto problems = s.problems();
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].message.find("NOLINTEND(shared-bank-conflict) has no matching NOLINTBEGIN"), std::string::npos);
  EXPECT_NE(problems[1].message.find("NOLINTBEGIN(readonly-param) has no matching NOLINTEND"), std::string::npos);
  EXPECT_EQ(problems[1].loc.line, 1u);
}

} // namespace
} // namespace warplint
