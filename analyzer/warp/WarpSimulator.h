// What one warp request does in the memory system, given each lane's byte
// address: the shared-memory bank-conflict degree (32 banks of 4 bytes,
// broadcast of a shared word, 8- and 16-byte accesses split into the phases
// the hardware serves separately, as measured on an H100:
// tests/gpu/shared_wide/) and the 32-byte global sectors touched.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace warplint {

constexpr int kWarpSize = 32;
constexpr int kBanks = 32;
constexpr int kBankWidthBytes = 4;
constexpr int kSectorBytes = 32;

struct LaneAddresses {
  std::array<bool, kWarpSize> active{};
  std::array<int64_t, kWarpSize> address{}; // bytes from an aligned base
  int64_t widthBytes = 4;
  // A store: 8- and 16-byte stores are always served in fixed half- and
  // quarter-warp phases; loads whose lanes share addresses are served in
  // fewer (sharedBankConflicts). Left false, a store is priced as a load
  // (never more wavefronts than as a store).
  bool store = false;
  int activeCount() const;
  bool uniform() const; // every active lane at the same address
};

struct BankConflictDegree {
  int degree = 1;          // worst number of distinct words in one bank in one phase
  int wavefronts = 1;      // passes the access takes
  int idealWavefronts = 1; // passes for the same bytes with no conflict: one a phase
  int bank = -1;           // a bank with the worst degree
  std::vector<int> lanes;  // lanes that reach that bank with distinct words
};

struct SectorsPerRequest {
  int sectors = 0;
  int idealSectors = 0; // the same bytes contiguous, plus what the warp's misalignment alone costs
};

BankConflictDegree sharedBankConflicts(const LaneAddresses &lanes);
SectorsPerRequest globalSectors(const LaneAddresses &lanes);

} // namespace warplint
