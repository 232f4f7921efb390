// readonly-param fixes: const where every use only reads, __restrict__ only
// with distinct allocations at every launch (or --assume-no-alias).
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --rules readonly-param --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.again.cu --rules readonly-param --fix --color=never
// RUN: diff %t.cu %t.again.cu
// RUN: grep -v CHECK- %s > %t.noalias.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.noalias.cu --rules readonly-param --fix --assume-no-alias --color=never > %t.noalias.log 2>&1
// RUN: %FileCheck --input-file=%t.noalias.cu %s --check-prefix=CHECK-NOALIAS

#include <cuda_runtime.h>

__global__ void gather(float *out, float *in, int *idx, int n) {
  // CHECK-FIXES: {{^}}__global__ void gather(float *out, const float *__restrict__ in, const int *__restrict__ idx, int n) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
}
// CHECK-LOG: note: pointer parameter 'in' is only read: declare it 'const float *__restrict__ in' so its loads can use the read-only data path [readonly-param]
// CHECK-LOG: note: __restrict__ added: every visible launch (line {{[0-9]+}}) passes distinct cudaMalloc allocations for its pointer parameters

// The same allocation passed twice: const, but no __restrict__.
__global__ void scaleInto(float *out, float *in) {
  // CHECK-FIXES: {{^}}__global__ void scaleInto(float *out, const float *in) {{[{]}}{{$}}
  // CHECK-NOALIAS: {{^}}__global__ void scaleInto(float *out, const float *__restrict__ in) {{[{]}}{{$}}
  out[threadIdx.x] = 2.f * in[threadIdx.x];
}
// CHECK-LOG: note: __restrict__ not added: the launch at line {{[0-9]+}} passes the same allocation as 'in' and 'out'

// Template: the pointee is the template parameter.
template <typename T> __global__ void copyT(T *dst, T *src) { dst[threadIdx.x] = src[threadIdx.x]; }
// CHECK-FIXES: {{^}}template <typename T> __global__ void copyT(T *dst, const T *__restrict__ src) { dst[threadIdx.x] = src[threadIdx.x]; }{{$}}

// An explicit instantiation spells the old signature: const would not
// compile, so no fix is offered (redeclarations.cu has the other cases).
template <typename T> __global__ void copyExplicit(T *dst, T *src) { dst[threadIdx.x] = src[threadIdx.x]; }
// CHECK-FIXES: {{^}}template <typename T> __global__ void copyExplicit(T *dst, T *src) { dst[threadIdx.x] = src[threadIdx.x]; }{{$}}
template __global__ void copyExplicit<int>(int *, int *);
// CHECK-LOG: note: no fix: the signature is spelled where the fix cannot follow: 'copyExplicit' is explicitly instantiated at {{.*}}:{{[0-9]+}} with the old parameter types

// ---- negatives -----------------------------------------------------------

__global__ void alreadyConst(float *out, const float *__restrict__ in) { out[threadIdx.x] = in[threadIdx.x]; }
// CHECK-FIXES: {{^}}__global__ void alreadyConst(float *out, const float *__restrict__ in) { out[threadIdx.x] = in[threadIdx.x]; }{{$}}

__global__ void writtenThroughAlias(float *a, const float *b) {
  // CHECK-FIXES: {{^}}__global__ void writtenThroughAlias(float *a, const float *b) {{[{]}}{{$}}
  float *row = a + blockIdx.x * 32;
  row[threadIdx.x] = b[threadIdx.x];
}

__global__ void writtenThroughCast(float *a, const float *b) {
  // CHECK-FIXES: {{^}}__global__ void writtenThroughCast(float *a, const float *b) {{[{]}}{{$}}
  reinterpret_cast<float4 *>(a)[threadIdx.x] = make_float4(b[0], b[1], b[2], b[3]);
}

extern __device__ void consume(float *p);
__global__ void passedToOpaque(float *a) {
  // CHECK-FIXES: {{^}}__global__ void passedToOpaque(float *a) {{[{]}}{{$}}
  consume(a);
}

__device__ void setFirst(float *p, float v) { p[0] = v; }
__global__ void writtenByHelper(float *a, const float *b) {
  // CHECK-FIXES: {{^}}__global__ void writtenByHelper(float *a, const float *b) {{[{]}}{{$}}
  setFirst(a, b[0]);
}

__global__ void atomics(int *counter, const int *v) {
  // CHECK-FIXES: {{^}}__global__ void atomics(int *counter, const int *v) {{[{]}}{{$}}
  atomicAdd(counter, v[threadIdx.x]);
}

int main() {
  float *dOut, *dIn;
  int *dIdx;
  cudaMalloc(&dOut, 4096);
  cudaMalloc(&dIn, 4096);
  cudaMalloc(&dIdx, 4096);
  gather<<<4, 256>>>(dOut, dIn, dIdx, 1024);
  scaleInto<<<1, 32>>>(dOut, dOut);
  copyT<<<1, 32>>>(dOut, dIn);
  return 0;
}
