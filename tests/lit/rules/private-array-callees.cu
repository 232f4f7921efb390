// RUN: %not %warplint check %s --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --rules private-array-local-memory --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
//
// Size alone, arrays passed into visible helpers, and loops with a run-time
// bound (issue 19). The stack frame of each kernel is what
// `nvcc -arch=sm_90 -c -Xptxas -v` (CUDA 13.0) printed when this file was
// written; private-array-ptxas.cu repeats such checks where nvcc is installed.

// ---- negatives ---------------------------------------------------------

// 1 KiB a thread, every subscript a constant once the loops are unrolled:
// ptxas keeps it in registers (0-byte stack frame, no spills). The old size
// limit (the profile probe's 488 bytes) reported it.
__global__ void unrolled1k(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[16][16];
#pragma unroll
  for (int r = 0; r < 16; ++r)
#pragma unroll
    for (int c = 0; c < 16; ++c)
      t[r][c] = in[i + (r * 16 + c) * 1024];
  float s = 0;
#pragma unroll
  for (int r = 0; r < 16; ++r)
#pragma unroll
    for (int c = 0; c < 16; ++c)
      s += t[r][c] * t[c][r];
  out[i] = s;
}

// Passed by reference into a `__forceinline__` helper that indexes it with
// the counter of an unrolled loop, two calls deep (0-byte stack frame).
template <int N> __device__ __forceinline__ void butterflyStep(float (&x)[N], int half) {
#pragma unroll
  for (int k = 0; k < N / 2; ++k) {
    float a = x[k], b = x[k + N / 2];
    x[k] = a + b;
    x[k + N / 2] = (a - b) * half;
  }
}
template <int N> __device__ __forceinline__ void butterfly(float (&x)[N]) {
  butterflyStep(x, 1);
  butterflyStep(x, 2);
}
__global__ void helperConstant(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x[32];
  for (int k = 0; k < 32; ++k)
    x[k] = in[i * 32 + k];
  butterfly(x);
  for (int k = 0; k < 32; ++k)
    out[i * 32 + k] = x[k];
}

// The same hand-over as `runtimeHandOver` below, but the run-time loop
// reads and writes in one loop between constant-trip loops: the compiler
// bounds its trips by the array and keeps it in registers (0-byte frame).
__global__ void runtimeSameLoop(const float *a, float *st, int dstate, int seqlen) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  float h[8];
  for (int n = 0; n < 8; ++n)
    h[n] = st[d * 8 + n];
  for (int l = 0; l < seqlen; ++l)
    for (int n = 0; n < dstate; ++n)
      h[n] = a[n * seqlen + l] * h[n];
  for (int n = 0; n < 8; ++n)
    st[d * 8 + n] = h[n];
}

// ---- positives ---------------------------------------------------------

// Passed by reference into a `__forceinline__` helper that indexes it with
// a value read from memory (64-byte stack frame).
__device__ __forceinline__ void countBin(int (&bins)[16], int v) { bins[v & 15] += 1; }
__global__ void helperData(const int *in, int *out, int n) {
  // CHECK: :[[@LINE+2]]:7: warning: private array 'bins' (int[16], 64 bytes a thread) is placed in local memory: the subscript in 'bins[v & 15]' is not a compile-time constant after unrolling ('in[i]' is loaded from memory)
  // CHECK: :[[@LINE-3]]:68: note: written here
  int bins[16] = {0};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    countBin(bins, in[i]);
  for (int b = 0; b < 16; ++b)
    atomicAdd(&out[b], bins[b]);
}

// Written in one loop with a run-time bound and read in another, as HeCBench
// ssm's selective_scan_base does with its state (32-byte stack frame: the
// whole array, at 8 elements).
__global__ void runtimeHandOver(const float *a, const float *b, float *st, float *y, int dstate, int seqlen) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+3]]:9: warning: private array 'h' (float[8], 32 bytes a thread) is placed in local memory: the subscript in 'h[n]' is not a compile-time constant after unrolling ('n' counts the loop at line [[@LINE+4]], whose trip count is not a compile-time constant ('dstate' is a run-time argument of 'runtimeHandOver'))
  // CHECK: note: the loop that decides it
  // CHECK: note: instead: give the loop a constant trip count
  float h[8];
  for (int n = 0; n < dstate; ++n)
    h[n] = st[d * dstate + n];
  for (int l = 0; l < seqlen; ++l) {
    float yv = 0;
    for (int n = 0; n < dstate; ++n) {
      h[n] = a[n * seqlen + l] * h[n] + b[n * seqlen + l];
      yv += h[n];
    }
    y[d * seqlen + l] = yv;
  }
}

// A constant-trip loop too long to unroll without a pragma: 512 iterations
// stay rolled (2048-byte stack frame, no spills).
__global__ void longLoop(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+2]]:9: warning: private array 't' (float[512], 2048 bytes a thread) is placed in local memory: the subscript in 't[k]' is not a compile-time constant after unrolling ('k' counts the loop at line [[@LINE+3]], whose 512 iterations nvcc does not unroll without `#pragma unroll`)
  // CHECK: note: instead: add `#pragma unroll`
  float t[512];
  for (int k = 0; k < 512; ++k)
    t[k] = in[i + k * 1024];
  float s = 0;
  for (int k = 0; k < 512; ++k)
    s += t[k] * (k + 1);
  out[i] = s;
}

// A counter reset by each inner loop inside a long loop that stays rolled
// (HeCBench clink's pattern): the inner loops unroll and the array stays in
// registers (0-byte stack frame).
__global__ void resetInLongLoop(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t, j;
  float s[5] = {0, 0, 0, 0, 0};
  for (t = 0; t < 20000; ++t) {
    float x = in[i * 20000 + t];
    for (j = 0; j < 5; ++j)
      s[j] = s[j] * 0.5f + x * j;
    out[i * 20000 + t] = s[0] + s[4];
  }
}
