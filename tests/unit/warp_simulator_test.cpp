// The lane simulator on hand-built warps: bank-conflict degrees with
// broadcast and wide accesses, and sectors per request.
#include "analyzer/warp/WarpSimulator.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace warplint;

static LaneAddresses strided(int64_t strideBytes, int64_t width, int64_t base = 0) {
  LaneAddresses l;
  l.widthBytes = width;
  for (int i = 0; i < kWarpSize; ++i) {
    l.active[i] = true;
    l.address[i] = base + i * strideBytes;
  }
  return l;
}

TEST(BankConflicts, ConsecutiveWordsAreConflictFree) {
  auto c = sharedBankConflicts(strided(4, 4));
  EXPECT_EQ(c.degree, 1);
  EXPECT_EQ(c.wavefronts, 1);
}

TEST(BankConflicts, ColumnOfA32x32FloatTileIs32Way) {
  auto c = sharedBankConflicts(strided(32 * 4, 4));
  EXPECT_EQ(c.degree, 32);
  EXPECT_EQ(c.bank, 0);
  EXPECT_EQ(c.lanes.size(), 32u);
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.idealWavefronts, 1);
}

TEST(BankConflicts, PaddedColumnIsConflictFree) {
  EXPECT_EQ(sharedBankConflicts(strided(33 * 4, 4)).degree, 1);
}

TEST(BankConflicts, EvenStridesConflictByTheirPowerOfTwo) {
  EXPECT_EQ(sharedBankConflicts(strided(2 * 4, 4)).degree, 2);
  EXPECT_EQ(sharedBankConflicts(strided(4 * 4, 4)).degree, 4);
  EXPECT_EQ(sharedBankConflicts(strided(8 * 4, 4)).degree, 8);
  EXPECT_EQ(sharedBankConflicts(strided(16 * 4, 4)).degree, 16);
  EXPECT_EQ(sharedBankConflicts(strided(3 * 4, 4)).degree, 1); // odd strides: no conflict
  EXPECT_EQ(sharedBankConflicts(strided(6 * 4, 4)).degree, 2);
}

TEST(BankConflicts, BroadcastIsNotAConflict) {
  auto c = sharedBankConflicts(strided(0, 4));
  EXPECT_EQ(c.degree, 1);
  EXPECT_TRUE(strided(0, 4).uniform());
}

TEST(BankConflicts, LanesSharingWordsBroadcast) {
  // Pairs of lanes read the same word: 16 distinct words in 16 banks.
  LaneAddresses l = strided(0, 4);
  for (int i = 0; i < 32; ++i)
    l.address[i] = (i / 2) * 4;
  EXPECT_EQ(sharedBankConflicts(l).degree, 1);
}

TEST(BankConflicts, BytesInOneWordDoNotConflict) {
  EXPECT_EQ(sharedBankConflicts(strided(1, 1)).degree, 1);
}

TEST(BankConflicts, XorSwizzleIsConflictFree) {
  // Column read of a 32x32 tile with the column XOR-ed by the row.
  LaneAddresses l = strided(0, 4);
  int col = 5;
  for (int row = 0; row < 32; ++row)
    l.address[row] = (row * 32 + (col ^ row)) * 4;
  EXPECT_EQ(sharedBankConflicts(l).degree, 1);
}

TEST(BankConflicts, EightByteAccessesRunInTwoPhases) {
  // Consecutive doubles: each half-warp covers 128 bytes, no conflict.
  auto c = sharedBankConflicts(strided(8, 8));
  EXPECT_EQ(c.degree, 1);
  EXPECT_EQ(c.wavefronts, 2);
  // Stride of two doubles: 2-way within each half-warp.
  auto c2 = sharedBankConflicts(strided(16, 8));
  EXPECT_EQ(c2.degree, 2);
  EXPECT_EQ(c2.wavefronts, 4);
  EXPECT_EQ(c2.idealWavefronts, 2);
}

TEST(BankConflicts, SixteenByteAccessesRunInFourPhases) {
  auto c = sharedBankConflicts(strided(16, 16));
  EXPECT_EQ(c.degree, 1);
  EXPECT_EQ(c.wavefronts, 4);
  // A column of float4 in a [32][8] float4 tile: 8 lanes per phase, all in bank 0-3.
  auto c2 = sharedBankConflicts(strided(8 * 16, 16));
  EXPECT_EQ(c2.degree, 8);
}

// A 32-byte struct copied whole is two 16-byte instructions, each 2-way at a
// 32-byte stride (lanes 0 and 4 of a quarter-warp share banks 0-3): 16
// wavefronts where 8 suffice, not one 32-byte pass with nothing to gain.
TEST(BankConflicts, WiderThanSixteenBytesIsSixteenBytePieces) {
  auto c = sharedBankConflicts(strided(32, 32));
  EXPECT_EQ(c.degree, 2);
  EXPECT_EQ(c.wavefronts, 16);
  EXPECT_EQ(c.idealWavefronts, 8);
  // Padded to a 48-byte stride the pieces are conflict-free.
  auto padded = sharedBankConflicts(strided(48, 32));
  EXPECT_EQ(padded.degree, 1);
  EXPECT_EQ(padded.wavefronts, padded.idealWavefronts);
}

TEST(BankConflicts, InactiveLanesDoNotCount) {
  LaneAddresses l = strided(32 * 4, 4);
  for (int i = 4; i < 32; ++i)
    l.active[i] = false;
  EXPECT_EQ(sharedBankConflicts(l).degree, 4);
}

