/* warplint: CUDA 13 removed texture_fetch_functions.h, but clang 19's
 * __clang_cuda_runtime_wrapper.h still includes it. This empty stand-in is put
 * on the include path (after the toolkit's own headers) when parsing against a
 * CUDA 13+ toolkit. */
#pragma once
