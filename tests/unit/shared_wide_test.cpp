// The warp model's shared-memory wavefronts against the H100's, pattern by
// pattern: tests/gpu/shared_wide/results.csv holds, for 197 lane->address
// patterns of 4-, 8- and 16-byte loads and stores, the wavefronts and bank
// conflicts Nsight Compute counted per warp instruction (one warp, 64
// instructions a launch). sharedBankConflicts must give exactly the
// wavefronts, its ideal must leave exactly ncu's bank conflicts, and a
// pattern without conflicts (a broadcast among them) must say degree 1.
#include "analyzer/warp/WarpSimulator.h"
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace warplint;

namespace {

struct Measured {
  std::string label;
  LaneAddresses lanes;
  double wavefronts = 0;
  double conflicts = 0;
};

std::vector<std::string> splitCsv(std::string line) {
  if (!line.empty() && line.back() == '\r') // Python's csv module ends rows with \r\n
    line.pop_back();
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ','))
    out.push_back(cell);
  return out;
}

std::vector<Measured> loadResults() {
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/tests/gpu/shared_wide/results.csv");
  std::vector<Measured> rows;
  std::string line;
  if (!std::getline(in, line))
    return rows;
  std::vector<std::string> header = splitCsv(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i)
    col[header[i]] = i;
  while (std::getline(in, line)) {
    std::vector<std::string> c = splitCsv(line);
    if (c.size() != header.size() || c[col["inst"]].empty() || std::stod(c[col["inst"]]) == 0)
      continue; // the control launch: no shared instruction
    Measured m;
    m.label = c[col["name"]] + " W" + c[col["width"]] + " " + c[col["op"]];
    m.lanes.widthBytes = std::stoll(c[col["width"]]);
    m.lanes.store = c[col["op"]] == "st";
    unsigned long mask = std::stoul(c[col["mask"]], nullptr, 16);
    for (int l = 0; l < kWarpSize; ++l) {
      m.lanes.active[l] = (mask >> l) & 1u;
      m.lanes.address[l] = std::stoll(c[col["b" + std::to_string(l)]]);
    }
    m.wavefronts = std::stod(c[col["wavefronts_per_inst"]]);
    m.conflicts = std::stod(c[col["conflicts_per_inst"]]);
    rows.push_back(m);
  }
  return rows;
}

} // namespace

TEST(SharedWideMeasured, EveryPatternTakesTheMeasuredWavefronts) {
  std::vector<Measured> rows = loadResults();
  ASSERT_EQ(rows.size(), 197u);
  for (const Measured &m : rows) {
    BankConflictDegree c = sharedBankConflicts(m.lanes);
    EXPECT_EQ(c.wavefronts, m.wavefronts) << m.label;
    EXPECT_EQ(c.wavefronts - c.idealWavefronts, m.conflicts) << m.label;
    EXPECT_EQ(c.degree == 1, m.conflicts == 0) << m.label << " degree " << c.degree;
  }
}

static LaneAddresses sameAddress(int64_t width, bool store = false) {
  LaneAddresses l;
  l.widthBytes = width;
  l.store = store;
  for (int i = 0; i < kWarpSize; ++i)
    l.active[i] = true;
  return l;
}

// The cases of issue 18 by name: a warp-wide broadcast LDS.128 (nvcc's
// merged As[ty + 8 * r][k] reads) is 2 wavefronts, LDS.64 one, and stays
// degree 1; the same broadcast stored is 4 and 2.
TEST(SharedWideMeasured, BroadcastWideLoads) {
  auto b16 = sharedBankConflicts(sameAddress(16));
  EXPECT_EQ(b16.wavefronts, 2);
  EXPECT_EQ(b16.degree, 1);
  EXPECT_EQ(b16.idealWavefronts, 2);
  auto b8 = sharedBankConflicts(sameAddress(8));
  EXPECT_EQ(b8.wavefronts, 1);
  EXPECT_EQ(b8.degree, 1);
  EXPECT_EQ(sharedBankConflicts(sameAddress(16, true)).wavefronts, 4);
  EXPECT_EQ(sharedBankConflicts(sameAddress(8, true)).wavefronts, 2);
}

// Every half-warp reading the same four doubles: each quad of lanes reads
// four addresses, so the half-warps stay apart (2), while two doubles a quad
// are served together (1).
TEST(SharedWideMeasured, QuadsWithMoreThanTwoAddressesKeepTheirPhases) {
  LaneAddresses four = sameAddress(8), two = sameAddress(8);
  for (int l = 0; l < kWarpSize; ++l) {
    four.address[l] = (l % 4) * 8;
    two.address[l] = (l % 2) * 8;
  }
  EXPECT_EQ(sharedBankConflicts(four).wavefronts, 2);
  EXPECT_EQ(sharedBankConflicts(four).degree, 1);
  EXPECT_EQ(sharedBankConflicts(two).wavefronts, 1);
}
