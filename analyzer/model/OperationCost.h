// What one expression node costs in instructions, roughly, for the cost
// model's instruction estimate when no native code is read: an arithmetic,
// comparison or logical operator, a select, a conversion between integer and
// floating point one each; a floating `a * b + c` one fused multiply-add;
// math library calls more, the special-function ones (sinf, expf, rsqrtf,
// ...) on the SFU. Memory accesses are counted with their executions instead
// (analyzer/cost/WorkTally.cpp), and address arithmetic not at all.
#pragma once

#include "clang/AST/Expr.h"

namespace warplint {

struct OperationCost {
  int operations = 0;
  int sfu = 0;     // of which on the special-function unit
  int fp64 = 0;    // of which on double
  bool barrier = false; // __syncthreads() and its variants
};

OperationCost operationCost(const clang::Expr *e);

} // namespace warplint
