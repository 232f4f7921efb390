// The padding rewrite offered by shared-bank-conflict (S_1): pick the
// smallest padding of the innermost dimension that the analyzer's trials show
// to be conflict-free for every access; where none is, the padding with the
// fewest wavefronts above the ideal if it beats the layout as written, naming
// the conflicts it leaves; or say why none is offered. A note names the XOR
// swizzle when the trials show it conflict-free.
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include <string>

namespace warplint {

// Adds the fix (when `offerFix`), the refusal or the pointer to the finding
// that carries it, the alternatives note and details["fix"] to `f`.
void describePaddingFix(const KernelInfo &k, const std::string &array, bool offerFix, Finding &f);

// `text` (a dimension as written) grown by `pad`: "32" -> "33",
// "TILE_DIM" -> "TILE_DIM + 1", "TILE_DIM + 1" -> "TILE_DIM + 2", "a*b" -> "(a*b) + 1".
std::string paddedDimension(const std::string &text, int64_t pad);

extern const char *const kPaddingFixSafety;

} // namespace warplint
