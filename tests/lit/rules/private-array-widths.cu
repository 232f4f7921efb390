// RUN: %not %warplint check %s --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --rules private-array-local-memory --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
//
// The element's width decides small arrays (issue 19, item 3): ptxas keeps
// a few 32-bit elements in registers at a dynamic subscript, but not
// doubles, 64-bit integers, pointers, shorts or chars, which go to local
// memory from 2 elements. Frames are what `nvcc -arch=sm_90 -cubin
// -Xptxas -v` (CUDA 13.0) printed when this file was written.

// ---- positives ---------------------------------------------------------

// One read at a data-dependent position, outside any loop (16-byte frame).
// CHECK: :[[@LINE+2]]:10: warning: private array 'two' (double[2], 16 bytes a thread) is placed in local memory: the subscript in 'two[sel[threadIdx.x] & 1]' is not a compile-time constant after unrolling
__global__ void pickOfTwoDoubles(const int *sel, const double *in, double *out) {
  double two[2] = {in[2 * threadIdx.x], in[2 * threadIdx.x + 1]};
  out[threadIdx.x] = two[sel[threadIdx.x] & 1];
}

// Row pointers into shared memory chosen by the warp index (32 bytes).
// CHECK: :[[@LINE+4]]:17: warning: private array 'rows' (volatile int *[4], 32 bytes a thread) is placed in local memory: the subscript in 'rows[warp]' is not a compile-time constant after unrolling ('threadIdx.x' is known only at run time)
__global__ void warpRowPointers(int *dst) {
  extern __shared__ int pool[];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  volatile int *rows[4];
  for (int r = 0; r < 4; ++r)
    rows[r] = (volatile int *)&pool[r * 8];
  if (warp < 4 && lane < 8)
    rows[warp][lane] += lane;
  __syncthreads();
  dst[threadIdx.x] = pool[threadIdx.x % 32];
}

// A per-thread byte histogram of four bins (8-byte frame).
// CHECK: :[[@LINE+2]]:17: warning: private array 'bins' (unsigned char[4], 4 bytes a thread) is placed in local memory
__global__ void byteBins(const int *in, unsigned char *out, int n) {
  unsigned char bins[4] = {0, 0, 0, 0};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    bins[in[i] & 3] += 1;
  for (int b = 0; b < 4; ++b)
    out[b * 1024 + threadIdx.x] = bins[b];
}

// ---- negatives ---------------------------------------------------------

// The same three patterns over 32-bit elements: selects, no stack frame.
__global__ void pickOfTwoFloats(const int *sel, const float *in, float *out) {
  float two[2] = {in[2 * threadIdx.x], in[2 * threadIdx.x + 1]};
  out[threadIdx.x] = two[sel[threadIdx.x] & 1];
}
__global__ void warpRowOffsets(int *dst) {
  extern __shared__ int pool[];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int rows[4];
  for (int r = 0; r < 4; ++r)
    rows[r] = r * 8;
  if (warp < 4 && lane < 8)
    pool[rows[warp] + lane] += lane;
  __syncthreads();
  dst[threadIdx.x] = pool[threadIdx.x % 32];
}
__global__ void intBins(const int *in, int *out, int n) {
  int bins[4] = {0, 0, 0, 0};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    bins[in[i] & 3] += 1;
  for (int b = 0; b < 4; ++b)
    out[b * 1024 + threadIdx.x] = bins[b];
}
