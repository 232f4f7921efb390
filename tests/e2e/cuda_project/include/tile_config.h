#pragma once

#ifndef WL_TILE_DIM
#error "WL_TILE_DIM must be defined by the build (target_compile_definitions)"
#endif

// Called from device code: needs --expt-relaxed-constexpr with nvcc.
constexpr int globalIndex(int row, int col, int n) { return row * n + col; }
