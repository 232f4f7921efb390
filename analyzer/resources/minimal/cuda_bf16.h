/* warplint minimal-CUDA mode: __nv_bfloat16 and __nv_bfloat162 with the
 * common conversions and arithmetic, enough to parse kernels that use them. */
#pragma once
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header
#include "__warplint_half_types.h"
WARPLINT_HALF_TYPE(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162, float2bfloat16,
                   bfloat162float, 2bfloat16, bfloat1622float2)
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
