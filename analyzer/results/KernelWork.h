// What one block of a kernel does, counted (analyzer/cost/WorkTally.cpp): how
// many times each warp executes each memory access, the shared wavefronts and
// global sectors those executions cost, the distinct sectors the block touches,
// and an estimate of the warp instructions it issues. Counts only, at the
// stated values of what the code leaves open (scalar parameters, the grid);
// the cost model (analyzer/cost/KernelCostModel.h) turns them into time with a
// hardware profile.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

// One memory access over every warp of one block and every iteration of the
// loops around it. Totals are per block.
struct AccessWork {
  size_t access = 0;          // index into KernelInfo::accesses
  bool counted = false;       // the totals below hold
  std::string notCounted;     // why not, when !counted
  double warpExecutions = 0;  // warp-level executions (warps with an active lane)
  double laneExecutions = 0;  // thread-level executions
  // Shared: wavefronts the hardware needs and the fewest that could serve the
  // same lanes (bank conflicts are the difference).
  double wavefronts = 0, idealWavefronts = 0;
  // Global and local: 32-byte sectors requested and the fewest that could
  // hold the same bytes; distinct sectors the block touches through it.
  double sectors = 0, idealSectors = 0;
  double distinctSectors = 0;
  // Distinct 128-byte lines of each warp request, summed: the L1 data
  // pipe's passes (wavefronts) for global and local requests.
  double lines = 0;
  // Constant: the distinct addresses of each warp request, summed (the
  // constant cache serves one at a time).
  double constantAddresses = 0;
  // Bytes one thread has in flight per execution (the access width), for the
  // memory-level parallelism of the global component.
  int64_t widthBytes = 0;
  std::vector<int> loops; // the loops around it (indices into KernelInfo::loops), outermost first
  int region = 0;         // its straight-line region (accesses of one region are in flight together)
  // Executions not enumerated but multiplied in: the trip counts of enclosing
  // loops the address does not depend on, and the iterations of loops cut to
  // a prefix ("x 1024 iterations of the loop at line 12 (n = 1024)").
  double multiplier = 1;
  std::vector<std::string> multiplierNotes;
};

// Arithmetic and control operations of one region of the body, with the
// loops around it: what the instruction estimate counts when no native code
// is read.
struct OperationCount {
  int operations = 0;      // operators, calls and branches of the region
  int sfuOperations = 0;   // of which transcendental/special calls (sinf, expf, rsqrtf, ...)
  int fp64Operations = 0;  // of which on double
  std::vector<int> loops;  // indices into KernelInfo::loops, outermost first
};

struct KernelWork {
  bool computed = false;
  std::string notComputed;         // why not (no block shape, ...)
  BlockShape block;                // the shape counted (the kernel's first)
  std::optional<int64_t> gridBlocks; // blocks in the launch, when the grid is known at the stated values
  std::optional<BlockShape> grid;    // its shape
  std::string gridSource;          // "launch at line 40", "assumed: 8 waves of full occupancy"
  std::vector<AccessWork> accesses;
  // Warp instructions one block issues, estimated from the body's operations
  // (every warp runs every operation, loops by their trip counts) plus one
  // instruction per warp execution of each memory access.
  double warpInstructions = 0;
  double sfuWarpInstructions = 0, fp64WarpInstructions = 0;
  // Per global array (base name): how much of a block's distinct sectors the
  // next block along x, y and z does not also touch (1: blocks share nothing,
  // 0: every block reads the same sectors, a table), measured by walking
  // blocks 1 of each dimension beside block 0, and the block's distinct bytes
  // in the walked window. DRAM serves a sector the grid shares once while L2
  // holds it (analyzer/cost/KernelCostModel.cpp).
  struct GridSharing {
    double newShare[3] = {1, 1, 1};
    double blockBytes = 0;
  };
  std::map<std::string, GridSharing> globalSharing;
  int barriers = 0;                // __syncthreads() calls in the body (static)
  int64_t staticSharedBytes = 0;   // __shared__ arrays of known size
  // Loop trip counts used (loop index -> trips at the stated values) and
  // everything assumed to get them.
  std::vector<std::optional<double>> loopTrips;
  std::vector<std::string> assumptions;
};

} // namespace warplint
