// A model index expression as a polynomial with integer coefficients over
// the values it reads: the built-in variables, parameters, warp-uniform
// unknowns, each loop's iteration count (a loop variable stepping by +s or -s
// is init + k*s), and any other sub-expression (a division, a select) taken
// as one opaque integer. Enough to prove, for every binding at once, what
// the warp evaluator only samples: that an address is a multiple of W, that
// two addresses differ by a constant, how an address moves with threadIdx.x.
// Used by the byte-packing fix (analyzer/facts/BytePacking.cpp).
#pragma once

#include "analyzer/model/IndexExpr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct OffsetPolynomial {
  // Monomial (its atoms, sorted, repeated for powers; empty for the
  // constant term) -> coefficient, never 0.
  std::map<std::vector<std::string>, int64_t> terms;

  // The constant when there is no other term.
  std::optional<int64_t> constant() const;
  // Every coefficient, the constant term included, is a multiple of `w`:
  // the value is a multiple of `w` for every value of the atoms.
  bool divisibleBy(int64_t w) const;
  // The coefficient of threadIdx.x alone, when no other term reads
  // threadIdx.x: the address moves by it from one lane to the next in x.
  std::optional<int64_t> laneCoefficient() const;
};

// The atom standing for the iteration count of loop `loopId` (a loop
// variable stepping by +s is init + this * s).
std::string loopIterationAtom(int loopId);

// nullopt when `e` has an Unknown leaf or the coefficients overflow.
std::optional<OffsetPolynomial> offsetPolynomial(const IndexExpr &e);

// a - b; nullopt on overflow.
std::optional<OffsetPolynomial> difference(const OffsetPolynomial &a, const OffsetPolynomial &b);

} // namespace warplint
