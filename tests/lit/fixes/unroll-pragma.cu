// The unroll-pragma fix of private-array-local-memory: a constant-trip loop
// kept rolled by a count is unrolled fully, and the array leaves local
// memory (the re-analysis of --fix and a second check both show it).
// Arrays with another cause keep their pragma.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check %t.cu --rules private-array-local-memory --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: %not %warplint check %t.cu --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-AFTER --implicit-check-not=warning:

__global__ void rolled16(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[16];
// CHECK-FIXES: {{^}}#pragma unroll{{$}}
// CHECK-FIXES-NEXT: for (int k = 0; k < 16; ++k)
#pragma unroll 1
  for (int k = 0; k < 16; ++k)
    t[k] = in[i + k];
  float s = 0;
// CHECK-FIXES: {{^}}#pragma unroll{{$}}
#pragma unroll 2
  for (int k = 0; k < 16; ++k)
    s += t[k] * k;
  out[i] = s;
}

// The pragma is not the only reason: the loop bound is a run-time value too.
__global__ void alsoData(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[64];
// CHECK-FIXES: {{^}}#pragma unroll 1{{$}}
#pragma unroll 1
  for (int k = 0; k < 64; ++k)
    t[k] = in[i + k];
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += t[k];
  out[i] = s;
}

// CHECK-LOG: warning: private array 't' (float[16], 64 bytes a thread) is placed in local memory
// CHECK-LOG: note: fix (--fix): unroll the loops indexing 't' fully (`#pragma unroll` without a count)
// CHECK-LOG: warning: private array 't' (float[64], 256 bytes a thread) is placed in local memory
// CHECK-AFTER: warning: private array 't' (float[64], 256 bytes a thread) is placed in local memory
