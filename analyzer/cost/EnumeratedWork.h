// One access's work in a block, enumerated over the block's threads and
// the iterations of the loops its address and guards walk
// (analyzer/warp/BlockEnumeration.h): the wavefronts, sectors and lines of
// its warp requests, and the sectors it touches in block 0 and in the
// blocks beside it. The per-access part of the cost tally (WorkTally.cpp).
#pragma once

#include "analyzer/cost/WorkTally.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace warplint {

using SectorSet = std::unordered_set<int64_t>;

// Every 32-byte sector of [address, address + widthBytes).
void insertSectors(SectorSet &into, int64_t address, int64_t widthBytes);

// The sectors one block touches through a global array, for block 0 and for
// its neighbour along each dimension of the grid, over every access of the
// array (the same enumeration window as the counts).
struct ArraySectors {
  SectorSet block0, neighbour[3];
  bool complete = true; // every access of the array was enumerated
};

// Adds `a`'s sectors in block 0 (`own`, from its count) and in the block
// after block 0 along each dimension the grid has to `out`.
void addNeighbourSectors(const ModeledAccess &a, const BlockShape &block, const EvaluationOptions &eo,
                         const BlockShape &grid, const TallyOptions &opts, const SectorSet &own,
                         ArraySectors &out);

// The trip count of loop `loop` (an index into the kernel's loops), 1 when
// not known.
double tripsOf(const std::vector<std::optional<double>> &trips, int loop);

// Enumerates the access over the block and sums what each warp request
// costs into `w` (its multiplier and notes too); false when it cannot be
// placed. `sectorsOut`: the sectors block 0 touches through it.
bool countEnumerated(const ModeledAccess &a, const BlockShape &block, const EvaluationOptions &eo,
                     const std::vector<std::optional<double>> &trips, const ModeledKernel &k,
                     const TallyOptions &opts, AccessWork &w, SectorSet *sectorsOut = nullptr);

// countEnumerated for the accesses of one kernel, each access written alike
// counted once: a stencil reads mu(i, j, k) a dozen times in one body, and
// its kernels repeat each other's reads (sw4ck: the block enumeration was a
// tenth of its time). The key: what countEnumerated reads of the access
// (its fingerprint under this block and these options, the lane budget, the
// loops around it). An access in or over loops also reads this kernel's
// loops and trip counts: it is kept for this kernel only; one outside every
// loop, for the thread's whole run.
class EnumeratedCounts {
public:
  EnumeratedCounts(const ModeledKernel &k, const BlockShape &block, const EvaluationOptions &eo,
                   const std::vector<std::optional<double>> &trips, const TallyOptions &opts)
      : k_(k), block_(block), eo_(eo), trips_(trips), opts_(opts) {}

  // As countEnumerated; `w`'s own fields (which access, its width, loops and
  // region) stay, the counts are copied from the first access written alike.
  bool count(const ModeledAccess &a, AccessWork &w, SectorSet *sectorsOut);

private:
  struct Counted {
    bool placed = false;
    AccessWork work;
    SectorSet sectors;
  };
  const ModeledKernel &k_;
  BlockShape block_;
  const EvaluationOptions &eo_;
  const std::vector<std::optional<double>> &trips_;
  const TallyOptions &opts_;
  std::unordered_map<std::string, Counted> kernelAlike_;
};

} // namespace warplint
