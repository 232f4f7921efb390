// The --explain table and the JSON classification on hand-made facts: rows,
// guidelines per class, and findings matched to the object they are about.
#include "printers/ExplainPrinter.h"
#include "printers/JsonPrinter.h"
#include "rules/DataGuidelines.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace warplint;

namespace {

SourceLocation at(unsigned line, unsigned column) {
  SourceLocation loc;
  loc.file = "/src/mm.cu";
  loc.line = line;
  loc.column = column;
  return loc;
}

MemoryAccess read(const std::string &base, unsigned line, unsigned column) {
  MemoryAccess a;
  a.base = base;
  a.loc = at(line, column);
  a.space = AddressSpace::Global;
  a.isRead = true;
  return a;
}

DataObject object(const std::string &name, AddressSpace space, const std::string &cls, size_t access) {
  DataObject o;
  o.name = name;
  o.space = space;
  o.dataClass = cls;
  o.accesses = {access};
  o.reads = 1;
  o.evaluated = 1;
  o.evidence = {"evidence for " + name};
  return o;
}

AnalysisResults naiveMatmul() {
  KernelInfo k;
  k.name = "naive";
  k.loc = at(3, 17);
  k.blockShapes = {BlockShape{16, 16, 1}};
  k.blockShapeSource = "launch at line 20";
  ParamInfo b;
  b.name = "B";
  b.isPointer = true;
  b.pointeeConst = true;
  k.params.push_back(b);
  k.accesses = {read("A", 7, 12), read("B", 7, 30)};
  k.dataObjects = {object("A", AddressSpace::Global, "read-only", 0), object("B", AddressSpace::Global, "reused", 1)};
  k.dataObjects[0].onlyRead = k.dataObjects[1].onlyRead = true;
  ArrayInfo tmp;
  tmp.name = "tmp";
  tmp.space = AddressSpace::Local;
  DataObject priv = object("tmp", AddressSpace::Local, "temporal", 0);
  priv.accesses.clear();
  priv.reads = 0;
  priv.evaluated = 0;
  k.dataObjects.push_back(priv);
  TranslationUnitResult u;
  u.file = "/src/mm.cu";
  u.parsed = true;
  u.kernels.push_back(k);
  AnalysisResults r;
  r.units.push_back(u);
  return r;
}

Finding stagingNote() {
  Finding f;
  f.rule = "shared-staging-candidate";
  f.severity = "note";
  f.loc = at(7, 30);
  f.kernel = "naive";
  f.details = {{"array", "B"}};
  return f;
}

} // namespace

// Runs of spaces collapsed: the columns' widths are not what is tested here.
std::string squeezed(const std::string &t) {
  std::string out;
  for (char c : t)
    if (!(c == ' ' && !out.empty() && out.back() == ' '))
      out += c;
  return out;
}

TEST(ExplainPrinter, TableRowsGuidelinesAndFindings) {
  std::ostringstream os;
  printExplain(os, naiveMatmul(), {stagingNote()}, "/src");
  std::string t = squeezed(os.str());
  EXPECT_NE(t.find("kernel 'naive' (mm.cu:3): block (16, 16, 1) from the launch at line 20"), std::string::npos) << t;
  EXPECT_NE(t.find(" object space class accesses guidelines findings\n"), std::string::npos) << t;
  // A: read-only, not a parameter: C_2, G_1; no finding.
  EXPECT_NE(t.find(" A global read-only 1 read C_2, G_1 -\n"), std::string::npos) << t;
  // B: const but not __restrict__, reused: S_5 and T_4; the staging note is about it.
  EXPECT_NE(t.find(" B global reused 1 read S_5, T_4 shared-staging-candidate (line 7)\n"), std::string::npos) << t;
  EXPECT_NE(t.find(" tmp local temporal none L_1, L_2, L_3, L_4 -\n"), std::string::npos) << t;
  EXPECT_NE(t.find(" B: evidence for B\n"), std::string::npos) << t;
}

TEST(ExplainPrinter, JsonClassificationPerUnit) {
  nlohmann::ordered_json j = reportToJson(naiveMatmul(), {stagingNote()});
  const auto &c = j["units"][0]["classification"];
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0]["kernel"], "naive");
  ASSERT_EQ(c[0]["objects"].size(), 3u);
  EXPECT_EQ(c[0]["objects"][1]["name"], "B");
  EXPECT_EQ(c[0]["objects"][1]["class"], "reused");
  EXPECT_EQ(c[0]["objects"][1]["guidelines"][0], "S_5");
  ASSERT_EQ(c[0]["objects"][1]["findings"].size(), 1u);
  EXPECT_EQ(c[0]["objects"][1]["findings"][0]["rule"], "shared-staging-candidate");
  EXPECT_TRUE(c[0]["objects"][0]["findings"].empty());
}

TEST(DataGuidelines, ByClassAndSpace) {
  KernelInfo k;
  DataObject shared = object("s", AddressSpace::Shared, "temporal", 0);
  EXPECT_EQ(guidelinesFor(k, shared), (std::vector<std::string>{"S_6"}));
  shared.dataClass = "reused";
  EXPECT_EQ(guidelinesFor(k, shared), (std::vector<std::string>{"S_1", "S_2"}));
  DataObject strided = object("g", AddressSpace::Global, "strided", 0);
  EXPECT_EQ(guidelinesFor(k, strided), (std::vector<std::string>{"G_3"}));
  strided.elementSize = 1; // bytes: G_2 too
  EXPECT_EQ(guidelinesFor(k, strided), (std::vector<std::string>{"G_3", "G_2"}));
  EXPECT_TRUE(guidelinesFor(k, object("u", AddressSpace::Global, "unclassified", 0)).empty());
  EXPECT_EQ(guidelinesFor(k, object("c", AddressSpace::Constant, "read-only", 0)),
            (std::vector<std::string>{"C_1", "C_2", "C_3"}));
}
