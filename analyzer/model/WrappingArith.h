// The int64 arithmetic of the expression evaluators (evaluate() and
// loopValueAt() in IndexExpr.cpp, FlatExpr in analyzer/warp/), which must
// agree bit for bit. A source can put any constant in an index
// (`a[m / d]` with m = INT64_MIN), so the evaluators meet every value:
// sums, differences, products, negations and left shifts wrap as two's
// complement (as the GPU's integer units do) instead of being signed
// overflow, which is undefined behavior; and INT64_MIN / -1 (or % -1),
// whose quotient does not fit and which traps (SIGFPE) on x86, has no value.
// Found by reading the evaluator for the fuzzer: `a[m / d]` with d = tid-1
// killed `warplint check` with a floating point exception.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace warplint {

inline int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t wrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
inline int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }
inline int64_t wrapNeg(int64_t a) { return static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(a)); }
// Callers have checked 0 <= b <= 62.
inline int64_t wrapShl(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) << b); }
// a / b and a % b, no value for b == 0 and for INT64_MIN / -1.
inline bool divisible(int64_t a, int64_t b) {
  return b != 0 && !(a == std::numeric_limits<int64_t>::min() && b == -1);
}

} // namespace warplint
