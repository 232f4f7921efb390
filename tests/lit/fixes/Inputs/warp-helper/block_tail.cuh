// A warp tail helper in a header: every file that includes it may call it.
#pragma once

__device__ void headerTail(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}
