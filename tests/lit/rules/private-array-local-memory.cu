// RUN: %not %warplint check %s --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --rules private-array-local-memory --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
//
// Every positive below has a stack frame under nvcc 13.0 -arch=sm_90
// -Xptxas -v and every negative has none (checked when this file was
// written; private-array-ptxas.cu repeats the check where nvcc is installed).

// ---- positives ---------------------------------------------------------

// A per-thread histogram: the subscript is data (ptxas: 64-byte frame).
__global__ void histogram16(const int *in, int *out, int n) {
  // CHECK-MESSAGES: :[[@LINE+3]]:7: warning: private array 'bins' (int[16], 64 bytes a thread) is placed in local memory: the subscript in 'bins[in[i] & 15]' is not a compile-time constant after unrolling ('in[i]' is loaded from memory); a local load takes about {{[0-9]+}} cycles when it hits L1 (a register {{[0-9]+}}), {{[0-9]+}} from L2 and {{[0-9]+}} from DRAM on NVIDIA H100 80GB HBM3 [private-array-local-memory]
  // CHECK-MESSAGES: :[[@LINE+4]]:5: note: written here
  // CHECK-MESSAGES: note: instead: keep data-indexed tables in shared memory
  int bins[16] = {0};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    bins[in[i] & 15]++;
  for (int b = 0; b < 16; ++b)
    atomicAdd(&out[b], bins[b]);
}

// A median by insertion sort: `j` is counted by a while loop (40 bytes).
__global__ void median9(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+3]]:9: warning: private array 'v' (float[9], 36 bytes a thread) is placed in local memory: the subscript in 'v[j]' is not a compile-time constant after unrolling ('j' changes in the `while` loop at line [[@LINE+9]], whose trip count is known only at run time)
  // CHECK-MESSAGES: note: the loop that decides it
  // CHECK-MESSAGES: note: instead: its elements move to data-dependent positions, as in a sort: a compare-exchange network {{.*}} a mean instead of a median (L_3)
  float v[9];
  for (int k = 0; k < 9; ++k)
    v[k] = in[i * 9 + k];
  for (int a = 1; a < 9; ++a) {
    float x = v[a];
    int j = a - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  out[i] = v[4];
}

// Loops of 512 iterations that nvcc keeps rolled (2048-byte stack frame,
// no spills). Not its size: with `#pragma unroll` on both loops ptxas keeps
// it in registers and spills what does not fit (1868 bytes of spill stores),
// so the finding names the loop, no longer a 488-byte size limit.
__global__ void bigArray(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:9: warning: private array 't' (float[512], 2048 bytes a thread) is placed in local memory: the subscript in 't[k]' is not a compile-time constant after unrolling ('k' counts the loop at line [[@LINE+3]], whose 512 iterations nvcc does not unroll without `#pragma unroll`)
  // CHECK-MESSAGES: note: instead: add `#pragma unroll`
  float t[512];
  for (int k = 0; k < 512; ++k)
    t[k] = in[i + k * 1024];
  float s = 0;
  for (int k = 0; k < 512; ++k)
    s += t[k] * t[511 - k];
  out[i] = s;
}

// The address goes to a function that is not inlined (16 bytes).
__device__ __noinline__ float sum4(const float *p) { return p[0] + p[1] + p[2] + p[3]; }
__global__ void escapes(const float *in, float *out) {
  int i = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:9: warning: private array 't' (float[4], 16 bytes a thread) is placed in local memory: its address is passed to 'sum4', which is not inlined (__noinline__)
  float t[4];
  for (int k = 0; k < 4; ++k)
    t[k] = in[i * 4 + k];
  out[i] = sum4(t);
}

