/* warplint minimal-CUDA mode: nothing from this header is declared. */
#pragma once
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header