TEST(Sectors, ConsecutiveFloatsTakeFourSectors) {
  auto s = globalSectors(strided(4, 4));
  EXPECT_EQ(s.sectors, 4);
  EXPECT_EQ(s.idealSectors, 4);
}

TEST(Sectors, MisalignmentIsPartOfTheIdeal) {
  // One extra sector from misalignment is not uncoalescing: the ideal keeps
  // the warp's first-byte alignment.
  auto s = globalSectors(strided(4, 4, 4));
  EXPECT_EQ(s.sectors, 5);
  EXPECT_EQ(s.idealSectors, 5);
  auto bytes = globalSectors(strided(1, 1, -1)); // in[i - 1] on bytes
  EXPECT_EQ(bytes.sectors, 2);
  EXPECT_EQ(bytes.idealSectors, 2);
}

TEST(Sectors, MisalignedStridedAccessIsStillFarFromIdeal) {
  auto s = globalSectors(strided(128, 4, 4));
  EXPECT_EQ(s.sectors, 32);
  EXPECT_EQ(s.idealSectors, 4);
  // Stride two floats, one float in: 8 sectors, twice the 4 the bytes need.
  auto two = globalSectors(strided(8, 4, 4));
  EXPECT_EQ(two.sectors, 8);
  EXPECT_EQ(two.idealSectors, 4);
}

TEST(Sectors, TwoDimensionalRowsShiftedByOneElement) {
  // Four rows of 8 floats, 4 KiB apart, all one float to the left.
  LaneAddresses l = strided(0, 4);
  for (int i = 0; i < 32; ++i)
    l.address[i] = (i / 8) * 4096 + (i % 8) * 4 - 4;
  auto s = globalSectors(l);
  EXPECT_EQ(s.sectors, 8);
  EXPECT_EQ(s.idealSectors, 8);
}

TEST(Sectors, StrideOf32FloatsTouches32Sectors) {
  auto s = globalSectors(strided(128, 4));
  EXPECT_EQ(s.sectors, 32);
  EXPECT_EQ(s.idealSectors, 4);
}

TEST(Sectors, StrideTwoDoublesTraffic) {
  auto s = globalSectors(strided(8, 4));
  EXPECT_EQ(s.sectors, 8);
  EXPECT_EQ(s.idealSectors, 4);
}

TEST(Sectors, BroadcastIsOneSector) {
  auto s = globalSectors(strided(0, 4));
  EXPECT_EQ(s.sectors, 1);
  EXPECT_EQ(s.idealSectors, 1);
}

TEST(Sectors, BytesAndVectors) {
  EXPECT_EQ(globalSectors(strided(1, 1)).sectors, 1);
  EXPECT_EQ(globalSectors(strided(16, 16)).sectors, 16);
  EXPECT_EQ(globalSectors(strided(16, 16)).idealSectors, 16);
}

TEST(Sectors, NegativeOffsetsFloorToTheirSector) {
  auto s = globalSectors(strided(4, 4, -4));
  EXPECT_EQ(s.sectors, 5);
  EXPECT_EQ(s.idealSectors, 5);
}

// Sectors and ideal sectors against a brute-force count over every byte,
// on random warps: lanes in address order (forward strides, repeats,
// overlapping wide lanes; counted in one pass) and in any order.
namespace {
int64_t floorSector(int64_t b) { return b >= 0 ? b / 32 : -((-b + 31) / 32); }
SectorsPerRequest bruteForceSectors(const LaneAddresses &l) {
  std::set<int64_t> bytes, sectors;
  for (int i = 0; i < kWarpSize; ++i)
    if (l.active[i])
      for (int64_t b = l.address[i]; b < l.address[i] + l.widthBytes; ++b) {
        bytes.insert(b);
        sectors.insert(floorSector(b));
      }
  SectorsPerRequest r;
  r.sectors = static_cast<int>(sectors.size());
  if (bytes.empty())
    return r;
  int64_t shift = ((*bytes.begin() % 32) + 32) % 32;
  std::set<int64_t> shifted;
  for (int64_t b : bytes)
    shifted.insert(floorSector(b - shift));
  r.idealSectors = static_cast<int>((bytes.size() + 31) / 32) + std::max(0, r.sectors - static_cast<int>(shifted.size()));
  return r;
}
} // namespace

TEST(Sectors, OnePassCountMatchesEveryByte) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    LaneAddresses l;
    const int64_t widths[] = {1, 2, 4, 8, 16};
    l.widthBytes = widths[rng() % 5];
    int64_t at = static_cast<int64_t>(rng() % 4096) - 2048;
    bool ordered = trial % 3 != 0;
    for (int i = 0; i < kWarpSize; ++i) {
      l.active[i] = rng() % 8 != 0;
      if (ordered)
        at += static_cast<int64_t>(rng() % 4 == 0 ? 0 : rng() % 40); // repeats, overlaps, gaps
      else
        at = static_cast<int64_t>(rng() % 2048) - 1024;
      l.address[i] = at;
    }
    SectorsPerRequest fast = globalSectors(l), slow = bruteForceSectors(l);
    ASSERT_EQ(fast.sectors, slow.sectors) << "trial " << trial;
    ASSERT_EQ(fast.idealSectors, slow.idealSectors) << "trial " << trial;
  }
}
