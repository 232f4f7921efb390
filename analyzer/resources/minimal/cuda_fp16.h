/* warplint minimal-CUDA mode: __half and __half2 with the common conversions
 * and arithmetic, enough to parse kernels that use them. */
#pragma once
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header
#include "__warplint_half_types.h"
WARPLINT_HALF_TYPE(__half, __half2, half, half2, float2half, half2float, 2half, half22float2)
typedef __half half;
typedef __half2 half2;
