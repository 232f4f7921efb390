/* warplint minimal-CUDA mode: the declarations this header would provide come
 * from cuda_minimal.h, which is force-included before the source. */
#pragma once
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header
