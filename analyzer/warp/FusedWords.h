// The consecutive 4-byte words one thread reads or writes in a fully
// unrolled constant loop, `s[4*t + k]` for k = 0..3, are not four requests
// on the GPU: the compiler fuses them into one 16-byte access (LDS.128 /
// STS.128; two words into LDS.64) when it can prove the start aligned. The
// bank-conflict degree is then that of the wide access, in the quarter- or
// half-warp phases the hardware serves it in, not that of the word access
// as written (4-way for s[4*t + k], none once fused).
//
// What nvcc 13 (sm_90) was seen to fuse and not to fuse (cuobjdump -sass):
//   fused:     s[4*t + k], k < 4 (LDS.128); s[2*t + k], k < 2 (LDS.64);
//              s[8*t + k], k < 4 and k < 8 (LDS.128, two of them); the same
//              as writes (STS.128); in the kernel's only static __shared__
//              array (ptxas places it at offset 0) and in an extern
//              (dynamic) one, which PTX declares 16-byte aligned. Rows of
//              32 words walked by k < 32 (m[t][k]) were measured on the H100
//              as LDS.128 (tests/gpu/RESULTS.md, Repro B).
//   not fused: a second static __shared__ array (ptxas packs it after the
//              first, 4-byte aligned); `if (k < n)` inside the loop
//              (predicated word loads); rows of 33 words (s[r][4*c + k]).
// Only those cases are modeled: an access is fused when the compiler
// verifiably can, and otherwise evaluated as written.
#pragma once

#include "analyzer/model/KernelWalker.h"
#include "analyzer/warp/AccessEvaluator.h"

#include <optional>
#include <string>

namespace warplint {

struct FusedAccess {
  GuardedAccess access; // the group as one access per lane, over the groups' first iterations
  std::string note;     // for MemoryAccess::assumptions
};

// The access as the compiler emits it when its words are fused, or nullopt
// when it is not (or not provably) fused.
std::optional<FusedAccess> fuseUnrolledWords(const ModeledKernel &k, const ModeledAccess &a);

} // namespace warplint
