// Small kernels whose SASS (nvcc -cubin -arch=sm_90 -lineinfo, disassembled
// by nvdisasm -c -gi) is the second fixture of tests/unit/sass_mix_test.cpp:
// code behind a branch that only some warps take, shared reads nvcc loads
// once for two unrolled iterations, and broadcast reads nvcc merges into
// 16-byte loads inside a loop it unrolls by 8.
#include <cuda_runtime.h>

// 256 threads: the store runs in all 8 warps, the branch in 2 of them.
__global__ void guardedHalf(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  if (threadIdx.x < 64) {
    float v = s[threadIdx.x + 64] * 3.f + s[threadIdx.x + 128];
    out[threadIdx.x] = v;
  }
}

// Six reads a thread in the source, four distinct words: four LDS.
__global__ void reusedWindow(const float *in, float *out) {
  __shared__ float s[260];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  float a = 0.f, b = 0.f;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    a += s[threadIdx.x + k]; b += s[threadIdx.x + k + 1];
  }
  out[blockIdx.x * 256 + threadIdx.x] = a * b;
}

// A warp's lanes read one row word by word: nvcc loads four words at once
// (LDS.128) in the k loop, unrolled by 8.
__global__ void wideReads(float *out, int n) {
  __shared__ float row[8][32];
  row[threadIdx.y][threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  float acc = 0.f;
  for (int t = 0; t < n; ++t) {
#pragma unroll 8
    for (int k = 0; k < 32; ++k)
      acc += row[threadIdx.y][k] * float(t);
  }
  out[threadIdx.y * 32 + threadIdx.x] = acc;
}
