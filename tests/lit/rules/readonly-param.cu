// RUN: %not %warplint check --fail-min-gain 0 %s --rules readonly-param --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='note: pointer parameter'
// RUN: %not %warplint check --fail-min-gain 0 %s --rules readonly-param --assume-no-alias --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-NOALIAS

#include <cuda_runtime.h>

// ---- positives ---------------------------------------------------------

// CHECK-MESSAGES: :[[@LINE+1]]:41: note: pointer parameter 'in' is only read: declare it 'const float *__restrict__ in' so its loads can use the read-only data path [readonly-param]
__global__ void copy(float *out, float *in, int n) {
  // CHECK-MESSAGES: note: __restrict__ added: every visible launch (line {{[0-9]+}}) passes distinct cudaMalloc allocations for its pointer parameters
  // CHECK-MESSAGES: note: fix (--fix): declare 'in' as 'const float *__restrict__ in'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Read through a local alias, pointer arithmetic, a cast and a helper that
// takes a const pointer: still only read. No launch: no __restrict__.
__device__ float sum2(const float *p) { return p[0] + p[1]; }
// CHECK-MESSAGES: :[[@LINE+1]]:44: note: pointer parameter 'src' is only read: declare it 'const float *src'
__global__ void aliases(float *dst, float *src) {
  // CHECK-MESSAGES: note: __restrict__ not added: no launch of 'aliases' is visible
  // CHECK-MESSAGES: note: no fix: const on the parameter alone would not compile: it initializes 'row', declared 'float *', at line {{[0-9]+}}; make that const too
  // CHECK-NOALIAS: note: __restrict__ added: --assume-no-alias
  float *row = src + blockIdx.x * 64;
  const float4 *v = reinterpret_cast<const float4 *>(row);
  dst[threadIdx.x] = row[threadIdx.x] + sum2(row) + v[0].x;
}

// Every lane reads the same element: __constant__ advice.
// CHECK-MESSAGES: :[[@LINE+1]]:43: note: pointer parameter 'coef' is only read
__global__ void scale(float *data, float *coef) {
  // CHECK-MESSAGES: note: every lane reads 'coef' at the same index: if it fits in 64 KB, a __constant__ array broadcasts it (advice only, not applied
  data[threadIdx.x] *= coef[0];
}

// ---- negatives -------------------------------------------------------------

__global__ void alreadyConstRestrict(float *out, const float *__restrict__ in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void alreadyConst(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void writtenThroughAlias(float *a) {
  float *q = a + 1;
  q[threadIdx.x] = 0.f;
}
__global__ void writtenThroughCast(float *a) { reinterpret_cast<int *>(a)[threadIdx.x] = 0; }
extern __device__ void opaque(float *p);
__global__ void passedToUnanalyzed(float *a) { opaque(a); }
__device__ void zero(float *p) { p[threadIdx.x] = 0.f; }
__global__ void writtenByHelper(float *a) { zero(a); }
__global__ void incremented(int *a) { a[threadIdx.x]++; }
__global__ void atomics(int *a) { atomicAdd(a, 1); }
__global__ void storedAway(float **slots, float *a) { slots[0] = a; }
__global__ void unused(float *a) {}
// Struct and vector elements written through their (implicit) operator=.
struct Pair { float a, b; };
__global__ void structCopy(Pair *out, const Pair *in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void vectorCopy(float4 *out, const float4 *in) { out[threadIdx.x] = in[threadIdx.x]; }

// The same pointer for both parameters: const, but no __restrict__.
// CHECK-MESSAGES: :[[@LINE+1]]:44: note: pointer parameter 'in' is only read: declare it 'const float *in'
__global__ void inPlace(float *out, float *in) {
  // CHECK-MESSAGES: note: __restrict__ not added: the launch at line {{[0-9]+}} passes the same allocation as 'in' and 'out'
  out[threadIdx.x] = 2.f * in[threadIdx.x];
}

int main() {
  float *dOut, *dIn;
  cudaMalloc(&dOut, 4096);
  cudaMalloc(&dIn, 4096);
  copy<<<4, 256>>>(dOut, dIn, 1024);
  inPlace<<<1, 256>>>(dOut, dOut);
  return 0;
}
