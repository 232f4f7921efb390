// RUN: %not %warplint check %s --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --rules private-array-local-memory --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
//
// Counters shared by several loops, and subscripts from a thread index or a
// parameter inside loops that stay rolled (issue 19, item 3). The stack
// frame of each kernel is what `nvcc -arch=sm_90 -cubin -Xptxas -v`
// (CUDA 13.0) printed when this file was written.

// ---- positives ---------------------------------------------------------

// A parameter picks the element updated in every step of a run-time-bound
// loop, while the other elements live from step to step: local memory at
// every size measured, 2 to 32 elements (here 4 doubles: 32-byte frame).
// CHECK: :[[@LINE+3]]:10: warning: private array 'state' (double[4], 32 bytes a thread) is placed in local memory: the subscript in 'state[slot]' is not a compile-time constant after unrolling ('slot' is a run-time argument of 'driftWithOffset')
// CHECK: note: instead: make the subscript a compile-time constant
__global__ void driftWithOffset(const double *in, double *out, int slot, int steps) {
  double state[4];
  for (int e = 0; e < 4; e++)
    state[e] = in[threadIdx.x * 4 + e];
  for (int s = 0; s < steps; s++) {
    for (int e = 0; e < 4; e++)
      state[e] = 0.5 * state[e] + in[s];
    state[slot] += 1.0;
  }
  for (int e = 0; e < 4; e++)
    out[threadIdx.x * 4 + e] = state[e];
}

// The same with the lane choosing the element, 2 doubles (16-byte frame).
// CHECK: :[[@LINE+2]]:10: warning: private array 'pair' (double[2], 16 bytes a thread) is placed in local memory: the subscript in 'pair[threadIdx.x & 1]' is not a compile-time constant after unrolling ('threadIdx.x' is known only at run time)
__global__ void laneTogglesPair(const double *in, double *out, int steps) {
  double pair[2] = {in[threadIdx.x], in[threadIdx.x + 1]};
  for (int s = 0; s < steps; s++) {
    pair[0] = pair[0] * 0.25 + in[s];
    pair[1] = pair[1] * 0.75 - in[s];
    pair[threadIdx.x & 1] += 2.0;
  }
  out[threadIdx.x] = pair[0] + pair[1];
}

// ---- negatives ---------------------------------------------------------

// The same with 4-byte elements: ptxas keeps up to 32 of them in registers
// (0-byte frame at 2 to 32 floats or ints; local from 64).
__global__ void laneTogglesFloats(const float *in, float *out, int steps) {
  float quad[4] = {in[threadIdx.x], in[threadIdx.x + 1], in[threadIdx.x + 2], in[threadIdx.x + 3]};
  for (int s = 0; s < steps; s++) {
    for (int e = 0; e < 4; e++)
      quad[e] = quad[e] * 0.5f + in[s];
    quad[threadIdx.x & 3] += 2.0f;
  }
  out[threadIdx.x] = quad[0] + quad[1] + quad[2] + quad[3];
}

// One counter `k` reused by three constant-trip loops (and assigned under a
// run-time condition): inside each loop it is that loop's counter, so every
// subscript is a constant once the loops unroll (0-byte frame).
__global__ void sharedCounter(const unsigned *a, float *out, int n) {
  int k;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    unsigned tally[12];
    for (k = 0; k < 12; k++)
      tally[k] = 0;
#pragma unroll 1
    for (int p = 0; p < n; p += 4) {
      tally[0] += __popc(a[p] & a[row]);
      tally[5] += __popc(a[p] | a[row]);
      tally[11] += __popc(a[p] ^ a[row]);
    }
    float score = 0.f;
    for (k = 0; k < 6; k++)
      score += tally[k] * 0.5f - tally[6 + k];
    for (k = 0; k < 12; k += 3)
      score -= tally[k];
    out[row] = score;
  }
}

// A counter reset by inner loops inside a 10000-step loop that stays rolled:
// the inner loops unroll, the array stays in registers (0-byte frame).
__global__ void innerCountersInLongLoop(const float *in, float *out) {
  int t, j;
  float acc[3] = {0.f, 0.f, 0.f};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (t = 0; t < 10000; ++t) {
    float x = in[i + t];
    for (j = 0; j < 3; ++j)
      acc[j] = acc[j] * 0.9f + x * (j + 1);
    for (j = 0; j < 3; ++j)
      out[i * 3 + j] += acc[j];
  }
}

// Declared inside the grid-stride loop, the array is new in every
// iteration: a parameter subscript there is straight-line code and becomes
// selects (0-byte frame at 2 to 32 elements).
__global__ void freshEachIteration(const float *in, float *out, int pick, int n) {
  for (int it = blockIdx.x * blockDim.x + threadIdx.x; it < n; it += blockDim.x * gridDim.x) {
    float w[8];
    for (int e = 0; e < 8; e++)
      w[e] = in[it * 8 + e];
    w[pick] += 1.0f;
    float s = 0.f;
    for (int e = 0; e < 8; e++)
      s += w[e] * e;
    out[it] = s;
  }
}
