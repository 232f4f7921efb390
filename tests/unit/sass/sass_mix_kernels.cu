// Small kernels whose SASS (nvcc -cubin -arch=sm_90 -lineinfo, disassembled
// by nvdisasm and cuobjdump on the H100 machine) is the fixture of
// tests/unit/sass_mix_test.cpp: one instruction class each where possible,
// a helper inlined at two call sites, a fully unrolled constant loop, a
// loop of run-time trip count, and a template instance.
#include <cuda_runtime.h>

__device__ __forceinline__ float axpy(float a, float x, float y) {
  return a * x + y; // one FFMA at each call site
}

// FFMA in a loop of n iterations (not unrolled: n is a parameter).
__global__ void fmaLoop(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < n; ++k)
    acc = axpy(a, x[i + k * 1024], acc);
  y[i] = axpy(a, acc, 1.f);
}

// A constant loop of 4 trips, fully unrolled: four LDS on the loop's line.
__global__ void sharedUnrolled(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    s += tile[(threadIdx.x + 64 * k) & 255];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// MUFU (sin, exp) and FP64 (DFMA) on their own lines.
__global__ void specialAndDouble(const float *x, double *d, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float s = __sinf(v) + __expf(v);
  double w = d[i] * 3.0 + 1.0;
  y[i] = s;
  d[i] = w;
}

// A private array indexed by data: local memory (LDL/STL).
__global__ void localArray(const int *idx, const float *in, float *out) {
  float priv[64];
  int j = idx[threadIdx.x];
  for (int k = 0; k < j; ++k)
    priv[k & 63] = in[threadIdx.x + k * blockDim.x];
  out[threadIdx.x] = priv[(j >> 6) & 63];
}

template <int R> __global__ void scaled(float *p) {
  p[threadIdx.x] *= float(R);
}
template __global__ void scaled<3>(float *);