// The index of the minimum is chosen by data (64 bytes).
__global__ void argmin16(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:9: warning: private array 't' (float[16], 64 bytes a thread) is placed in local memory: the subscript in 't[m]' is not a compile-time constant after unrolling ('m' is assigned under the condition at line [[@LINE+6]], which depends on run-time values
  float t[16];
  for (int k = 0; k < 16; ++k)
    t[k] = in[i * 16 + k];
  int m = 0;
  for (int k = 1; k < 16; ++k)
    if (t[k] < t[m])
      m = k;
  out[i] = t[m];
}

// A constant trip count kept rolled by a pragma (64 bytes).
__global__ void rolled16(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:9: warning: private array 't' (float[16], 64 bytes a thread) is placed in local memory: the subscript in 't[k]' is not a compile-time constant after unrolling ('k' counts the loop at line [[@LINE+4]], which `#pragma unroll 1` keeps rolled)
  // CHECK-MESSAGES: note: instead: let the loop unroll fully
  float t[16];
#pragma unroll 1
  for (int k = 0; k < 16; ++k)
    t[k] = in[i + k];
  float s = 0;
  for (int k = 0; k < 16; ++k)
    s += t[k] * k;
  out[i] = s;
}

// A loop bound known only at run time (256 bytes).
__global__ void runtimeBound(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:9: warning: private array 't' (float[64], 256 bytes a thread) is placed in local memory: the subscript in 't[k]' is not a compile-time constant after unrolling ('k' counts the loop at line [[@LINE+6]], whose trip count is not a compile-time constant ('n' is a run-time argument of 'runtimeBound'))
  // CHECK-MESSAGES: note: instead: give the loop a constant trip count
  float t[64];
  for (int k = 0; k < 64; ++k)
    t[k] = in[i + k * 1024];
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += t[k];
  out[i] = s;
}

// The sort lives in a helper analyzed in place (40 bytes).
__device__ void insertionSort(float *v, int n) {
  for (int a = 1; a < n; ++a) {
    float x = v[a];
    int j = a - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
}
__global__ void medianViaHelper(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:9: warning: private array 'w' (float[9], 36 bytes a thread) is placed in local memory: the subscript in 'v[j]' is not a compile-time constant after unrolling
  float w[9];
  for (int k = 0; k < 9; ++k)
    w[k] = in[i * 9 + k];
  insertionSort(w, 9);
  out[i] = w[4];
}

// ---- negatives ---------------------------------------------------------

// Constant subscripts once the loops are unrolled (ptxas: no stack frame).
__global__ void unrolled8(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    t[k] = in[i * 8 + k];
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += t[k] * t[7 - k];
  out[i] = s;
}

// L_3's replacement for the median: a mean needs no order.
__global__ void mean9(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v[9];
  for (int k = 0; k < 9; ++k)
    v[k] = in[i * 9 + k];
  float s = 0;
  for (int k = 0; k < 9; ++k)
    s += v[k];
  out[i] = s / 9;
}

// float4 unpacking through a cast of the array's address.
__global__ void unpack4(const float4 *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[4];
  *reinterpret_cast<float4 *>(t) = in[i];
  float s = 0;
  for (int k = 0; k < 4; ++k)
    s += t[k] * k;
  out[i] = s;
}

// float4 members copied into an array.
__global__ void unpackMembers(const float4 *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  float t[4] = {v.x, v.y, v.z, v.w};
  float s = 0;
  for (int k = 0; k < 4; ++k)
    s += t[k];
  out[i] = s;
}

// A bubble sort with constant trip counts becomes selects (seed 000's
// sort pattern; the profile's probe kept 64 elements in registers).
__global__ void bubble9(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[9];
  for (int k = 0; k < 9; ++k)
    t[k] = in[i * 9 + k];
  for (int a = 0; a < 9; ++a)
    for (int b = 0; b + 1 < 9 - a; ++b)
      if (t[b] > t[b + 1]) {
        float x = t[b];
        t[b] = t[b + 1];
        t[b + 1] = x;
      }
  out[i] = t[4];
}

// Matrix-multiply pattern within the measured budget (3 x 4x4).
__global__ void small3x3(const float *a, float *c) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  float A[4][4], C[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      A[i][j] = a[base + i * 4 + j];
      C[i][j] = 0.f;
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] += A[i][k] * A[k][j];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      c[base + i * 4 + j] = C[i][j];
}

// Small arrays with a few dynamic accesses become selects.
__global__ void selectTwo(const float *in, float *out) {
  int i = threadIdx.x;
  float t[2] = {in[i], in[i + 1]};
  out[i] = t[threadIdx.x & 1];
}
__global__ void argmin9(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[9];
  for (int k = 0; k < 9; ++k)
    t[k] = in[i * 9 + k];
  int m = 0;
  for (int k = 1; k < 9; ++k)
    if (t[k] < t[m])
      m = k;
  out[i] = t[m];
}
__global__ void oneLookup(const int *in, float *out) {
  float t[32];
  for (int k = 0; k < 32; ++k)
    t[k] = out[k * 1024 + threadIdx.x];
  out[threadIdx.x] = t[in[threadIdx.x] & 31];
}

// Constant subscripts through a helper and a template size.
__device__ float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
template <int N>
__global__ void templated(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a[N], b[N];
  for (int k = 0; k < N; ++k) {
    a[k] = in[i * N + k];
    b[k] = in[i * N + N - 1 - k];
  }
  out[i] = dot3(a, b);
}
template __global__ void templated<3>(const float *, float *);

// A counter advanced in a constant-trip loop is constant after unrolling.
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[16];
  int k = 0;
  for (int r = 0; r < 8; ++r) {
    t[k] = in[i + r];
    t[k + 1] = -in[i + r];
    k += 2;
  }
  float s = 0;
  for (int r = 0; r < 16; ++r)
    s += t[r] * r;
  out[i] = s;
}
