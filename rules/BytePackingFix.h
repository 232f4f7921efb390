// Edits behind global-narrow-access's fixes (rules/BytePackingFix.cpp).
#pragma once

#include "analyzer/results/AnalysisResults.h"
#include "rules/Finding.h"
#include <string>

namespace warplint {

// "uchar4" / "char4" for a byte element type, nullptr otherwise (bool).
const char *byteVectorType(const std::string &element);

// Why alignment of `g`'s pointer is not shown at every launch; "" when it is.
std::string packingAlignmentRefusal(const KernelInfo &k, const BytePackWindow::Group &g);

// "4*i+0..3" for a spelled window, "i+0..3" for one the model proved
// (vector index "i / 4"): the bytes of each pointer a thread moves.
std::string packedBytesText(const BytePackWindow &w);

// "4*i", or "i, a multiple of 4 for every thread (proven by the model)":
// what makes the vector index exact.
std::string packedIndexProof(const BytePackWindow &w);

// The replacements packing window `w` (statements or loop form) into `x`.
void addPackingEdits(const BytePackWindow &w, Fix &x);

// Adds the --fix-launch rewrite (when `offer`), the refusal or the pointer to
// the finding that carries it, to the one-byte-a-lane finding `f`.
void describeLaunchFix(const KernelInfo &k, const ByteLaneKernel &b, bool offer, Finding &f);

} // namespace warplint
