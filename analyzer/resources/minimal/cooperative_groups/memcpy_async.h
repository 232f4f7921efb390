/* warplint minimal-CUDA mode: declared in <cooperative_groups.h>. */
#pragma once
#include <cooperative_groups.h>
